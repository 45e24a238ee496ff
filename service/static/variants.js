// The variants: those GET /variants lists in a menu, grouped by what answers them (a solved table, or
// the search), any other board through a small form whose name is written as GET /variants `name_form`
// says and checked by GET /variants/{name} (its sentence is shown when the service refuses it), and the
// facts of the variant being played. A box of layers is named as `name_form.box_pattern` says, with only
// `box_options`, when the form's Layers is more than 1. An option the name cannot take is disabled, and a
// note says why.

import * as api from "./api.js";
import { $, make, option, setText } from "./dom.js";
import { drawable, gridOf, isRack, sidesWords } from "./shape.js";
import { state, variant } from "./state.js";
import { foreign, language, listWords, sentences, t } from "./i18n.js";

export async function loadVariants() {
  const { variants, limits, naming, name_form: nameForm } = await api.getVariants();
  const shown = variants.filter(drawable);
  state.variants = new Map(shown.map((v) => [v.name, v]));
  state.presets = shown.map((v) => v.name);
  state.limits = limits;
  state.nameForm = nameForm;
  state.naming = naming;
  renderNaming();
  setCustomLimits();
}

// The service's rule for names, in its own words inside the page's sentence.
function renderNaming() {
  setText($("naming"), state.naming ? t("serviceRule", { rule: foreign(state.naming) }) : "");
}

// The variant's facts, asked for once: a preset is known from the list, any other from its own URL. A
// board the page cannot draw (shape.js) is refused with a sentence.
export async function ensureVariant(name) {
  if (!state.variants.has(name)) {
    const facts = await api.getVariant(name);
    if (!drawable(facts)) {
      throw new Error(t("cannotDraw", { name: facts.name }));
    }
    state.variants.set(name, facts);
    state.variants.set(facts.name, facts);
  }
  return state.variants.get(name);
}

// "4×4, four in a row, torus" style label: the preset's name and its size ("3×3×3" for a box); "exactly 5
// in a row" under the rule exactly k.
function variantLabel(facts) {
  const { torus } = gridOf(facts);
  const extras = [torus ? t("torus") : "", facts.misere ? t("misere") : ""].filter(Boolean);
  const count = t(facts.exact ? "exactlyInARow" : "inARow", { k: facts.k });
  const described = [sidesWords(facts), count, ...extras].join(t("listGap"));
  return t("variantLabel", { name: facts.name, facts: described });
}

const GROUPS = { table: "groupTables", search: "groupSearched" };

