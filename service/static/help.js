// The keys' help (the `?` key, or the Keys button): every key in a modal dialog, which Escape or Close
// shuts, giving the focus back where it was. Neither the button nor the words under the board show on a
// touch screen (board.css), where there are no keys to press.

import { $, make } from "./dom.js";
import { columnOfKey } from "./columns.js";
import { cellOfKey } from "./game.js";
import { gridOf } from "./shape.js";
import { state, variant } from "./state.js";
import { t } from "./i18n.js";

function keyList() {
  const facts = variant();
  const grid = facts && gridOf(facts);
  const keypad = grid && cellOfKey(1, grid.rows, grid.cols, grid.layers) !== null;
  const box = grid && grid.layers > 1;
  const columns = grid && columnOfKey(1, grid) !== null;
  return [
    ["← →", t("keyStep")],
    ["Home End", t("keyHomeEnd")],
    ["↑ ↓", t("keyUpDown")],
    ["Shift+←", t("keyShiftLeft")],
    ["Space", t("keySpace")],
    ["f", t("keyF")],
    ["Tab", t("keyTab")],
    box ? ["PageUp PageDown", t("keyPage")] : null,
    box ? ["[ ]", t("keyBrackets")] : null,
    keypad ? ["1–9", t("keyKeypad")] : null,
    columns ? [`1–${grid.cols}`, t("keyColumns")] : null,
    ["?", t("keyHelp")],
  ].filter(Boolean);
}

export function showKeys() {
  const dialog = $("keys-dialog");
  if (dialog.open) {
    return;
  }
  $("keys-list").replaceChildren(
    ...keyList().flatMap(([keys, meaning]) => [
      make("dt", {}, ...keys.split(" ").flatMap((key, i) => [i ? " " : "", make("kbd", { text: key })])),
      make("dd", { text: meaning }),
    ]),
  );
  dialog.showModal();
  state.keyboardOnBoard = false;
}

export function bindKeysHelp() {
  $("keys-button").addEventListener("click", showKeys);
}
