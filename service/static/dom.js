// The few DOM helpers every view shares.

export const $ = (id) => document.getElementById(id);

// Writes only on change, so that the live regions announce only news.
export function setText(element, text) {
  if (element.textContent !== text) {
    element.textContent = text;
  }
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
