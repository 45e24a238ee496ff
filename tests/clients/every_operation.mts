// Every operation of the contract, called through openapi-fetch with the types openapi-typescript
// generated from it (./sanmoku.d.ts, written by the test next to this file's copy), each answer read
// through those types. `tsc --strict` checks the calls against the contract before any is made.
// Prints one JSON line: {"done": [[operationId, status], ...], "failures": [...]}.
import createClient from "openapi-fetch";
import type { components, paths } from "./sanmoku.js";

declare const process: { argv: string[]; exitCode?: number };

type Problem = components["schemas"]["Problem"];
type Answer = { data?: unknown; error?: unknown; response: Response };

const baseUrl = process.argv[2];
const client = createClient<paths>({ baseUrl });
const done: [string, number][] = [];
const failures: string[] = [];

const LONG_URL_BOARD = "X".repeat(5000); // a request line over gunicorn's 4094 bytes: 414
const LONG_HEADER = "a".repeat(9000); // one header over gunicorn's 8190 bytes: 431
const TOO_LARGE_BOARD = ".".repeat(200_000); // a body over the app's 128 KiB: 413
const UNBUILT = "3x7k5-torus-misere"; // 21 cells: built only when an operator says so (503)

async function check<A extends Answer>(
  operation: string,
  expected: number,
  call: () => Promise<A>,
  read: (answer: A) => boolean,
): Promise<A | undefined> {
  let answer: A;
  try {
    answer = await call();
  } catch (error) {
    failures.push(`${operation} (expected ${expected}): ${String(error)}`);
    return undefined;
  }
  const status = answer.response.status;
  done.push([operation, status]);
  if (status !== expected) {
    failures.push(`${operation}: ${status}, expected ${expected}: ${JSON.stringify(answer.error ?? answer.data).slice(0, 300)}`);
  } else if (!read(answer)) {
    failures.push(`${operation} ${status}: unexpected answer ${JSON.stringify(answer.data ?? answer.error).slice(0, 300)}`);
  }
  return answer;
}

// A problem+json answer: the error the client parsed, typed as the contract's Problem.
function problem(status: number, code?: Problem["code"]) {
  return (answer: { error?: unknown }): boolean => {
    const found = answer.error as Problem | undefined;
    return found !== undefined && found.status === status && found.detail.length > 0 && (code === undefined || found.code === code);
  };
}

// An answer documented in JSON and in text (/solve, /tree): the JSON form, narrowed from the union.
function json<T>(data: T | string | undefined): Exclude<T, string> | undefined {
  return typeof data === "object" ? (data as Exclude<T, string>) : undefined;
}

const etag = (answer: Answer | undefined): string => answer?.response.headers.get("ETag") ?? "";

// POST /analyze
await check("analyzePost", 200, () => client.POST("/analyze", { body: { board: "X...O...." } }),
  ({ data }) => data?.result === "draw" && data.remoteness === 7 && data.best_moves.join() === "1,2,3,5,6,7,8" && data.search === null);
await check("analyzePost", 200,
  () => client.POST("/analyze", { body: { board: "XO.X./.OX../O..../...../.....", variant: "5x5k4", source: "search" } }),
  ({ data }) => (data?.search?.nodes ?? 0) > 0);
await check("analyzePost", 422, () => client.POST("/analyze", { body: { board: "XX......." } }), problem(422, "impossible_counts"));
await check("analyzePost", 400, () => client.POST("/analyze", { body: { board: "X" }, bodySerializer: () => "{" }), problem(400));
await check("analyzePost", 415,
  () => client.POST("/analyze", { body: { board: "X" }, headers: { "Content-Type": "text/plain" } }), problem(415));
await check("analyzePost", 413, () => client.POST("/analyze", { body: { board: TOO_LARGE_BOARD } }), problem(413));

// GET /analyze
const opening = { board: "X...O....", mainline: true };
const analysed = await check("analyzeGet", 200, () => client.GET("/analyze", { params: { query: opening } }),
  ({ data }) => data?.mainline?.cells.length === 7);
await check("analyzeGet", 304,
  () => client.GET("/analyze", { params: { query: opening, header: { "If-None-Match": etag(analysed) } } }),
  ({ data }) => data === undefined || Object.keys(data).length === 0);
