// The few DOM helpers every view shares.

import { FOREIGN_END, FOREIGN_START, SERVICE_LANGUAGE, language } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

const written = new WeakMap(); // element -> the text last written, marks and language included

// Writes only on change, so that the live regions announce only news. The service's English inside
// the text (marked by i18n.js's foreign()) goes in a span with its own lang when the page is in
// another language.
export function setText(element, text) {
  const words = String(text ?? "");
  const key = `${language()}|${words}`;
  const shown = words.replaceAll(FOREIGN_START, "").replaceAll(FOREIGN_END, "");
  if (written.get(element) === key && element.textContent === shown) {
    return;
  }
  if (!words.includes(FOREIGN_START)) {
    written.set(element, key);
    if (element.textContent !== words || element.children.length > 0) {
      element.textContent = words;
    }
    return;
  }
  written.set(element, key);
  const parts = words.split(new RegExp(`([${FOREIGN_START}${FOREIGN_END}])`));
  const nodes = [];
  let inside = false;
  for (const part of parts) {
    if (part === FOREIGN_START || part === FOREIGN_END) {
      inside = part === FOREIGN_START;
    } else if (part && inside && language() !== SERVICE_LANGUAGE) {
      nodes.push(make("span", { text: part, attrs: { lang: SERVICE_LANGUAGE }, data: { foreign: "" } }));
    } else if (part) {
      nodes.push(document.createTextNode(part));
    }
  }
  element.replaceChildren(...nodes);
}

// Sets a data attribute, or removes it when there is no value, so that CSS and tests see no stale value.
export function setData(element, name, value) {
  if (value === undefined || value === null) {
    delete element.dataset[name];
  } else {
    element.dataset[name] = value;
  }
}

// An element with a class, text and children: make("li", { className: "x", text: "y" }, child, ...).
export function make(tag, { className, text, data, attrs } = {}, ...children) {
  const element = document.createElement(tag);
  if (className) {
    element.className = className;
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  Object.entries(data || {}).forEach(([key, value]) => setData(element, key, value));
  Object.entries(attrs || {}).forEach(([key, value]) => element.setAttribute(key, String(value)));
  element.append(...children);
  return element;
}

export function option(value, text) {
  return make("option", { text, attrs: { value } });
}

// Replaces a select's options and selects `selected` (kept only if it is among them).
export function fillSelect(select, options, selected) {
  select.replaceChildren(...options);
  select.value = String(selected);
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}) {
  const element = document.createElementNS(SVG, tag);
  Object.entries(attrs).forEach(([key, value]) => element.setAttribute(key, String(value)));
  return element;
}

// Whether the page is laid out in one column (a phone): the same width as the stylesheet's breakpoint.
export function isNarrow() {
  return window.matchMedia("(max-width: 799px)").matches;
}

export function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// A form whose submit reads something, one reading at a time: data-state says while it reads (a second
// submit meanwhile is ignored), `say` clears the form's error line first and says a failure's message.
export async function readingOnce(event, say, read) {
  event.preventDefault();
  const form = event.currentTarget;
  if (form.dataset.state === "reading") {
    return;
  }
  form.dataset.state = "reading";
  say("");
  try {
    await read();
  } catch (error) {
    say(error.message);
  } finally {
    form.dataset.state = "done";
  }
}
