import { fileURLToPath } from "node:url";
import { errorMessage } from "@agentool/contract";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { resolveRoot } from "../resolve-root.js";

/** What {@link listClientRoot} needs besides the server. */
export interface ListClientRootOptions {
  /** How long the client may take to answer. */
  timeoutMs: number;
  /** The root served now (named in the log lines). */
  currentRoot: string | undefined;
  /** `--root`, used when the client sends no `file://` root. */
  fallbackRoot: string | undefined;
  /** The request to ask on the response stream of (over HTTP the standalone stream may be missing). */
  relatedRequestId?: RequestId;
  /** Where log lines go. */
  log: (line: string) => void;
}

/**
 * Lists the client's roots and picks the confinement root of fs and git: the first `file://`
 * root (real path; the others are named in a log line and not served), else `--root`.
 *
 * @param server - the low-level server connected to the client
 * @param options - timeout, current and fallback root, related request, logger
 * @returns the root; `undefined` = none usable (fs and git left out), `null` = the client did not answer
 */
export async function listClientRoot(
  server: Server,
  options: ListClientRootOptions,
): Promise<string | undefined | null> {
  const { log, fallbackRoot } = options;
  let roots: { uri: string; name?: string }[];
  try {
    ({ roots } = await server.listRoots(undefined, {
      timeout: options.timeoutMs,
      ...(options.relatedRequestId === undefined
        ? {}
        : { relatedRequestId: options.relatedRequestId }),
    }));
  } catch (error) {
    log(
      `the client did not list its roots (${errorMessage(error)}); keeping ${options.currentRoot ?? "no root"}.`,
    );
    return null;
  }
  const fileRoots = roots.filter((root) => root.uri.startsWith("file://"));
  const other = roots.filter((root) => !root.uri.startsWith("file://"));
  if (other.length > 0) {
    log(`ignoring roots that are not file:// URIs: ${other.map((root) => root.uri).join(", ")}.`);
  }
  const [first, ...rest] = fileRoots;
  if (first === undefined) {
    log(
      fallbackRoot === undefined
        ? "the client sent no file:// root and there is no --root: fs and git left out."
        : `the client sent no file:// root: using --root ${fallbackRoot}.`,
    );
    return fallbackRoot;
  }
  if (rest.length > 0) {
    log(
      `the client sent ${fileRoots.length} roots; only the first is served (${first.uri}), not: ${rest.map((root) => root.uri).join(", ")}.`,
    );
  }
  try {
    const real = resolveRoot(fileURLToPath(first.uri), "the client's root");
    if (real !== options.currentRoot) log(`fs and git confined to the client's root ${real}.`);
    return real;
  } catch (error) {
    log(`${errorMessage(error)} fs and git left out.`);
    return undefined;
  }
}
