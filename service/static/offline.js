// Offline 3x3: the page registers its service worker (/sw.js, served from the root so that it controls
// the page at "/"), which keeps the page's files and 3x3's whole table (GET /solve) and answers 3x3's
// analyses from that table when the service cannot be reached (sw.js says how). The page tells the
// worker which files it loaded, so that no list of them is kept by hand.

function loadedFiles() {
  const own = performance
    .getEntriesByType("resource")
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === window.location.origin && url.pathname.startsWith("/static/"))
    .map((url) => url.pathname);
  return ["/", ...new Set(own)];
}

export async function registerOffline() {
  if (!("serviceWorker" in navigator)) {
    return;
  }
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const ready = await navigator.serviceWorker.ready;
    ready.active?.postMessage({ type: "keep", urls: loadedFiles() });
    document.documentElement.dataset.offline = "ready";
  } catch {
    // No worker (a private window, a browser that refuses it): the page works online as before.
  }
}