await check("analyzeGet", 422, () => client.GET("/analyze", { params: { query: { board: "X..." } } }), problem(422, "wrong_length"));
await check("analyzeGet", 414, () => client.GET("/analyze", { params: { query: { board: LONG_URL_BOARD } } }), problem(414));

// POST /analyze/batch
await check("analyzeBatch", 200,
  () => client.POST("/analyze/batch", { body: { positions: [{ board: "XXXOO...." }, { board: "XX......." }] } }),
  ({ data }) => {
    const [won, refused] = data?.results ?? [];
    return won !== undefined && "result" in won && won.status === "x_won" && refused !== undefined && "code" in refused
      && refused.code === "impossible_counts";
  });
await check("analyzeBatch", 422, () => client.POST("/analyze/batch", { body: { positions: [] } }), problem(422));

// POST /move, GET /policies, POST /review, POST /record
await check("move", 200, () => client.POST("/move", { body: { board: "X...O....", policy: "perfect" } }),
  ({ data }) => data?.cell === 1 && data.proven_best);
await check("move", 422, () => client.POST("/move", { body: { board: "XXXOO....", policy: "perfect" } }), problem(422, "game_over"));
await check("policies", 200, () => client.GET("/policies"),
  ({ data }) => data?.policies[0]?.name === "perfect" && data.default_depth >= 1);
await check("review", 200, () => client.POST("/review", { body: { moves: [4, 1, 0, 8] } }),
  ({ data }) => data?.plies[1]?.verdict === "mistake" && data.summary.O.mistake === 1);
await check("review", 422, () => client.POST("/review", { body: { moves: [4, 4] } }), problem(422));

await check("record", 200, () => client.POST("/record", { body: { moves: ["h8", "h9", "j10", "g7"], variant: "renju" } }),
  ({ data }) => data?.moves.join() === "112,97,84,126" && data.psq?.startsWith("Piskvork 15x15") === true);
await check("record", 422, () => client.POST("/record", { body: { moves: ["h8", "h8"] } }), problem(422));

// GET /solve, in each of its formats
const solved = await check("solve", 200, () => client.GET("/solve", { params: { query: { variant: "misere" } } }),
  ({ data }) => json(data)?.summary.positions === 5478 && json(data)?.positions["........."]?.result === "draw");
await check("solve", 200,
  () => client.GET("/solve", { params: { query: { variant: "misere", format: "ndjson" } }, parseAs: "text" }),
  ({ data }) => data?.trim().split("\n").length === 5478);
await check("solve", 200,
  () => client.GET("/solve", { params: { query: { variant: "misere", format: "csv" } }, parseAs: "text" }),
  ({ data }) => data?.startsWith("board,to_move,status,result,score,remoteness,best_moves,moves") === true);
await check("solve", 304,
  () => client.GET("/solve", { params: { query: { variant: "misere" }, header: { "If-None-Match": etag(solved) } } }),
  ({ data }) => data === undefined || Object.keys(data).length === 0);
await check("solve", 422, () => client.GET("/solve", { params: { query: { variant: "5x5k4" } } }), problem(422, "no_table"));
await check("solve", 503, () => client.GET("/solve", { params: { query: { variant: UNBUILT } } }), problem(503));

// POST and GET /tree, as JSON and as Graphviz text
await check("treePost", 200, () => client.POST("/tree", { body: { board: "4:1", variant: "eight" } }),
  ({ data }) => {
    const tree = json(data);
    return tree?.nodes === 9 && tree.cutoffs[0]?.pruned.join() === "8" && tree.counts.minimax.nodes === 9;
  });
await check("treePost", 200,
  () => client.POST("/tree", { body: { board: "4:1", variant: "eight", format: "dot" }, parseAs: "text" }),
  ({ data }) => typeof data === "string" && data.includes("digraph tree {"));
await check("treePost", 422, () => client.POST("/tree", { body: { board: ".".repeat(16), variant: "4x4k4", depth: 4 } }),
  problem(422, "tree_too_large"));
const tree = { board: "XOX.O.X..", depth: 2 };
const grown = await check("treeGet", 200, () => client.GET("/tree", { params: { query: tree } }),
  ({ data }) => json(data)?.visits[0]?.node === 0);
