// The controls: the settings (opponent, sides, the computer's policy and depth from GET /policies and
// the variant's depth range, the overlay, the keys), the new-game settings, and the buttons under the
// board. The settings are remembered on the device (prefs.js).

import * as api from "./api.js";
import { $, fillSelect, option, setText } from "./dom.js";
import { canRedo, canUndo, newGame, show } from "./flow.js";
import { keepChoice, savedSettings } from "./modes.js";
import { savePrefs } from "./prefs.js";
import {
  atEnd,
  computersPlay,
  currentAnalysis,
  isComputerTurn,
  render,
  state,
  variant,
  vsComputer,
} from "./state.js";
import { linkToGame } from "./url.js";
import { foreign, later, t } from "./i18n.js";

export async function loadPolicies() {
  const { policies, default_depth: defaultDepth } = await api.getPolicies();
  state.policies = policies;
  state.defaultDepth = defaultDepth;
  fillSelect(
    $("policy"),
    policies.map((p) => option(p.name, p.name)),
    state.settings.policy,
  );
}

// Settings read from the device may name a policy the service no longer has: the first one then.
export function settleSettings() {
  const names = state.policies.map((p) => p.name);
  if (!names.includes(state.settings.policy)) {
    state.settings.policy = names[0];
  }
  if (!["off", "hint", "values"].includes(state.settings.overlay)) {
    state.settings.overlay = "off";
  }
}

function readSettings() {
  const data = new FormData($("settings"));
  state.settings = {
    ...state.settings,
    mode: data.get("mode") || "computer",
    human: data.get("human") || "X",
    policy: data.get("policy") || state.settings.policy,
    depth: Number(data.get("depth") || state.settings.depth),
    shortcuts: $("shortcuts").checked,
  };
}

// While a set-up position is analysed the settings saved before it are kept (see modes.js).
export function remember() {
  const kept = savedSettings();
  savePrefs(kept || state.settings, state.game);
}

// The opponent, the sides and the computer's settings do not change the game: the same position is
// shown again, and the computer moves if it is now its turn at the end of the game. The number keys
// change nothing in the game: the page is only drawn again (a computer waiting after a link stays).
export function onSettingsChange(event) {
  readSettings();
  const name = event.target.name;
  keepChoice(name, state.settings[name]);
  remember();
  if (name === "shortcuts") {
    render();
    return;
  }
  state.live = true;
  show(later("settingsChanged"));
}

export function onOverlayChange(event) {
  state.settings.overlay = event.target.value;
  keepChoice("overlay", event.target.value);
  remember();
  render();
}

export function onFirstChange(event) {
  state.settings.first = event.target.value;
  keepChoice("first", event.target.value);
  newGame();
  remember();
}

// The depth the variant allows: from its `depth` range, the default where the setting is out of it.
function depthChoices() {
  const { min, max, default: preset } = variant().depth;
  const depths = [];
  for (let depth = min; depth <= max; depth += 1) {
    depths.push(depth);
  }
  const wanted = state.settings.depth;
  return { depths, chosen: wanted >= min && wanted <= max ? wanted : preset };
}

export function renderSettings() {
  const computer = vsComputer() || computersPlay();
  document.querySelector("[data-for='computer']").hidden = !vsComputer();
  document.querySelector("[data-for='policy']").hidden = !computer;
  document.querySelector(`input[name='mode'][value='${state.settings.mode}']`).checked = true;
  $("human-side").value = state.settings.human;
  $("policy").value = state.settings.policy;
  $("shortcuts").checked = state.settings.shortcuts;
  $("first").value = state.settings.first;
  const policy = state.policies.find((p) => p.name === state.settings.policy);
  setText($("policy-summary"), policy ? foreign(policy.summary) : "");
  document.querySelector("[data-for='depth']").hidden = !computer || !policy?.uses_depth;
  const { depths, chosen } = depthChoices();
  const select = $("depth");
  if (select.dataset.range !== depths.join(",")) {
    fillSelect(
      select,
      depths.map((d) => option(d, String(d))),
      chosen,
    );
    select.dataset.range = depths.join(",");
  }
  select.value = String(chosen);
  state.settings.depth = chosen;
  document.querySelector(`input[name='overlay'][value='${state.settings.overlay}']`).checked = true;
}

export function renderControls() {
  const editing = state.editor !== null;
  $("undo").disabled = editing || state.busy || !canUndo();
  $("redo").disabled = editing || state.busy || !canRedo();
  const analysis = currentAnalysis();
  const computerToPlay = analysis && analysis.status === "in_progress" && isComputerTurn();
  $("play-on").hidden =
    editing || computersPlay() || !computerToPlay || state.busy || (atEnd() && state.live);
  const pause = $("pause");
  pause.hidden = editing || !computersPlay();
  pause.dataset.paused = String(state.paused);
  setText(pause, t(state.paused ? "goOn" : "pause"));
  $("edit").disabled = editing;
  $("new-game").disabled = editing;
  if (copied !== null && linkToGame(state.game, variant()) !== copied) {
    copied = null; // the words were about the link of a game that has moved on since
    setText($("copy-state"), "");
  }
}

let copied = null; // the link the copy-state line speaks of

export async function copyLink() {
  const link = linkToGame(state.game, variant());
  copied = link;
  try {
    await navigator.clipboard.writeText(link);
    setText($("copy-state"), t("linkCopied"));
  } catch {
    setText($("copy-state"), t("copyThisLink", { link }));
  }
}
