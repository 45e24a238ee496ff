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