// The menu's options in two groups, tables first; a board from the form joins its group.
function fillVariants(select, names) {
  const groups = Object.entries(GROUPS).map(([source, key]) => {
    const label = t(key);
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
  const key = `${names.join(",")} ${language()}`;
  if (select.dataset.names !== key) {
    fillVariants(select, names);
    select.dataset.names = key;
    setCustomLimits();
    renderNaming();
    renderCustomOptions();
  }
  if (current) {
    select.value = current.name;
    setText($("variant-rules"), foreign(current.rules));
    // "Another board" starts from the board being played: filled when that board changes, not when
    // the form opens (its toggle event comes after the click, and would undo what was typed since).
    const form = $("custom-form");
    if (form.dataset.variant !== current.name) {
      form.dataset.variant = current.name;
      fillCustomForm();
    }
  }
}

// The custom form's fields take their lower bounds from the service's `limits`; the note says the rest
// in words. No upper bound: whether a board is served is GET /variants/{name}'s to say.
function setCustomLimits() {
  const { min_side: minSide, max_side: maxSide, max_cells: maxCells, min_k: minK } = state.limits;
  const tables = state.limits.max_table_cells;
  for (const id of ["custom-rows", "custom-cols"]) {
    $(id).min = String(minSide);
  }
  $("custom-layers").min = "1";
  $("custom-k").min = String(minK);
  const sizes = t("customSizes", { minSide, maxSide, maxCells });
  const box = boxWords(state.nameForm);
  // One search answers within its budget (a second by default), but a move and the computer's reply are
  // two searches and its choice: two or three seconds, as measured on the page.
  const search = t("customSearch", { tables });
  setText($("custom-limits"), sentences([sizes, box, search]));
}

// What Layers does, from the name form: "Layers past 1 make a box of that many grids, its lines through
// the layers too; it takes only misère and exactly k of the options."
function boxWords({ box_pattern: boxPattern, box_options: boxOptions }) {
  if (!boxPattern) {
    return "";
  }
  return boxOptions.length > 0 ? t("boxWordsOnly", { options: optionList(boxOptions) }) : t("boxWords");
}

// Whether the form describes a box: Layers filled in with anything but 1 (the service says what is
// wrong with 0 layers or 21).
function describesBox() {
  const layers = customField("layers").value.trim();
  return Boolean(state.nameForm.box_pattern) && layers !== "" && layers !== "1";
}

// Options the service refuses together ("-exact takes no -torus or -gravity"), as name_form.excludes
// lists them; GET /variants/{name} still has the last word on whatever the form writes.
function excludes(option, other) {
  const listed = state.nameForm.excludes ?? {};
  return (listed[option] ?? []).includes(other) || (listed[other] ?? []).includes(option);
}

// Disables the options the name cannot take, and says why under them: on a box, those not in
// `box_options`; else an option that excludes one ticked. A ticked option stays enabled, so that it can
// always be unticked (a name holding both is then the service's to refuse, in its own sentence).
export function renderCustomOptions() {
  const box = describesBox();
  const taken = box ? state.nameForm.box_options : state.nameForm.options;
  const fields = state.nameForm.options.filter((option) => customField(option));
  const held = fields.filter((option) => taken.includes(option) && customField(option).checked);
  const notOnBox = fields.filter((option) => !taken.includes(option));
  const blocked = fields.filter(
    (option) => taken.includes(option) && !held.includes(option) && held.some((o) => excludes(option, o)),
  );
  for (const option of fields) {
    customField(option).disabled = notOnBox.includes(option) || blocked.includes(option);
  }
  const blockers = held.filter((option) => blocked.some((o) => excludes(option, o)));
  const notes = [
    notOnBox.length > 0
      ? t("offOnBox", { off: optionList(notOnBox), n: notOnBox.length, taken: optionList(taken) })
      : "",
    blocked.length > 0
      ? t("offWhile", {
          off: optionList(blocked),
          n: blocked.length,
          blockers: optionList(blockers),
          m: blockers.length,
        })
      : "",
  ];
  // Never hidden, only emptied: a live region must stay in the page for its news to be read out.
  setText($("custom-options-note"), sentences(notes));
}

// An option in words: "torus"; one the page has no words for keeps its name.
function optionWords(option) {
  return ["torus", "gravity", "misere", "exact"].includes(option) ? t(`option-${option}`) : option;
}

// "torus, gravity and misère"
function optionList(options) {
  return listWords(options.map(optionWords));
}

// The form's field for a part of a name: `custom-rows` for the pattern's {rows}, `custom-gravity` for
// the option "gravity"; null when the form has none.
function customField(part) {
  return $(`custom-${part}`);
}

// Fills the form with the variant being played, so that "another board" starts from this one: its sides
// from its shape, and each option of the name from the variant's field of that name (`torus`, ...).
function fillCustomForm() {
  const current = variant();
  if (!current) {
    return;
  }
  const { layers, rows, cols } = gridOf(current);
  $("custom-layers").value = String(layers);
  $("custom-rows").value = String(rows);
  $("custom-cols").value = String(cols);
  $("custom-k").value = String(current.k);
  for (const option of state.nameForm.options) {
    const box = customField(option);
    if (box) {
      box.checked = Boolean(current[option]);
    }
  }
  renderCustomOptions();
}

// The name the form describes, written as GET /variants `name_form` says: the pattern (a box's when
// Layers is more than 1) with each field filled in, then "-" and each option whose box is ticked, of
// those that pattern takes, in the order given.
function customName({ pattern, options, box_pattern: boxPattern, box_options: boxOptions }) {
  const box = describesBox();
  const filled = (box ? boxPattern : pattern).replace(/\{(\w+)\}/g, (_, part) =>
    (customField(part)?.value ?? "").trim(),
  );
  const held = (box ? boxOptions : options).filter((option) => customField(option)?.checked);
  return [filled, ...held].join("-");
}

// The board the form describes, as the service names it; throws the service's sentence (a 422 from
// GET /variants/{name}) when it does not play that board.
export async function customVariant() {
  const facts = await ensureVariant(customName(state.nameForm));
  return facts.name;
}

export function showCustomError(message) {
  const box = $("custom-error");
  box.hidden = !message;
  setText(box, message || "");
}

// The board a column string alone is a game on, when the board being played is not a rack: the first
// rack GET /variants lists (Connect Four), or null when it lists none. A gravity box has no column
// strings: its columns are a layer's places, not 1–9 from the left.
export function gravityPreset() {
  return state.presets.find((name) => isRack(gridOf(state.variants.get(name)))) ?? null;
}
