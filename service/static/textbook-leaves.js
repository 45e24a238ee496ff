// The nine leaves of Russell and Norvig's two-ply tree, each an editable number (figure 5.2's utilities
// to start with): changing one walks the tree again, so one can see which leaves alpha-beta never reads.

import { make, setText } from "./dom.js";
import { TEXTBOOK_LEAVES } from "./textbook-tree.js";
import { localized } from "./i18n.js";

const LIMIT = 999; // a leaf is a whole number from −999 to 999: enough for any lesson, short in a row

// Every word the leaves' form says, in one place so that it can be translated (strings-ja.js, leavesWords).
export const LEAVES_WORDS = localized({
  legend: "Leaves: the utility for MAX at the end of each line",
  group: (letter) => `Under ${letter} (MIN)`,
  leaf: (move) => `Leaf ${move}`,
  reset: "The figure's leaves",
  bad: (move) => `Leaf ${move} must be a whole number from −${LIMIT} to ${LIMIT}.`,
  intro:
    "MAX moves at the top (A), MIN at B, C and D; each leaf is a position at the end of play, with its utility for MAX. Change a leaf to see which ones alpha-beta never reads.",
}, "leavesWords");

const W = LEAVES_WORDS;
const leaves = { inputs: [], note: null };
let changed = () => {};

export function textbookControls(onChange) {
  changed = onChange;
  leaves.inputs = []; // made again after a switch of language: only the new form's inputs count
  const groups = ["B", "C", "D"].map((letter, i) => {
    const inputs = [0, 1, 2].map((j) => {
      const move = `${letter.toLowerCase()}${j + 1}`;
      const input = make("input", {
        className: "textbook-leaf",
        attrs: {
          type: "number",
          inputmode: "numeric",
          min: -LIMIT,
          max: LIMIT,
          step: 1,
          value: TEXTBOOK_LEAVES[3 * i + j],
          id: `textbook-leaf-${move}`,
          "data-move": move,
        },
      });
      input.addEventListener("input", () => changed());
      leaves.inputs.push(input);
      return make("label", { className: "textbook-leaf-label" }, `${W.leaf(move)} `, input);
    });
    const legend = make("legend", { text: W.group(letter) });
    return make("fieldset", { className: "textbook-group" }, legend, ...inputs);
  });
  const reset = make("button", { className: "secondary", text: W.reset, attrs: { type: "button" } });
  reset.addEventListener("click", () => {
    leaves.inputs.forEach((input, i) => {
      input.value = String(TEXTBOOK_LEAVES[i]);
    });
    changed();
  });
  leaves.note = make("p", { className: "note", attrs: { id: "textbook-note", "aria-live": "polite" } });
  return make(
    "div",
    { className: "textbook", attrs: { id: "textbook" } },
    make("p", { className: "note", text: W.intro }),
    make("fieldset", { className: "textbook-leaves" }, make("legend", { text: W.legend }), ...groups, reset),
    leaves.note,
  );
}

// The nine leaves as numbers, or null (and a note saying which) while one is not a number in range.
export function textbookLeaves() {
  const values = [];
  for (const input of leaves.inputs) {
    const value = Number(input.value);
    if (input.value.trim() === "" || !Number.isInteger(value) || Math.abs(value) > LIMIT) {
      setText(leaves.note, W.bad(input.dataset.move));
      input.setAttribute("aria-invalid", "true");
      return null;
    }
    input.removeAttribute("aria-invalid");
    values.push(value);
  }
  setText(leaves.note, "");
  return values;
}
