// The service's certificates of a win on five in a row, stepped on the board. A win by continuous fours
// (`win_line`: both sides' moves, every defence forced) is shown and stepped as the main line is
// (analysis.js, goban.js), where the answer has no main line of its own: on 15×15 no distance is proven
// within a request's time. A win by threes (`win_tree`) is a tree: the attacker's next move is offered
// (numbered 1 on the board, and a button plays it); the defender plays any reply on the board, and the
// tree gives the attacker's answer to it. Where the game stands in the tree is read from the game's line
// each time, so the two cannot disagree: a move off the tree, a new game or a step through the game
// (flow.js's goTo) drops it, and the position then shown offers its own certificate, if it has one.

import { $, setData, setText } from "./dom.js";
import { humanMove } from "./flow.js";
import { other } from "./game.js";
import { t } from "./i18n.js";
import { cellName, currentAnalysis, isComputerTurn, state, toMove } from "./state.js";

// The win by continuous fours of `analysis`, as state.mainline holds a main line (from, cells, status),
// or null. The line ends with the side to move's five.
export function foursLine(analysis) {
  const line = analysis && analysis.status === "in_progress" ? analysis.win_line : null;
  if (!line || !Array.isArray(line.cells) || line.cells.length === 0) {
    return null;
  }
  const from = analysis.to_move;
  return { from, cells: line.cells, status: `${from.toLowerCase()}_won`, fours: true };
}

// The attacker's node after the defender's `reply` to `node`: the listed reply's; after any other, the
// `follow` node after a quiet move (its line of fours), else the `otherwise` move, which completes the
// line after a four and makes two threats at once after a three; null after a line or two threats, where
// the tree ends and the service's next answer takes over.
function nextNode(node, reply) {
  const listed = (node.replies || []).find((answer) => answer.cell === reply);
  if (listed) {
    return listed.then;
  }
  if (node.follow) {
    return node.follow;
  }
  if (!Number.isInteger(node.otherwise)) {
    return null;
  }
  return { move: node.otherwise, threat: node.threat === "four" ? "line" : "two", replies: [] };
}

// The attacker's moves that `node` still needs, its own counted, whatever the defender replies.
function movesLeft(node) {
  if (node.threat === "line") {
    return 1;
  }
  if (node.threat === "two") {
    return 2; // the two threats, then the one the defender could not block
  }
  const after = (node.replies || []).map((reply) => movesLeft(reply.then));
  if (node.follow) {
    after.push(movesLeft(node.follow));
  }
  if (Number.isInteger(node.otherwise)) {
    after.push(node.threat === "four" ? 1 : 2);
  }
  return 1 + Math.max(0, ...after);
}

// Where the game's line stands in the kept tree: { node, toPlay, attacker } (toPlay: the node's move is
// the attacker's to play now; else the defender replies to it), or null once the line has left it.
function walk(certificate) {
  const { game } = state;
  const { base, tree, attacker } = certificate;
  if (game.variant !== base.variant || game.first !== base.first || game.start !== base.start) {
    return null;
  }
  const line = game.moves.slice(0, game.ply);
  if (line.length < base.line.length || base.line.some((cell, index) => line[index] !== cell)) {
    return null;
  }
  const played = line.slice(base.line.length);
  let node = tree.root;
  for (let index = 0; index < played.length && node; index += 1) {
    if (index % 2 === 0 && played[index] !== node.move) {
      return null; // the attacker played another move
    }
    if (index % 2 === 1) {
      node = nextNode(node, played[index]);
    }
  }
  return node ? { node, toPlay: played.length % 2 === 0, attacker } : null;
}

// The tree being stepped and where the game stands in it: the kept one while the line follows it, else
// the position's own (its answer's `win_tree`), or null. Only while the values are shown, as the main line.
export function treeStep() {
  if (state.settings.overlay !== "values" || state.editor !== null) {
    return null;
  }
  const kept = state.certificate && walk(state.certificate);
  if (kept) {
    return kept;
  }
  const analysis = currentAnalysis();
  const tree = analysis && analysis.status === "in_progress" ? analysis.win_tree : null;
  state.certificate = null;
  if (tree && tree.root) {
    const { variant, first, start, moves, ply } = state.game;
    const base = { variant, first, start, line: moves.slice(0, ply) };
    state.certificate = { base, tree, attacker: analysis.to_move };
  }
  return state.certificate && walk(state.certificate);
}

// The tree's next move, when it is the attacker's to play and the game goes on: { cell, side }, or null.
export function treeMove() {
  const step = treeStep();
  const analysis = currentAnalysis();
  const over = analysis && analysis.status !== "in_progress";
  return step && step.toPlay && !over ? { cell: step.node.move, side: step.attacker } : null;
}

function playTreeMove() {
  const next = treeMove();
  if (next && next.side === toMove() && !state.busy && !isComputerTurn()) {
    humanMove(next.cell);
  }
}

export function renderCertificate() {
  const step = treeStep();
  const analysis = currentAnalysis();
  const shown = Boolean(step && !(analysis && analysis.status !== "in_progress"));
  const box = $("win-tree");
  box.hidden = !shown;
  if (!shown) {
    return;
  }
  const { node, toPlay, attacker } = step;
  const defender = other(attacker);
  const left = toPlay ? movesLeft(node) : movesLeft(node) - 1;
  const now = toPlay
    ? t("treeNext", { attacker, cell: cellName(node.move), threat: t(`threat-${node.threat}`) })
    : t("treeReply", { attacker, defender });
  setText($("win-tree-words"), `${t("treeSummary", { attacker, defender, n: left })}${t("sentenceGap")}${now}`);
  setData(box, "attacker", attacker);
  setData(box, "turn", toPlay ? "attacker" : "defender");
  setData(box, "move", toPlay ? String(node.move) : undefined);
  const button = $("win-tree-step");
  button.hidden = !toPlay;
  button.disabled = !toPlay || state.busy || attacker !== toMove() || isComputerTurn();
}

export function bindCertificate() {
  $("win-tree-step").addEventListener("click", playTreeMove);
}
