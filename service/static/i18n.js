// The page's language: every word it shows comes from one table per language (strings-en.js,
// strings-ja.js), looked up by key. The choice is remembered on the device; a first visit takes the
// first of the browser's languages the page has (navigator.languages), else English. The service's own
// sentences (its errors, a variant's rules, a policy's summary) are English: they are marked with
// foreign() and shown in a span of their own with lang="en" (see setText in dom.js).

import EN from "./strings-en.js";
import JA from "./strings-ja.js";

const TABLES = { en: EN, ja: JA };
const KEY = "sanmoku.language";
export const LANGUAGES = [
  ["en", "English"],
  ["ja", "日本語"],
];
export const SERVICE_LANGUAGE = "en";

// Private-use characters around a stretch of the service's English inside a sentence of the page.
export const FOREIGN_START = "\uE000";
export const FOREIGN_END = "\uE001";

function saved() {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null; // storage turned off: the browser's languages decide each time
  }
}

// The remembered choice, else the first of the browser's languages (by its primary subtag: "ja-JP"
// is Japanese) that the page has, else English.
function firstChoice() {
  const kept = saved();
  if (kept && TABLES[kept]) {
    return kept;
  }
  const listed = navigator.languages && navigator.languages.length > 0;
  const wanted = listed ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (TABLES[primary]) {
      return primary;
    }
  }
  return "en";
}

let current = firstChoice();

export function language() {
  return current;
}

export function setLanguage(lang) {
  if (!TABLES[lang]) {
    return;
  }
  current = lang;
  try {
    window.localStorage.setItem(KEY, lang);
  } catch {
    // The choice then lasts as long as the page.
  }
}

// The words for `key` in the page's language: a string with {name} holes filled from `params`, or
// what the table's function makes of them (plurals, word order).
export function t(key, params = {}) {
  const entry = TABLES[current][key] ?? EN[key];
  if (entry === undefined) {
    throw new Error(`no words for ${key}`);
  }
  if (typeof entry === "function") {
    return entry(params);
  }
  return entry.replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
}

// A module's own table of words (English, written beside the code that says them) with the same keys
// in another language under `key` of that language's strings file: each word is looked up when it is
// said, so that a switch of language reaches it. A key that table lacks keeps the English.
export function localized(english, key) {
  return new Proxy(english, {
    get(target, name) {
      const other = TABLES[current][key];
      return other && name in other ? other[name] : target[name];
    },
  });
}

// Words to say later, in whatever language the page is in then (the status line's news outlives a
// switch of language).
export function later(key, params = {}) {
  return () => t(key, params);
}

// Words kept for later (a function, from later()) or already said (a string): the string now.
export function now(words) {
  return typeof words === "function" ? words() : words || "";
}

// The service's English inside the page's sentence; "" stays "".
export function foreign(text) {
  if (!text || String(text).includes(FOREIGN_START)) {
    return text || "";
  }
  return `${FOREIGN_START}${text}${FOREIGN_END}`;
}

// The same words without the marks, for an attribute (a title, a label).
export function plain(text) {
  return String(text).replaceAll(FOREIGN_START, "").replaceAll(FOREIGN_END, "");
}

// Sentences one after another: a space between them in English, none in Japanese (。 ends each).
export function sentences(parts) {
  return parts.filter(Boolean).join(t("sentenceGap"));
}

// "torus, gravity and misère" / "トーラス、重力、ミゼール".
export function listWords(words) {
  return new Intl.ListFormat(current, { type: "conjunction" }).format(words);
}

// The page's own words: each element with data-i18n="key" gets its text, and data-i18n-label,
// data-i18n-title, data-i18n-placeholder its aria-label, title and placeholder; then <html lang>.
export function translatePage(root = document) {
  document.documentElement.lang = current;
  document.title = t("pageTitle");
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  const attributes = { i18nLabel: "aria-label", i18nTitle: "title", i18nPlaceholder: "placeholder" };
  for (const [data, attribute] of Object.entries(attributes)) {
    const name = data.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    for (const element of root.querySelectorAll(`[data-${name}]`)) {
      element.setAttribute(attribute, t(element.dataset[data]));
    }
  }
}
