import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { GetFileNodesResponse, GetImagesResponse, Node } from "@figma/rest-api-spec";
import {
  RECORDED_FIGMA_FILES,
  RECORDED_FIGMA_TOKEN,
  type RecordedFigmaFile,
  readRecordedFigmaFile,
} from "./recorded-figma-files.js";

/** A request the server saw. */
export interface RecordedFigmaRequest {
  /** Path and query, as sent (`/v1/files/…?depth=1`). */
  path: string;
  /** Its headers (lower-case names). */
  headers: IncomingHttpHeaders;
}

/** What {@link startRecordedFigmaServer} is given. */
export interface RecordedFigmaServerOptions {
  /** The token `/v1/…` requests must carry as `X-Figma-Token`. Default {@link RECORDED_FIGMA_TOKEN}. */
  token?: string;
  /** Where the image URLs of `/v1/images` point. Default this server (`/renders/…`). */
  imageOrigin?: string;
}

/** A local server answering Figma's REST API from the recorded files. */
export interface RecordedFigmaServer {
  /** `http://127.0.0.1:<port>`: the `baseUrl` to give the design tools. */
  origin: string;
  /** Every request, in order. */
  requests: RecordedFigmaRequest[];
  /**
   * Answers the next requests whose path starts with `prefix` with a fixed status, body (JSON, or
   * bytes as a PNG) and headers — a 429 with `retry-after`, a 403, an oversized file.
   */
  override(prefix: string, status: number, body: unknown, headers?: Record<string, string>): void;
  /** Stops the server. */
  close(): Promise<void>;
}

/** The PNG `/renders/…` answers for every exported node: 2×1 pixels, red then blue. */
export const RECORDED_RENDER_PNG: Uint8Array = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDAAAAPAQH/3f4S6QAAAABJRU5ErkJggg==",
  "base64",
);

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const bytes = body instanceof Uint8Array ? body : Buffer.from(JSON.stringify(body));
  response.writeHead(status, {
    "content-type": body instanceof Uint8Array ? "image/png" : "application/json; charset=utf-8",
    ...headers,
  });
  response.end(bytes);
}

const NOT_FOUND = { status: 404, err: "Not found" };

function depthLimited(node: Node, depth: number | undefined): Node {
  const children = (node as { children?: Node[] }).children;
  if (depth === undefined || children === undefined) return node;
  if (depth <= 0) {
    const { children: _children, ...rest } = node as Node & { children?: Node[] };
    return rest as Node;
  }
  return { ...node, children: children.map((child) => depthLimited(child, depth - 1)) } as Node;
}

