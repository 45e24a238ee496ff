// The controls: the settings form (opponent, sides, variant, the computer's policy) and the buttons
// under the board. The variants come from GET /variants; the policies are those of POST /move.

import * as api from "./api.js";
import { $, setText } from "./dom.js";
import { newGame } from "./flow.js";
import { undoLength } from "./game.js";
import { DEFAULT_DEPTH, humanSide, render, state, variant, vsComputer } from "./state.js";

// The policies of POST /move, strongest first.
const POLICIES = [
  {
    name: "perfect",
    label: "Perfect",
    summary: "Always a best move: the fastest win, else a draw, else the slowest loss.",
  },
  {
    name: "random-best",
    label: "Perfect, varied",
    summary: "A best move drawn at random: never gives away value, varies its games.",
  },
  { name: "human", label: "Tricky", summary: "A best move that leaves you the most ways to go wrong." },
  { name: "strategy", label: "Rule list", summary: "Win, block, centre, corner: fixed rules, no search." },
  {
    name: "depth",
    label: "Look-ahead",
    summary: "Searches a few plies ahead and guesses beyond: pick the depth.",
  },
  { name: "random", label: "Random", summary: "Any legal move, drawn at random." },
];
const DEPTHS = [1, 2, 3, 4, 5, 6, 7, 8];

function option(value, text) {
  const element = document.createElement("option");
  element.value = String(value);
  element.textContent = text;
  return element;
}

function fillSelect(select, options, selected) {
  select.replaceChildren(...options);
  select.value = String(selected);
}

export function populateStaticChoices() {
  fillSelect(
    $("policy"),
    POLICIES.map((p) => option(p.name, p.label)),
    state.settings.policy,
  );
  fillSelect(
    $("depth"),
    DEPTHS.map((d) => option(d, String(d))),
    state.settings.depth,
  );
}

function populateVariants() {
  const choices = [...state.variants.values()].map((v) =>
    option(v.name, v.misere ? `${v.name} (three in a row loses)` : v.name),
  );
  fillSelect($("variant"), choices, state.settings.variant);
}

// Without the list the page still plays, with normal rules; the failure is kept to be said with the game.
export async function loadVariants() {
  try {
    const { variants } = await api.getVariants();
    state.variants = new Map(variants.map((v) => [v.name, v]));
  } catch (error) {
    state.event = `The variants could not be loaded (${error.message}); playing normal rules.`;
  }
  populateVariants();
}

export function readSettings() {
  const form = $("settings");
  const data = new FormData(form);
  state.settings = {
    mode: data.get("mode") || "computer",
    human: data.get("human") || "X",
    first: data.get("first") || "X",
    variant: data.get("variant") || "normal",
    policy: data.get("policy") || "perfect",
    depth: Number(data.get("depth") || DEFAULT_DEPTH),
    shortcuts: $("shortcuts").checked,
  };
}

// The computer's policy and the keys do not change the game itself, so they do not start a new one.
export function onSettingsChange(event) {
  readSettings();
  if (["policy", "depth", "shortcuts"].includes(event.target.name)) {
    render();
    return;
  }
  newGame();
}

export function renderSettings() {
  const computer = vsComputer();
  for (const field of document.querySelectorAll("[data-for='computer']")) {
    field.hidden = !computer;
  }
  document.querySelector("[data-for='depth']").hidden = !computer || state.settings.policy !== "depth";
  const policy = POLICIES.find((p) => p.name === state.settings.policy);
  setText($("policy-summary"), policy ? policy.summary : "");
  setText($("variant-rules"), variant().rules || "");
}

export function renderControls() {
  $("undo").disabled = undoLength(state.moves, state.settings.first, humanSide()) === null;
  $("overlay-toggle").checked = state.overlay;
}
