// The mode the page is in, said above the board: playing the computer, two players, or looking at a
// position set up in the editor. Analysing a set-up position switches to two players with the values
// shown for this page only: the settings saved on the device stay as they were (controls.js saves
// through savedSettings()), and "Back to my settings" or any change of a setting ends it.

import { $, setText } from "./dom.js";
import { show } from "./flow.js";
import { state } from "./state.js";
import { later, t } from "./i18n.js";

let kept = null; // the settings as saved (a new game's first player too) while a set-up position is analysed

export function enterAnalysisMode() {
  if (!kept) {
    kept = { settings: { ...state.settings } };
  }
  state.settings = { ...state.settings, mode: "humans", overlay: "values" };
}

// Back to the settings saved before the analysis (the position on the board stays).
export function leaveAnalysisMode() {
  if (kept) {
    state.settings = { ...kept.settings, depth: state.settings.depth };
    kept = null;
  }
}

// A setting the player changes by hand is theirs to keep, saved with the others as they were; choosing
// the opponent by hand ends the analysis mode.
export function keepChoice(name, value) {
  if (!kept) {
    return;
  }
  if (name === "mode") {
    kept = null;
  } else {
    kept.settings[name] = value;
  }
}

export function inAnalysisMode() {
  return kept !== null;
}

// What to save on the device: while a position is analysed, the settings as they were before.
export function savedSettings() {
  return kept ? kept.settings : null;
}

function modeWords() {
  if (kept) {
    return t("modeAnalysing");
  }
  if (state.settings.mode === "humans") {
    return t("modeHumans");
  }
  const { policy, human } = state.settings;
  if (state.settings.mode === "computers") {
    return t(state.paused ? "modeComputersPaused" : "modeComputers", { policy });
  }
  return t("modeComputer", { side: human, policy });
}

export function renderMode() {
  setText($("mode-words"), modeWords());
  $("mode-back").hidden = !kept;
}

// The position stays; with the computer as the opponent again, it moves if it is its turn.
export function backToSettings() {
  leaveAnalysisMode();
  state.live = true;
  show(later("backToSaved"));
}
