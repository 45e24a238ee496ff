// The game as gomoku players write it, in the import and export dialog beside the game's text
// (exchange.js): the line shown as a move list ("h8 i9 h9") and as a Piskvork .psq record, and either
// read back. The service reads and writes both (POST /record), so the page keeps no copy of the .psq
// format. Only a flat board played from the empty board has such a record: a box's cells have no such
// names, and a set-up position no moves to reach it.

import * as api from "./api.js";
import { $, readingOnce, setText } from "./dom.js";
import { serviceWords } from "./api.js";
import { t } from "./i18n.js";
import { recordFromItems } from "./record.js";
import { gridOf } from "./shape.js";
import { state, variant } from "./state.js";
import { ensureVariant } from "./variants.js";

let opener = null; // app.js's openGame
let written = { key: null, names: "", psq: "" }; // the last answer, for the line it was asked for

function hasRecord(facts) {
  return gridOf(facts).layers === 1;
}

function lineKey() {
  const { variant: name, first, moves, ply } = state.game;
  return `${name} ${first} ${moves.slice(0, ply).join(",")}`;
}

// Asks the service for the line up to the move shown, once per line; the fields show the answer.
async function writeLine() {
  const key = lineKey();
  if (written.key === key) {
    return;
  }
  written = { key, names: "", psq: "" };
  const { variant: name, first, moves, ply } = state.game;
  try {
    const answer = await api.record({ moves: moves.slice(0, ply), variant: name, first });
    if (written.key === key) {
      written = { key, names: (answer.names || []).join(" "), psq: answer.psq || "" };
    }
  } catch (error) {
    if (written.key === key) {
      written = { key, names: "", psq: "", error: serviceWords(error) };
    }
  }
  renderGomokuRecord();
}

export function renderGomokuRecord() {
  const facts = variant();
  const shown = $("exchange").open && Boolean(facts) && hasRecord(facts);
  $("gomoku-record").hidden = !shown;
  if (!shown) {
    return;
  }
  if (state.game.start) {
    setText($("export-record-state"), t("recordNeedsEmptyStart"));
    $("export-moves").value = "";
    $("export-psq").value = "";
    return;
  }
  if (written.key !== lineKey()) {
    writeLine();
  }
  if ($("export-moves").value !== written.names) {
    $("export-moves").value = written.names;
  }
  if ($("export-psq").value !== written.psq) {
    $("export-psq").value = written.psq;
  }
  setText($("export-record-state"), written.error || "");
}

function showError(message) {
  $("record-error").hidden = !message;
  setText($("record-error"), message);
}

// A .psq record starts "Piskvork" or with a move line "x,y,time"; anything else is a move list.
function requestOf(text, facts) {
  const flat = facts && hasRecord(facts) ? facts : null;
  if (/^\s*(piskvork|\d+\s*,\s*\d+)/i.test(text)) {
    const size = /^\s*piskvork\s+(\d+)x(\d+)/i.exec(text);
    const fits = flat && size && Number(size[1]) === gridOf(flat).cols && Number(size[2]) === gridOf(flat).rows;
    return fits ? { psq: text, variant: flat.name } : { psq: text };
  }
  const moves = text.split(/[\s,;]+/).filter((word) => word && !/^\d+\.+$/.test(word));
  return flat ? { moves, variant: flat.name } : { moves };
}

function onImport(event) {
  return readingOnce(event, showError, async () => {
    const text = $("record-text").value;
    if (!text.trim()) {
      throw new Error(t("recordEmpty"));
    }
    let answer;
    try {
      answer = await api.record(requestOf(text, variant()));
    } catch (error) {
      throw new Error(t("recordRefused", { why: serviceWords(error) }));
    }
    const facts = await ensureVariant(answer.variant);
    const moves = answer.moves;
    const game = { variant: facts.name, first: answer.first, start: null, record: recordFromItems(moves), moves };
    await opener(game, { live: false, push: true, source: "text" });
  });
}

export function bindGomokuRecord(openGame) {
  opener = openGame;
  $("exchange").addEventListener("toggle", renderGomokuRecord);
  $("record-form").addEventListener("submit", onImport);
}
