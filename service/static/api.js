// The public HTTP API, as any client calls it: relative URLs, JSON in, JSON or problem+json out.

const TIMEOUT_MS = 15000;

export class ApiError extends Error {
  constructor(status, title, detail) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = "ApiError";
    this.status = status;
    this.title = title;
    this.detail = detail;
  }
}

async function readProblem(response) {
  try {
    const problem = await response.json();
    return new ApiError(response.status, problem.title || response.statusText, problem.detail || "");
  } catch {
    return new ApiError(response.status, response.statusText || `HTTP ${response.status}`, "");
  }
}

async function request(path, { method = "GET", body } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const options = { method, headers: { Accept: "application/json" }, signal: controller.signal };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    const reason = error.name === "AbortError" ? "no answer in time" : error.message;
    throw new ApiError(0, "The service cannot be reached", reason);
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    throw await readProblem(response);
  }
  return response.json();
}

export function getVariants() {
  return request("/variants");
}

// GET, so that the answers are cacheable: each position's analysis never changes.
export function analyze({ board, toMove, variant, mainline = false }) {
  const query = new URLSearchParams({ board, to_move: toMove, variant });
  if (mainline) {
    query.set("mainline", "true");
  }
  return request(`/analyze?${query}`);
}

export function computerMove({ board, toMove, variant, policy, depth }) {
  const body = { board, to_move: toMove, variant, policy };
  if (policy === "depth") {
    body.depth = depth;
  }
  return request("/move", { method: "POST", body });
}

export function review({ moves, variant, first }) {
  return request("/review", { method: "POST", body: { moves, variant, first } });
}
