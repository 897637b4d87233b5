import { normalizeRelativePath, ToolFailureError } from "@agentool/contract";
import type { Route } from "playwright-core";
import type { PreviewConsoleEntry, PreviewOpenRequest } from "../preview-backend.js";

/** Longest a page waits for one of its files to be read. */
const ASSET_READ_TIMEOUT_MS = 10_000;

/** Media types by file extension (anything else is served as bytes, never sniffed). */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  cjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  webmanifest: "application/manifest+json",
  txt: "text/plain; charset=utf-8",
  md: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  wasm: "application/wasm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
};

/** HTTP status of each failure of the reader. */
const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  FILE_NOT_FOUND: 404,
  BLOCKED: 403,
  INVALID_PATH: 403,
  TOO_LARGE: 413,
  PERMISSION_DENIED: 403,
};

/**
 * The media type of a file by its extension.
 *
 * @param path - a workspace path
 * @returns the `content-type` to serve it with
 */
export function mediaTypeOf(path: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
  return MEDIA_TYPES[extension] ?? "application/octet-stream";
}

/**
 * The workspace path a URL of the artifact's origin names (`undefined` when it names none).
 *
 * @param url - the request's URL, of the artifact's origin
 * @returns the normalized workspace path
 */
export function assetPathOf(url: URL): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname.replace(/^\/+/, ""));
  } catch {
    return undefined;
  }
  if (decoded.length === 0 || decoded.includes("\0")) return undefined;
  return normalizeRelativePath(decoded).path;
}

/**
 * Answers a request for one of the artifact's own files from the workspace (through
 * `request.readAsset`: confined, capped, secrets refused); a file that cannot be served is
 * answered with its HTTP status and recorded with the reason.
 *
 * @param route - the intercepted request
 * @param url - its URL (of the artifact's origin)
 * @param request - the open request holding `readAsset`
 * @param record - records a console entry
 */
export async function serveAsset(
  route: Route,
  url: URL,
  request: PreviewOpenRequest,
  record: (level: PreviewConsoleEntry["level"], text: string) => void,
): Promise<void> {
  const path = assetPathOf(url);
  const method = route.request().method();
  const refusal =
    path === undefined
      ? `${url.pathname.slice(0, 200)} is not a workspace path`
      : method !== "GET" && method !== "HEAD"
        ? `${method} is not served (the artifact's files are read-only)`
        : undefined;
  if (refusal !== undefined || path === undefined || request.readAsset === undefined) {
    record("blocked", `preview could not serve ${path ?? url.pathname.slice(0, 200)}: ${refusal}`);
    await route.fulfill({ status: 403, body: "" }).catch(() => {});
    return;
  }
  try {
    const bytes = await request.readAsset(path, AbortSignal.timeout(ASSET_READ_TIMEOUT_MS));
    await route
      .fulfill({
        status: 200,
        headers: {
          "content-type": mediaTypeOf(path),
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          // The document's origin is opaque (sandboxed): module scripts and fetches are CORS.
          "access-control-allow-origin": "*",
        },
        body:
          method === "HEAD" ? "" : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      })
      .catch(() => {});
  } catch (error) {
    const code = ToolFailureError.isInstance(error)
      ? error.code
      : (error as { code?: unknown } | null)?.code === "ENOENT"
        ? "FILE_NOT_FOUND"
        : undefined;
    const reason =
      ToolFailureError.isInstance(error) || error instanceof Error ? error.message : String(error);
    record("error", `preview could not serve ${path}: ${reason}`);
    await route
      .fulfill({ status: (code && STATUS_OF_CODE[code]) || 500, body: "" })
      .catch(() => {});
  }
}