function findNode(recorded: RecordedFigmaFile, id: string): Node | undefined {
  const styleNode = recorded.styleNodes?.[id];
  if (styleNode !== undefined) return styleNode;
  const search = (node: Node): Node | undefined => {
    if (node.id === id) return node;
    for (const child of (node as { children?: Node[] }).children ?? []) {
      const found = search(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return search(recorded.file.document);
}

/** GET /v1/files/:key/nodes — as Figma answers it (an unknown id maps to null). */
function nodesAnswer(
  recorded: RecordedFigmaFile,
  ids: string[],
  depth: number | undefined,
): GetFileNodesResponse {
  const { name, role, lastModified, editorType, thumbnailUrl, version } = recorded.file;
  const { components, componentSets, schemaVersion, styles } = recorded.file;
  const nodes: Record<string, GetFileNodesResponse["nodes"][string] | null> = {};
  for (const id of ids) {
    const found = findNode(recorded, id);
    nodes[id] =
      found === undefined
        ? null
        : {
            document: depthLimited(found, depth),
            components,
            componentSets,
            schemaVersion,
            styles,
          };
  }
  return {
    name,
    role,
    lastModified,
    editorType,
    thumbnailUrl: thumbnailUrl ?? "",
    version,
    nodes: nodes as GetFileNodesResponse["nodes"],
  };
}

/** The answer to one `/v1/…` path of a recorded file, or undefined for a route Figma has not. */
function answer(
  recorded: RecordedFigmaFile,
  parts: string[],
  url: URL,
  imageOrigin: string,
): unknown {
  const depthText = url.searchParams.get("depth");
  const depth = depthText === null ? undefined : Number(depthText);
  const ids = (url.searchParams.get("ids") ?? "").split(",").filter(Boolean);
  if (parts[1] === "images" && parts.length === 3) {
    const format = url.searchParams.get("format") ?? "png";
    const images: GetImagesResponse["images"] = {};
    for (const id of ids) {
      images[id] =
        findNode(recorded, id) === undefined
          ? null
          : `${imageOrigin}/renders/${encodeURIComponent(id)}.${format}`;
    }
    return { err: null, images } satisfies GetImagesResponse;
  }
  if (parts[1] !== "files") return undefined;
  if (parts.length === 3) {
    return { ...recorded.file, document: depthLimited(recorded.file.document, depth) };
  }
  if (parts[3] === "nodes" && parts.length === 4) return nodesAnswer(recorded, ids, depth);
  if (parts[3] === "styles" && parts.length === 4) return recorded.styles;
  if (parts[3] === "variables" && parts[4] === "local" && parts.length === 5) {
    return recorded.variables;
  }
  return undefined;
}

/**
 * Starts a server on 127.0.0.1 (a free port) that answers the Figma REST API routes the design
 * tools call — `GET /v1/files/:key` (`depth`), `/v1/files/:key/nodes` (`ids`, `depth`),
 * `/v1/files/:key/styles`, `/v1/files/:key/variables/local` and `/v1/images/:key` (`ids`,
 * `format`, `scale`), whose URLs point to `/renders/…` PNGs — from the recordings shipped with
 * this package ({@link RECORDED_FIGMA_FILES}). As Figma does, `/v1/…` without the token as
 * `X-Figma-Token` is 403 and an unknown file or route is 404. For hosts' and the package's own
 * tests and demos; nothing leaves the machine.
 *
 * @param options - the token it accepts, where image URLs point
 * @returns the running server; close it when done
 * @example
 * const figma = await startRecordedFigmaServer();
 * const tools = createDesignTools({
 *   root,
 *   figmaToken: RECORDED_FIGMA_TOKEN,
 *   baseUrl: figma.origin,
 *   transport: createGuardedTransport({ allowHosts: [new URL(figma.origin).host] }),
 * });
 * // design_read { file_key: RECORDED_FIGMA_FILES.shopCheckout.fileKey, node_id: "1:8" }
 * await figma.close();
 */
export async function startRecordedFigmaServer(
  options: RecordedFigmaServerOptions = {},
): Promise<RecordedFigmaServer> {
  const token = options.token ?? RECORDED_FIGMA_TOKEN;
  const byKey = new Map(
    Object.values(RECORDED_FIGMA_FILES).map((entry) => [
      entry.fileKey as string,
      readRecordedFigmaFile(entry.recording),
    ]),
  );
  const requests: RecordedFigmaRequest[] = [];
  const overrides: Array<{
    prefix: string;
    status: number;
    body: unknown;
    headers: Record<string, string>;
  }> = [];
  let origin = "";
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push({ path: `${url.pathname}${url.search}`, headers: request.headers });
    const override = overrides.find((entry) => url.pathname.startsWith(entry.prefix));
    if (override !== undefined) {
      return send(response, override.status, override.body, override.headers);
    }
    if (request.method !== "GET") return send(response, 405, { status: 405, err: "GET only" });
    if (url.pathname.startsWith("/renders/")) return send(response, 200, RECORDED_RENDER_PNG);
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] !== "v1") return send(response, 404, NOT_FOUND);
    if (request.headers["x-figma-token"] !== token) {
      return send(response, 403, { status: 403, err: "Invalid token" });
    }
    const recorded = byKey.get(decodeURIComponent(parts[2] ?? ""));
    const body =
      recorded === undefined
        ? undefined
        : answer(recorded, parts, url, options.imageOrigin ?? origin);
    if (body === undefined) return send(response, 404, NOT_FOUND);
    send(response, 200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    override: (prefix, status, body, headers = {}) =>
      overrides.push({ prefix, status, body, headers }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
