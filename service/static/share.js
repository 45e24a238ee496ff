// Sharing a position: a PNG of the board, drawn to a canvas of the board's size on the screen (each cell
// where the page shows it, so that boxes, racks and big boards come out as seen) and downloaded; and the
// game's link, through the system's share sheet where there is one (navigator.share, on phones), else
// copied (controls.js).

import { $, setText } from "./dom.js";
import { copyLink } from "./controls.js";
import { board, state, variant } from "./state.js";
import { linkToGame } from "./url.js";
import { t } from "./i18n.js";

const COLOURS = {
  light: { bg: "#ffffff", line: "#cfcdc4", cell: "#f6f5f1", X: "#1f4fb8", O: "#b3261e" },
  dark: { bg: "#1e2024", line: "#3a3c43", cell: "#141518", X: "#9bb8ff", O: "#ff9a91" },
};

// The board as a canvas of its size on the screen, in CSS pixels (one image pixel each).
export function boardCanvas() {
  const frame = $("board").getBoundingClientRect();
  const width = Math.max(1, Math.round(frame.width));
  const height = Math.max(1, Math.round(frame.height));
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  const colour = COLOURS[dark ? "dark" : "light"];
  const context = canvas.getContext("2d");
  context.fillStyle = colour.bg;
  context.fillRect(0, 0, width, height);
  const marks = board();
  for (const cell of $("board").querySelectorAll(".cell[data-cell]")) {
    const box = cell.getBoundingClientRect();
    const [x, y] = [box.left - frame.left, box.top - frame.top];
    context.fillStyle = colour.cell;
    context.fillRect(x, y, box.width, box.height);
    context.strokeStyle = colour.line;
    context.lineWidth = 1;
    context.strokeRect(x + 0.5, y + 0.5, box.width - 1, box.height - 1);
    const mark = marks[Number(cell.dataset.cell)];
    if (mark === "X" || mark === "O") {
      context.fillStyle = colour[mark];
      context.font = `bold ${Math.round(Math.min(box.width, box.height) * 0.6)}px system-ui, sans-serif`;
      context.textAlign = "center";
      context.textBaseline = "middle";
      context.fillText(mark, x + box.width / 2, y + box.height / 2);
    }
  }
  return canvas;
}

function savePng() {
  boardCanvas().toBlob((blob) => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `sanmoku-${state.game.variant}-${state.game.ply}.png`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    setText($("share-state"), t("pngSaved"));
  }, "image/png");
}

// The share sheet where the browser has one and is on a touch screen (a desktop's sheet is little
// used); else the link is copied.
async function share() {
  const touch = window.matchMedia("(pointer: coarse)").matches;
  if (typeof navigator.share === "function" && touch) {
    try {
      await navigator.share({
        title: t("shareTitle", { name: variant().name }),
        url: new URL(linkToGame(state.game, variant()), window.location.href).href,
      });
      setText($("share-state"), t("shared"));
      return;
    } catch (error) {
      if (error.name === "AbortError") {
        return; // the player closed the sheet
      }
    }
  }
  await copyLink();
}

export function bindShare() {
  $("save-png").addEventListener("click", savePng);
  $("share").addEventListener("click", share);
}
