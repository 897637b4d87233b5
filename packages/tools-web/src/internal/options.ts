import { z } from "zod";
import type { HttpTransport } from "./http-transport.js";

/** A zod option for an injectable transport. */
export const transportOption = z
  .custom<HttpTransport>((value) => typeof value === "function", {
    error: "expected a transport function (request) => Promise<response>",
  })
  .optional();

/** A zod option for host headers. */
export const headersOption = z.record(z.string(), z.string()).optional();

/**
 * Lower-cases header names and adds the default User-Agent unless the host set one.
 *
 * @param headers - the host's headers
 * @param userAgent - the default User-Agent
 * @returns the headers to send
 */
export function buildHeaders(
  headers: Record<string, string> | undefined,
  userAgent: string,
): Record<string, string> {
  const out: Record<string, string> = { "user-agent": userAgent };
  for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
  return out;
}

/** Headers the host sends to one origin only (web_fetch's `headers` option). */
export interface OriginHeaders {
  /** The origin they go to: scheme, host and port only, e.g. `"https://gitlab.example.com"`. */
  origin: string;
  /** The headers (names case-insensitive). Dropped on any redirect to another origin. */
  headers: Record<string, string>;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: CR, LF and NUL are what is refused
const BAD_HEADER_VALUE = /[\r\n\u0000]/;

function exactOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (url.pathname !== "/" || !/^https?:\/\/[^/]+\/?$/i.test(value)) return undefined;
  return url.origin;
}

const originHeadersEntry = z.strictObject({
  origin: z.string().refine((value) => exactOrigin(value) !== undefined, {
    error:
      'expected an origin only — scheme, host and optional port, no path: "https://api.example.com"',
  }),
  headers: z.record(
    z.string().regex(HEADER_NAME, { error: "expected a header name (letters, digits, -)" }),
    z.string().refine((value) => !BAD_HEADER_VALUE.test(value), {
      error: "a header value may not hold CR, LF or NUL",
    }),
  ),
});

/** The zod option for web_fetch's origin-scoped `headers`, with a clear error for the old flat shape. */
export const originHeadersOption = z
  .custom<unknown[]>((value) => Array.isArray(value), {
    error: (issue) =>
      issue.input !== null && typeof issue.input === "object"
        ? 'headers are scoped to origins now: pass [{ origin: "https://api.example.com", headers: { … } }] (sent to that origin only, dropped on a redirect elsewhere); a User-Agent for every request goes in `userAgent`'
        : "expected a list of { origin, headers }",
  })
  .pipe(z.array(originHeadersEntry))
  .superRefine((entries, context) => {
    const seen = new Set<string>();
    for (const entry of entries) {
      const origin = exactOrigin(entry.origin);
      if (origin === undefined) continue;
      if (seen.has(origin)) {
        context.addIssue({ code: "custom", message: `${origin} is listed twice` });
      }
      seen.add(origin);
    }
  })
  .optional();

/** A zod option for a User-Agent sent with every request. */
export const userAgentOption = z
  .string()
  .min(1)
  .refine((value) => !BAD_HEADER_VALUE.test(value), {
    error: "a User-Agent may not hold CR, LF or NUL",
  })
  .optional();

/**
 * Builds the per-URL headers of web_fetch: `user-agent` and `accept` for every URL, plus the
 * headers of the entry whose origin is the URL's (exact match of scheme, host and port).
 *
 * @param entries - the host's origin-scoped headers
 * @param base - the headers every request gets (`user-agent`, `accept`)
 * @returns `(url) => headers`
 */
export function createOriginHeaders(
  entries: readonly OriginHeaders[] | undefined,
  base: Record<string, string>,
): (url: string) => Record<string, string> {
  const byOrigin = new Map<string, Record<string, string>>();
  for (const entry of entries ?? []) {
    const origin = exactOrigin(entry.origin);
    if (origin === undefined) continue;
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(entry.headers)) headers[key.toLowerCase()] = value;
    byOrigin.set(origin, headers);
  }
  return (url) => {
    let origin: string | undefined;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = undefined;
    }
    const scoped = origin === undefined ? undefined : byOrigin.get(origin);
    return scoped === undefined ? { ...base } : { ...base, ...scoped };
  };
}

let warnedUnguarded = false;

/** The warning web_fetch gives once on Node when it runs on the runtime-neutral transport. */
export const UNGUARDED_NODE_WARNING =
  "@agentool/tools-web: web_fetch from the runtime-neutral entry refuses private IP literals and localhost, but not names that resolve to private addresses. On Node use createNodeWebFetchTool from @agentool/tools-web/node, which checks every address it connects to (or pass a transport).";

/**
 * Warns once per process on Node (or Bun) that the runtime-neutral transport checks addresses
 * by literal only. With `onWarn`, that function is told instead (every time, it is the host's).
 *
 * @param onWarn - the host's warning sink
 */
export function warnUnguardedOnNode(onWarn: ((message: string) => void) | undefined): void {
  const versions = (globalThis as { process?: { versions?: { node?: unknown } } }).process
    ?.versions;
  if (typeof versions?.node !== "string") return;
  if (onWarn !== undefined) {
    onWarn(UNGUARDED_NODE_WARNING);
    return;
  }
  if (warnedUnguarded) return;
  warnedUnguarded = true;
  console.warn(UNGUARDED_NODE_WARNING);
}
