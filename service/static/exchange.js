// Export and import: the game as text (notation.js) and its link, shown to copy, and a field that reads
// a game's text back and opens it. What is wrong with a text is said under the field; nothing is dropped
// without a word (moves after the end of the game are left out with one, as for a link).

import { glyphOf, keepImportedGlyphs } from "./annotations.js";
import { $, readingOnce, setText } from "./dom.js";
import { serviceWords } from "./api.js";
import { t } from "./i18n.js";
import { gameText, readHeader, readMoves } from "./notation.js";
import { lineFrom } from "./record.js";
import { gridOf, isRack } from "./shape.js";
import { state, variant } from "./state.js";
import { linkToGame } from "./url.js";
import { ensureVariant, gravityPreset } from "./variants.js";

let opener = null; // app.js's openGame: checks the game with the service and starts it

function setValue(field, value) {
  if (field.value !== value) {
    field.value = value;
  }
}

export function renderExchange() {
  if (!$("exchange").open) {
    return;
  }
  setValue($("export-text"), gameText(state.game, variant(), glyphOf));
  setValue($("export-link"), linkToGame(state.game, variant()));
}

function showImportError(message) {
  const box = $("import-error");
  box.hidden = !message;
  setText(box, message);
}

// One import at a time (readingOnce), its error said under the form.
function onImport(event) {
  return readingOnce(event, showImportError, async () => {
    const playing = variant();
    const columnsOn = isRack(gridOf(playing)) ? playing.name : gravityPreset();
    const header = readHeader($("import-text").value, columnsOn);
    let facts;
    try {
      facts = await ensureVariant(header.variant);
    } catch (error) {
      throw new Error(t("noVariant", { name: header.variant, why: serviceWords(error) }));
    }
    const glyphs = new Map(); // the text's annotations, shown until the page's own analyses say them
    const record = readMoves(header.moves, facts, header.start, glyphs);
    const moves = lineFrom(record, []);
    const game = { variant: facts.name, first: header.first, start: header.start, record, moves };
    keepImportedGlyphs(game, glyphs);
    await opener(game, { live: false, push: true, source: "text" });
  });
}

async function copyText() {
  try {
    await navigator.clipboard.writeText($("export-text").value);
    setText($("export-state"), t("textCopied"));
  } catch {
    $("export-text").select();
    setText($("export-state"), t("copySelected"));
  }
}

export function bindExchange(openGame) {
  opener = openGame;
  $("exchange").addEventListener("toggle", renderExchange);
  $("copy-text").addEventListener("click", copyText);
  $("import-form").addEventListener("submit", onImport);
}
