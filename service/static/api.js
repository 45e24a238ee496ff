// The public HTTP API, as any client calls it: relative URLs, JSON in, JSON or problem+json out.
// A table that is still being built answers 503 with Retry-After, and a client past its quota 429: the
// request waits that long and asks again, a bounded number of times, telling the page (setWaitListener)
// so that it can say so.

import { foreign, t } from "./i18n.js";

const TIMEOUT_MS = 15000;
const MAX_WAITS = 10;
const LONGEST_WAIT_S = 30;

export class ApiError extends Error {
  constructor(status, title, detail, problem = {}) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = "ApiError";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.code = problem.code || null;
    this.retryAfter = problem.retry_after || null;
  }
}

// What went wrong, for a sentence of the page: the service's own words (English, marked as such), or
// the page's own when the service could not be reached or the page itself refused something.
export function serviceWords(error) {
  if (!(error instanceof ApiError)) {
    return error.message;
  }
  if (error.status === 0) {
    return t("unreachable", { why: foreign(error.detail) });
  }
  return foreign(error.detail || error.title);
}

// The same with the problem's title before its detail ("Bad Request: ...").
export function serviceMessage(error) {
  if (error instanceof ApiError && error.status !== 0) {
    return foreign(error.message);
  }
  return serviceWords(error);
}

let waitListener = () => {};

// `listener({ detail, seconds, attempt, attempts })` before each wait, and listener(null) after it.
export function setWaitListener(listener) {
  waitListener = listener;
}

async function readProblem(response) {
  try {
    const problem = await response.json();
    const title = problem.title || response.statusText;
    return new ApiError(response.status, title, problem.detail || "", problem);
  } catch {
    return new ApiError(response.status, response.statusText || `HTTP ${response.status}`, "");
  }
}

async function send(path, options) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    return await fetch(path, { ...options, signal: controller.signal });
  } catch (error) {
    const reason = error.name === "AbortError" ? "no answer in time" : error.message;
    throw new ApiError(0, "The service cannot be reached", reason);
  } finally {
    clearTimeout(timer);
  }
}

// The seconds to wait before asking again, from the Retry-After header (or the problem's retry_after).
function waitSeconds(response, problem) {
  const header = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  const seconds = Number.isFinite(header) ? header : problem.retryAfter;
  return seconds ? Math.min(Math.max(seconds, 1), LONGEST_WAIT_S) : null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function request(path, { method = "GET", body } = {}) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  for (let attempt = 1; ; attempt += 1) {
    const response = await send(path, options);
    if (response.ok) {
      return response.json();
    }
    const problem = await readProblem(response);
    const waits = response.status === 503 || response.status === 429;
    const seconds = waits ? waitSeconds(response, problem) : null;
    if (seconds === null || attempt > MAX_WAITS) {
      throw problem;
    }
    waitListener({ detail: problem.detail || problem.title, seconds, attempt, attempts: MAX_WAITS });
    await sleep(seconds * 1000);
    waitListener(null);
  }
}

export function getVariants() {
  return request("/variants");
}

export function getVariant(name) {
  return request(`/variants/${encodeURIComponent(name)}`);
}

export function getPolicies() {
  return request("/policies");
}

// GET, so that the answers are cacheable: each position's analysis never changes. A move the search does
// not settle comes with the service's estimate (the page shows it as one); a table's moves have none.
export function analyze({ board, toMove, variant, mainline = false }) {
  const query = new URLSearchParams({ board, to_move: toMove, variant, estimates: "true" });
  if (mainline) {
    query.set("mainline", "true");
  }
  return request(`/analyze?${query}`);
}

// A game record read and written by the service: `moves` (cells or names such as "h8") or `psq` (a
// Piskvork record) in, the cells, their names and a .psq record out.
export function record(body) {
  return request("/record", { method: "POST", body });
}

// Many positions in one request ({ board, to_move, variant } each): each answer is an analysis, or the
// problem of that position alone (then its `status` is the HTTP status, a number).
export function analyzeBatch(positions) {
  return request("/analyze/batch", { method: "POST", body: { positions } });
}

export function computerMove({ board, toMove, variant, policy, depth }) {
  const body = { board, to_move: toMove, variant, policy };
  if (depth !== undefined) {
    body.depth = depth;
  }
  return request("/move", { method: "POST", body });
}

export function review({ moves, variant, first }) {
  return request("/review", { method: "POST", body: { moves, variant, first } });
}

// The game tree of a position (GET, so that it is cacheable: a tree never changes): every line to
// `depth` plies (null: as deep as fits), its values, and how `algorithm` walks it.
export function tree({ board, toMove, variant, algorithm, depth = null }) {
  const query = new URLSearchParams({ board, to_move: toMove, variant, algorithm });
  if (depth !== null) {
    query.set("depth", String(depth));
  }
  return request(`/tree?${query}`);
}
