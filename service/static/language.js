// The language switch in the header (English / 日本語): two buttons, each named in its own language
// and marked with its own lang, the page's language pressed. A press redraws the page in the other
// language at once, and the choice is remembered on the device (i18n.js).

import { $ } from "./dom.js";
import { LANGUAGES, language, setLanguage, translatePage } from "./i18n.js";
import { rebuildSearchTree } from "./search-tree.js";
import { render } from "./state.js";

function renderLanguage() {
  for (const button of $("language").querySelectorAll("button[data-language]")) {
    button.setAttribute("aria-pressed", String(button.dataset.language === language()));
  }
}

function choose(lang) {
  if (lang === language()) {
    return;
  }
  setLanguage(lang);
  translatePage();
  renderLanguage();
  rebuildSearchTree(); // its controls are made once: made again in the new language
  render();
}

export function bindLanguage() {
  const box = $("language");
  for (const [lang, name] of LANGUAGES) {
    const button = box.querySelector(`button[data-language='${lang}']`);
    button.textContent = name;
    button.lang = lang;
    button.addEventListener("click", () => choose(lang));
  }
  translatePage();
  renderLanguage();
}