await check("treeGet", 304,
  () => client.GET("/tree", { params: { query: tree, header: { "If-None-Match": etag(grown) } } }),
  ({ data }) => data === undefined || Object.keys(data).length === 0);
await check("treeGet", 422, () => client.GET("/tree", { params: { query: { board: "XX......." } } }), problem(422));

// GET /variants, /variants/{name}, /variants/{name}/table
await check("variants", 200, () => client.GET("/variants"),
  ({ data }) => data?.variants[0]?.name === "normal" && data.limits.max_cells === 400 && data.name_form.options.includes("torus"));
const normal = { params: { path: { name: "normal" } } };
await check("variant", 200, () => client.GET("/variants/{name}", normal),
  ({ data }) => data?.table?.ready === true && data.empty_board?.result === "draw");
await check("variant", 422, () => client.GET("/variants/{name}", { params: { path: { name: "9x9k12" } } }),
  problem(422, "unknown_variant"));
const file = await check("variantTable", 200,
  () => client.GET("/variants/{name}/table", { ...normal, parseAs: "arrayBuffer" }),
  ({ data }) => new TextDecoder().decode(data?.slice(0, 14)) === "SANMOKU TABLE\n");
await check("variantTable", 206,
  () => client.GET("/variants/{name}/table", { ...normal, headers: { Range: "bytes=0-6" }, parseAs: "text" }),
  ({ data }) => data === "SANMOKU");
await check("variantTable", 304,
  () => client.GET("/variants/{name}/table", { params: { path: { name: "normal" }, header: { "If-None-Match": etag(file) } } }),
  ({ data }) => data === undefined || Object.keys(data).length === 0);
await check("variantTable", 412,
  () => client.GET("/variants/{name}/table", { ...normal, headers: { "If-Match": '"not-the-etag"' } }), problem(412));
await check("variantTable", 416,
  () => client.GET("/variants/{name}/table", { ...normal, headers: { Range: "bytes=99999999-" } }), problem(416));
await check("variantTable", 422, () => client.GET("/variants/{name}/table", { params: { path: { name: "5x5k4" } } }),
  problem(422, "no_table"));
await check("variantTable", 503, () => client.GET("/variants/{name}/table", { params: { path: { name: UNBUILT } } }),
  problem(503));

// Operations: health, readiness, metrics, the contract, the docs and the page
await check("healthz", 200, () => client.GET("/healthz"), ({ data }) => data?.status === "ok");
await check("healthz", 431, () => client.GET("/healthz", { params: { header: { "X-Request-ID": LONG_HEADER } } }), problem(431));
await check("readyz", 200, () => client.GET("/readyz"), ({ data }) => data?.tables["normal"]?.ready === true);
await check("metrics", 200, () => client.GET("/metrics", { parseAs: "text" }), ({ data }) => data?.includes("# TYPE") === true);
await check("openapi", 200, () => client.GET("/openapi.yaml", { parseAs: "text" }), ({ data }) => data?.startsWith("openapi: 3.1") === true);
await check("docs", 200, () => client.GET("/docs/", { parseAs: "text" }), ({ data }) => data?.toLowerCase().includes("swagger") === true);
await check("docsStatic", 200,
  () => client.GET("/docs/{path}", { params: { path: { path: "swagger-ui-bundle.js" } }, parseAs: "text" }),
  ({ data }) => (data?.length ?? 0) > 100_000);
await check("docsStatic", 404, () => client.GET("/docs/{path}", { params: { path: { path: "nope.js" } } }), problem(404));
await check("webIndex", 200, () => client.GET("/", { parseAs: "text" }), ({ data }) => data?.includes("<html") === true);
await check("webStatic", 200,
  () => client.GET("/static/{filename}", { params: { path: { filename: "app.js" } }, parseAs: "text" }),
  ({ data }) => data?.includes("import") === true);
await check("webStatic", 404, () => client.GET("/static/{filename}", { params: { path: { filename: "nope.js" } } }),
  problem(404));
await check("webServiceWorker", 200, () => client.GET("/sw.js", { parseAs: "text" }),
  ({ data }) => data?.includes("addEventListener") === true);

console.log(JSON.stringify({ done, failures }));
