// The variants: those GET /variants lists in a menu, grouped by what answers them (a solved table, or
// the search), any other board through a small form whose name GET /variants/{name} checks (its
// sentence is shown when the service refuses it), and the facts of the variant being played.

import * as api from "./api.js";
import { $, make, option, setText } from "./dom.js";
import { variantName } from "./game.js";
import { state, variant } from "./state.js";

export async function loadVariants() {
  const { variants, limits, naming } = await api.getVariants();
  state.variants = new Map(variants.map((v) => [v.name, v]));
  state.presets = variants.map((v) => v.name);
  state.limits = limits;
  setText($("naming"), `The service's rule: ${naming}.`);
  setCustomLimits();
}

// The variant's facts, asked for once: a preset is known from the list, any other from its own URL.
export async function ensureVariant(name) {
  if (!state.variants.has(name)) {
    const facts = await api.getVariant(name);
    state.variants.set(name, facts);
    state.variants.set(facts.name, facts);
  }
  return state.variants.get(name);
}

// "4×4, four in a row, torus" style label: the preset's name and its size.
function variantLabel(facts) {
  const extras = [facts.torus ? "torus" : "", facts.misere ? "misère" : ""].filter(Boolean);
  const shape = `${facts.rows}×${facts.cols}, ${facts.k} in a row`;
  return `${facts.name} (${[shape, ...extras].join(", ")})`;
}

const GROUPS = {
  table: "Solved tables: every value exact",
  search: "Searched: exact where the search proves it",
};

// The menu's options in two groups, tables first; a board from the form joins its group.
function fillVariants(select, names) {
  const groups = Object.entries(GROUPS).map(([source, label]) => {
    const members = names.filter((name) => (state.variants.get(name).source || "search") === source);
    const options = members.map((name) => option(name, variantLabel(state.variants.get(name))));
    return make("optgroup", { attrs: { label } }, ...options);
  });
  select.replaceChildren(...groups.filter((group) => group.children.length > 0));
}

export function renderVariantChoice() {
  const current = variant();
  const names = [...state.presets];
  if (current && !names.includes(current.name)) {
    names.push(current.name);
  }
  const select = $("variant");
  if (select.dataset.names !== names.join(",")) {
    fillVariants(select, names);
    select.dataset.names = names.join(",");
  }
  if (current) {
    select.value = current.name;
    setText($("variant-rules"), current.rules);
    // "Another board" starts from the board being played: filled when that board changes, not when
    // the form opens (its toggle event comes after the click, and would undo what was typed since).
    const form = $("custom-form");
    if (form.dataset.variant !== current.name) {
      form.dataset.variant = current.name;
      fillCustomForm();
    }
  }
}

// The custom form's fields take their bounds from the service's `limits`.
// Past `max_table_cells` a board has no table: the note says that the search answers it.
function setCustomLimits() {
  const { min_side: minSide, max_side: maxSide, max_cells: maxCells, min_k: minK } = state.limits;
  const tables = state.limits.max_table_cells;
  const longest = Math.max(maxSide, Math.floor(tables / minSide)); // 2x11: a table holds it
  for (const id of ["custom-rows", "custom-cols"]) {
    $(id).min = String(minSide);
    $(id).max = String(longest);
  }
  $("custom-k").min = String(minK);
  const longer = longest > maxSide ? ` (up to ${longest} on a board of at most ${tables} cells)` : "";
  const sizes = `Sides from ${minSide} to ${maxSide}${longer}, at most ${maxCells} cells.`;
  const search = `Past ${tables} cells there is no table: a search answers within about a second, not always exactly.`;
  setText($("custom-limits"), `${sizes} ${search}`);
}

// Fills the form with the variant being played, so that "another board" starts from this one.
function fillCustomForm() {
  const current = variant();
  if (!current) {
    return;
  }
  $("custom-rows").value = String(current.rows);
  $("custom-cols").value = String(current.cols);
  $("custom-k").value = String(current.k);
  $("custom-torus").checked = current.torus;
  $("custom-misere").checked = current.misere;
  updateCustomK();
}

export function updateCustomK() {
  const longest = Math.max(Number($("custom-rows").value), Number($("custom-cols").value));
  if (Number.isFinite(longest) && longest > 0) {
    $("custom-k").max = String(longest);
  }
}

// What is wrong with the size asked for, by the service's `limits`, or "" when it fits: said at once,
// before any request.
export function sizeProblem({ rows, cols, k }, limits) {
  const { min_side: low, max_side: high, max_cells: most, min_k: minK, max_table_cells: tables } = limits;
  const whole = [rows, cols, k].every(Number.isInteger);
  if (!whole) {
    return "Rows, columns and the line's length are whole numbers.";
  }
  if ([rows, cols].some((side) => side < low)) {
    return `Rows and columns go from ${low} to ${high}.`;
  }
  // A side past `max_side` is served on a board a table holds (2x11), as GET /variants `naming` says.
  if ([rows, cols].some((side) => side > high) && rows * cols > tables) {
    return `Rows and columns go from ${low} to ${high}, or further on a board of at most ${tables} cells.`;
  }
  if (rows * cols > most) {
    return `${rows} × ${cols} is ${rows * cols} cells; the service plays at most ${most}.`;
  }
  if (k < minK || k > Math.max(rows, cols)) {
    return `A line is from ${minK} cells long up to the longer side (${Math.max(rows, cols)}).`;
  }
  return "";
}

// The name the form describes, checked here against the limits and then by the service; resolves to
// the variant's name or throws the sentence that says why not.
export async function customVariant() {
  const size = {
    rows: Number($("custom-rows").value),
    cols: Number($("custom-cols").value),
    k: Number($("custom-k").value),
  };
  const problem = sizeProblem(size, state.limits);
  if (problem) {
    throw new Error(problem);
  }
  const name = variantName({ ...size, torus: $("custom-torus").checked, misere: $("custom-misere").checked });
  const facts = await ensureVariant(name);
  return facts.name;
}

export function showCustomError(message) {
  const box = $("custom-error");
  box.hidden = !message;
  setText(box, message || "");
}
