// The page's service worker (served at /sw.js, so that its scope is the whole site). It makes 3x3 work
// offline:
// - The page's own files are kept as the page loaded them (offline.js sends their addresses), and every
//   GET of them, and of /variants and /policies, goes to the network first and falls back on the copy.
// - 3x3's whole table (GET /solve, 5,478 positions for each first player, about 1 MB) is kept at
//   install, and the analyses of 3x3 (GET /analyze, POST /analyze/batch, POST /review, POST /move) are
//   answered from it when the service cannot be reached. A table rather than cached answers: every
//   position then has its answer offline, not only those seen online, and the values are the service's
//   own, fetched from it, not a copy written into the page.
// Other boards need the service.

const CACHE = "sanmoku-offline-1";
const VARIANT = "normal";
const FIRSTS = ["X", "O"];
const KEPT_API = ["/variants", "/policies", `/variants/${VARIANT}`];
// The only rule written here: 3x3's eight lines, to name a finished position's line as GET /analyze does.
const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const RESULT = (score) => (score > 0 ? "win" : score < 0 ? "loss" : "draw");

const tables = {}; // first player -> GET /solve's positions

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        [...KEPT_API, ...FIRSTS.map((first) => `/solve?variant=${VARIANT}&first=${first}`)].map((url) =>
          cache.add(url).catch(() => {}),
        ),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

// The page's files, as it loaded them: kept for offline.
self.addEventListener("message", (event) => {
  const urls = event.data && event.data.type === "keep" ? event.data.urls : [];
  event.waitUntil(
    caches.open(CACHE).then((cache) => Promise.all(urls.map((url) => cache.add(url).catch(() => {})))),
  );
});

async function table(first) {
  if (!tables[first]) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(`/solve?variant=${VARIANT}&first=${first}`);
    if (!kept) {
      return null;
    }
    tables[first] = (await kept.json()).positions;
  }
  return tables[first];
}

function marksOf(board) {
  return [...board].filter((mark) => mark !== ".").length;
}

// The table's entry of a position, from either table (a position with as many X as O is X's turn in
// one and O's in the other).
async function entryOf(board, toMove) {
  for (const first of FIRSTS) {
    const positions = await table(first);
    const entry = positions && positions[board];
    if (entry && entry.to_move === toMove) {
      return entry;
    }
  }
  return null;
}

const bounds = (result) => ({ lower: result, upper: result });

async function analysisOf(board, toMove, withMainline) {
  const entry = await entryOf(board, toMove);
  if (!entry) {
    return null;
  }
  const winner = entry.status === "x_won" ? "X" : entry.status === "o_won" ? "O" : null;
  const moves = entry.moves.map((move) => {
    const after = [...board];
    after[move.cell] = toMove;
    const result = RESULT(move.score);
    return {
      cell: move.cell,
      row: Math.floor(move.cell / 3),
      col: move.cell % 3,
      result,
      score: move.score,
      remoteness: move.remoteness,
      ...bounds(result),
      board: after.join(""),
    };
  });
  const answer = {
    board,
    to_move: toMove,
    variant: VARIANT,
    status: entry.status,
    result: entry.result,
    score: entry.score,
    remoteness: entry.remoteness,
    ...bounds(entry.result),
    winner,
    best_move: entry.best_moves.length > 0 ? entry.best_moves[0] : null,
    best_move_proven: entry.best_moves.length > 0,
    best_moves: entry.best_moves,
    moves,
    lines: winner ? LINES.filter((line) => line.every((cell) => board[cell] === winner)) : [],
    source: "table",
    exact: true,
    search: null,
  };
  if (withMainline) {
    answer.mainline = await mainlineOf(board, toMove);
  }
  return answer;
}

// The line of best moves (the table's first best move at each turn) to the end of the game.
async function mainlineOf(board, toMove) {
  const cells = [];
  let [at, side] = [board, toMove];
  for (let left = 9; left > 0; left -= 1) {
    const entry = await entryOf(at, side);
    if (!entry || entry.status !== "in_progress" || entry.best_moves.length === 0) {
      return { cells, status: entry ? entry.status : "in_progress", lines: [] };
    }
    const cell = entry.best_moves[0];
    cells.push(cell);
    const next = [...at];
    next[cell] = side;
    [at, side] = [next.join(""), side === "X" ? "O" : "X"];
  }
  return { cells, status: "in_progress", lines: [] };
}

