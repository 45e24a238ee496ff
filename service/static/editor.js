// The position editor: put X, O or nothing on any cell, choose the side to move (worked out from the
// marks when they differ in number), then analyse the position (two players, values shown, for this
// page only: see modes.js) or play on from it against the current opponent. The service checks the
// position: an impossible one is refused with the engine's own sentence, shown here.

import * as api from "./api.js";
import { serviceWords } from "./api.js";
import { later, t } from "./i18n.js";
import { $, isNarrow, setText } from "./dom.js";
import { EMPTY, emptyBoard } from "./game.js";
import { startGame } from "./flow.js";
import { enterAnalysisMode, leaveAnalysisMode } from "./modes.js";
import { board, render, state, toMove, variant } from "./state.js";

export function openEditor() {
  state.editor = { board: board(), toMove: toMove(), error: null, checking: false };
  render();
  // On a phone the board stays at the top (tools.css): the marks to paint with come just under it.
  $("editor").scrollIntoView({ block: isNarrow() ? "start" : "nearest" });
}

export function closeEditor() {
  state.editor = null;
  render();
}

function paintMark() {
  const chosen = document.querySelector("input[name='paint']:checked");
  return chosen ? chosen.value : "X";
}

// Puts the chosen mark on `cell`, or empties it when it already holds that mark.
export function paint(cell) {
  const editor = state.editor;
  const mark = paintMark();
  const marks = [...editor.board];
  marks[cell] = marks[cell] === mark ? EMPTY : mark;
  editor.board = marks.join("");
  editor.toMove = sideToMove(editor.board, editor.toMove);
  editor.error = null;
  render();
}

// With one mark more for X, O moves, and the other way round; with as many of each, either may (the
// game may have started with O), so the choice stays as it was.
function sideToMove(marks, chosen) {
  const count = (side) => [...marks].filter((mark) => mark === side).length;
  const [x, o] = [count("X"), count("O")];
  if (x === o + 1) {
    return "O";
  }
  return o === x + 1 ? "X" : chosen;
}

export function clearBoard() {
  state.editor.board = emptyBoard(variant().cells);
  state.editor.error = null;
  render();
}

export function setEditorToMove(side) {
  state.editor.toMove = side;
  state.editor.error = null;
  render();
}

// Asks the service about the position; on success starts a game from it, `analyse` with two players
// and the values on the board.
export async function applyEditor({ analyse }) {
  const editor = state.editor;
  editor.checking = true;
  render();
  try {
    const analysis = await api.analyze({
      board: editor.board,
      toMove: editor.toMove,
      variant: variant().name,
    });
    if (state.editor !== editor) {
      return;
    }
    state.editor = null;
    if (analyse) {
      enterAnalysisMode();
    } else {
      leaveAnalysisMode();
    }
    const start = analysis.board === emptyBoard(variant().cells) ? null : analysis.board;
    // "Position set up." only: the status line goes on to say whose move it is.
    startGame({ variant: variant().name, first: analysis.to_move, start }, { event: later("positionSetUp") });
  } catch (error) {
    if (state.editor === editor) {
      editor.checking = false;
      editor.error = serviceWords(error);
      render();
    }
  }
}

export function renderEditor() {
  const editor = state.editor;
  $("editor").hidden = !editor;
  $("edit").setAttribute("aria-expanded", String(Boolean(editor)));
  if (!editor) {
    return;
  }
  const side = document.querySelector(`input[name='editor-to-move'][value='${editor.toMove}']`);
  if (side) {
    side.checked = true;
  }
  const box = $("editor-error");
  box.hidden = !editor.error;
  setText(box, editor.error ? t("cannotBePlayed", { why: editor.error.replace(/\.(\uE001?)$/, "$1") }) : "");
  for (const id of ["editor-analyse", "editor-play"]) {
    $(id).disabled = editor.checking;
  }
}
