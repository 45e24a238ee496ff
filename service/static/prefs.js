// The settings remembered on this device (localStorage): the opponent, the computer's policy and depth,
// the overlay, the keys, and the last variant and first player for a new game. A browser that keeps
// nothing (private mode, storage turned off) simply starts from the defaults each time.

const KEY = "sanmoku.settings";
const REMEMBERED = ["mode", "human", "policy", "depth", "overlay", "shortcuts", "variant", "first"];

export function loadPrefs() {
  try {
    const saved = JSON.parse(window.localStorage.getItem(KEY) || "{}");
    return Object.fromEntries(Object.entries(saved).filter(([name]) => REMEMBERED.includes(name)));
  } catch {
    return {};
  }
}

export function savePrefs(settings, game) {
  const kept = { ...settings, variant: game.variant };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(REMEMBERED.map((n) => [n, kept[n]]))));
  } catch {
    // Nothing to do: the settings then last as long as the page.
  }
}
