// The keys' help (the `?` key, or the Keys button): every key in a modal dialog, which Escape or Close
// shuts, giving the focus back where it was. Neither the button nor the words under the board show on a
// touch screen (board.css), where there are no keys to press.

import { $, make } from "./dom.js";
import { columnOfKey } from "./columns.js";
import { cellOfKey } from "./game.js";
import { gridOf } from "./shape.js";
import { state, variant } from "./state.js";

function keyList() {
  const facts = variant();
  const grid = facts && gridOf(facts);
  const keypad = grid && cellOfKey(1, grid.rows, grid.cols, grid.layers) !== null;
  const box = grid && grid.layers > 1;
  const columns = grid && columnOfKey(1, grid) !== null;
  return [
    ["← →", "step back and forward along the line shown"],
    ["Home End", "the start of the game, its last move"],
    ["↑ ↓", "the other moves tried at the same point (where there are some)"],
    ["Shift+←", "leave the variation: back to where it branched"],
    ["Space", "play the best proven move (none where nothing is proven)"],
    ["f", "turn the board round, and back"],
    [
      "Tab",
      "onto the board: the arrow keys then move between its cells, Enter or Space plays one, " +
        "Escape gives the arrows back to the game",
    ],
    box ? ["PageUp PageDown", "on the board of a box: the same cell of the layer before or after"] : null,
    box ? ["[ ]", "the same as PageUp and PageDown"] : null,
    keypad ? ["1–9", "play the cells as laid out on a numeric keypad"] : null,
    columns ? [`1–${grid.cols}`, "drop a disc into the columns from the left"] : null,
    ["?", "this list"],
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
