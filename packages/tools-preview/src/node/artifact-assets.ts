import { errorMessage, normalizeRelativePath } from "@agentool/contract";
import type { Route } from "playwright-core";
import { mediaTypeOf, statusOfFailure } from "../engine/media-types.js";
import type { PreviewConsoleEntry, PreviewOpenRequest } from "../preview-backend.js";

/** Longest a page waits for one of its files to be read. */
const ASSET_READ_TIMEOUT_MS = 10_000;

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
    record("error", `preview could not serve ${path}: ${errorMessage(error)}`);
    await route.fulfill({ status: statusOfFailure(error), body: "" }).catch(() => {});
  }
}