function json(body) {
  return new Response(JSON.stringify(body), {
    headers: { "Content-Type": "application/json", "X-Sanmoku-Offline": "table" },
  });
}

// POST bodies the table answers offline; null for anything else.
async function offlinePost(path, body) {
  if (path === "/analyze/batch") {
    const positions = body.positions || [];
    if (!positions.every((position) => position.variant === VARIANT)) {
      return null;
    }
    const results = await Promise.all(positions.map((p) => analysisOf(p.board, p.to_move, false)));
    return results.every(Boolean) ? json({ results }) : null;
  }
  if (body.variant !== VARIANT) {
    return null;
  }
  if (path === "/move") {
    const analysis = await analysisOf(body.board, body.to_move, false);
    if (!analysis || analysis.best_move === null) {
      return null;
    }
    const move = analysis.moves.find((one) => one.cell === analysis.best_move);
    const after = await analysisOf(move.board, body.to_move === "X" ? "O" : "X", false);
    return json({
      cell: move.cell, row: move.row, col: move.col, player: body.to_move, board: move.board,
      to_move: after.to_move, status: after.status, lines: after.lines, result: after.result,
      score: after.score, remoteness: after.remoteness, lower: after.lower, upper: after.upper,
      proven_best: true, source: "table", policy: body.policy, variant: VARIANT,
    });
  }
  if (path === "/review") {
    return review(body);
  }
  return null;
}

async function review({ moves = [], first = "X" }) {
  const plies = [];
  let [board, side] = [".........", first];
  for (const [index, cell] of moves.entries()) {
    const before = await analysisOf(board, side, false);
    const played = before && before.moves.find((move) => move.cell === cell);
    if (!played) {
      return null;
    }
    const rank = { loss: 0, draw: 1, win: 2 };
    const drop = rank[before.result] - rank[played.result];
    const verdict =
      drop >= 2 ? "blunder" : drop === 1 ? "mistake" : before.best_moves.includes(cell) ? "best" : "slower";
    const value = (v) => ({
      result: v.result,
      score: v.score,
      remoteness: v.remoteness,
      ...bounds(v.result),
    });
    plies.push({
      ply: index + 1, player: side, cell, row: played.row, col: played.col, board: played.board,
      before: value(before), played: value(played), best_moves: before.best_moves, verdict,
    });
    [board, side] = [played.board, side === "X" ? "O" : "X"];
  }
  const last = await analysisOf(board, side, false);
  return json({ variant: VARIANT, first, status: last.status, board, lines: last.lines, plies });
}

// The page itself is kept once, under "/": every link to a game is the same page, and keeping each
// link's copy would grow the cache with every game opened.
async function networkFirst(request, keep) {
  const page = new URL(request.url).pathname === "/";
  try {
    const response = await fetch(request);
    if (keep && response.ok) {
      const cache = await caches.open(CACHE);
      await cache.put(page ? "/" : request, response.clone());
    }
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(page ? "/" : request);
    if (kept) {
      return kept;
    }
    throw error;
  }
}

async function offlineAnalysis(request, url) {
  try {
    return await fetch(request);
  } catch (error) {
    const query = url.searchParams;
    if (query.get("variant") !== VARIANT) {
      throw error;
    }
    const mainline = query.get("mainline") === "true";
    const answer = await analysisOf(query.get("board"), query.get("to_move"), mainline);
    if (!answer) {
      throw error;
    }
    return json(answer);
  }
}

async function offlinePostAnswer(request, path) {
  const body = await request.clone().json().catch(() => ({}));
  try {
    return await fetch(request);
  } catch (error) {
    const answer = await offlinePost(path, body);
    if (answer) {
      return answer;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  const path = url.pathname;
  if (request.method === "POST" && ["/analyze/batch", "/review", "/move"].includes(path)) {
    event.respondWith(offlinePostAnswer(request, path));
  } else if (request.method !== "GET") {
    return;
  } else if (path === "/analyze") {
    event.respondWith(offlineAnalysis(request, url));
  } else if (path === "/" || path.startsWith("/static/") || KEPT_API.includes(path)) {
    event.respondWith(networkFirst(request, true));
  }
});
