// A local server speaking the two Figma REST endpoints a design reader calls, from recorded
// files (gzipped JSON `{ key, file, … }`, file = GET /v1/files/:key, written from the typed
// fixtures of packages/tools-design/src/test-support/ into its recordings/ folder):
// GET /v1/files/:key[?depth=n] and GET /v1/files/:key/nodes?ids=a,b[&depth=n], answered as
// Figma answers them (an unknown id maps to null; the personal token is required).
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";

/** Where the recorded files are. */
export const RECORDED_FOLDER = resolve(
  import.meta.dirname,
  "../../packages/tools-design/recordings",
);

/** The token the server accepts (a test value, never a real one). */
export const RECORDED_TOKEN = "figd_test-token";

/** Every recorded file: `{ key, file }` read from RECORDED_FOLDER. */
export function loadRecordedFiles() {
  return readdirSync(RECORDED_FOLDER)
    .filter((name) => name.endsWith(".json.gz"))
    .sort()
    .map((name) => JSON.parse(gunzipSync(readFileSync(join(RECORDED_FOLDER, name))).toString()));
}

function depthLimited(node, depth) {
  if (node.children === undefined) return node;
  if (depth <= 0) {
    const { children: _children, ...rest } = node;
    return rest;
  }
  return { ...node, children: node.children.map((child) => depthLimited(child, depth - 1)) };
}

function findNode(node, id) {
  if (node.id === id) return node;
  for (const child of node.children ?? []) {
    const found = findNode(child, id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The top-level frames of a recorded file, page by page: `[{ page, id, name, type }]`.
 *
 * @param file - a GET /v1/files/:key answer
 */
export function topLevelFrames(file) {
  return file.document.children.flatMap((page) =>
    (page.children ?? []).map((node) => ({
      page: page.name,
      id: node.id,
      name: node.name,
      type: node.type,
    })),
  );
}

/**
 * Starts the server on 127.0.0.1 (port 0).
 *
 * @param recorded - `[{ key, file }]`
 * @returns `{ origin, requests, close }`
 */
export async function startRecordedFigmaServer(recorded) {
  const byKey = new Map(recorded.map((entry) => [entry.key, entry.file]));
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const send = (status, body) => {
      response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(body));
    };
    const token = request.headers["x-figma-token"] ?? request.headers.authorization;
    if (token !== RECORDED_TOKEN) return send(403, { status: 403, err: "Invalid token" });
    const parts = url.pathname.split("/").filter(Boolean);
    const file = byKey.get(parts[2] ?? "");
    if (parts[0] !== "v1" || parts[1] !== "files" || file === undefined) {
      return send(404, { status: 404, err: "Not found" });
    }
    const depthText = url.searchParams.get("depth");
    const depth = depthText === null ? undefined : Number(depthText);
    const { document, components, componentSets, styles, schemaVersion, ...head } = file;
    if (parts.length === 3) {
      const limited = depth === undefined ? document : depthLimited(document, depth);
      return send(200, { ...file, document: limited });
    }
    if (parts[3] !== "nodes") return send(404, { status: 404, err: "Not found" });
    const nodes = {};
    for (const id of (url.searchParams.get("ids") ?? "").split(",").filter(Boolean)) {
      const found = findNode(document, id);
      nodes[id] =
        found === undefined
          ? null
          : {
              document: depth === undefined ? found : depthLimited(found, depth),
              components,
              componentSets,
              styles,
              schemaVersion,
            };
    }
    return send(200, { ...head, nodes });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
