import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import type { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  createBrotliDecompress,
  createGunzip,
  createInflate,
  constants as zlibConstants,
} from "node:zlib";
import { Agent, request as undiciRequest } from "undici";
import {
  blockedAddress,
  createHostMatcher,
  createUrlPolicy,
  judgeAddress,
} from "../internal/address-policy.js";
import {
  concatBytes,
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
  lowerCaseHeaders,
  nextRedirectHop,
  type RedirectState,
  WebRequestError,
} from "../internal/http-transport.js";

/** Redirects followed at most, by default. */
export const DEFAULT_MAX_REDIRECTS = 5;

/** Default time limit for opening a connection: 10 s. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** One resolved address. */
export interface ResolvedAddress {
  /** The IP address. */
  address: string;
  /** 4 or 6. */
  family: 4 | 6;
}

/** Resolves a host name to every address (inject one in tests). Default `dns.lookup(…, { all: true })`. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Options of {@link createGuardedTransport}. */
export interface GuardedTransportOptions {
  /** Let requests reach private, loopback, link-local, CGNAT and unique-local addresses. Default `false`. Cloud metadata stays refused. */
  allowPrivate?: boolean;
  /** Hosts reachable whatever they resolve to: `"intranet.example"`, `"*.corp.example"`, `"127.0.0.1:8080"`. Default none. */
  allowHosts?: readonly string[];
  /** The DNS resolver. Default `dns.lookup` with `all: true`. */
  resolver?: Resolver;
  /** Redirects followed at most (each hop re-checked). Default {@link DEFAULT_MAX_REDIRECTS} (5). */
  maxRedirects?: number;
  /** Time limit for opening a connection, ms. Default {@link DEFAULT_CONNECT_TIMEOUT_MS} (10 s). */
  connectTimeoutMs?: number;
}

const defaultResolver: Resolver = async (hostname) => {
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

type LookupCallback = (
  error: Error | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

function decoderFor(encoding: string): Transform | undefined {
  const flush = { flush: zlibConstants.Z_SYNC_FLUSH, finishFlush: zlibConstants.Z_SYNC_FLUSH };
  if (encoding === "gzip" || encoding === "x-gzip") return createGunzip(flush);
  if (encoding === "deflate") return createInflate(flush);
  if (encoding === "br") return createBrotliDecompress();
  if (encoding === "identity" || encoding === "") return undefined;
  throw new WebRequestError(
    "UNSUPPORTED",
    `The server sent an unsupported content encoding (${encoding}).`,
    {
      hint: "Use another source for this content.",
    },
  );
}

const CAP_REACHED = Symbol("cap reached");

/**
 * Reads a Node body stream through its content decoders against a cap on **decoded** bytes; the
 * whole chain is destroyed as soon as the cap is passed (an endless body or a gzip bomb stops
 * early, memory stays near the cap).
 */
async function readBodyCapped(
  body: Readable,
  encodings: string[],
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  const decoders = encodings
    .reverse()
    .map(decoderFor)
    .filter((decoder): decoder is Transform => decoder !== undefined);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const sink = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      if (size + chunk.byteLength > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        throw CAP_REACHED;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  };
  try {
    const streams = [body, ...decoders] as unknown as [Readable];
    await pipeline(...streams, sink, signal === undefined ? {} : { signal });
  } catch (error) {
    // Once the cap is reached, whatever the torn-down chain reports (an abort of the body, a
    // decoder error) is expected. A cut-off compressed body keeps what was decoded.
    const cutOff = size > 0 && (error as { code?: string }).code === "Z_BUF_ERROR";
    if (error !== CAP_REACHED && !truncated && !cutOff) throw error;
  }
  return { body: concatBytes(chunks, size), truncated };
}

function headerRecord(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    // Cookies keep one per line: their Expires dates have commas.
    const separator = key.toLowerCase() === "set-cookie" ? "\n" : ", ";
    out[key.toLowerCase()] = Array.isArray(value) ? value.join(separator) : value;
  }
  return out;
}

/**
 * The SSRF-guarded Node transport. Every address is checked **at connect time** inside the
 * undici dispatcher's DNS lookup (so names resolving to 127.0.0.1, DNS rebinding and any
 * spelling of an address fail closed); IP literals (including decimal, octal and hex IPv4 forms,
 * which the URL parser normalises, and `[::ffff:127.0.0.1]`) and `localhost` / `*.localhost` /
 * metadata names are refused before connecting. Redirects are followed by hand (at most
 * `maxRedirects`), each hop checked again; on a hop to another origin only `user-agent` and `accept` are kept and a request with a body is not followed.
 * Bodies are streamed through their decoders against the cap on decoded bytes.
 *
 * @param options - the policy (allowPrivate, allowHosts), resolver and limits
 * @returns the transport (a function), with `close()` to release its connections
 * @example
 * const transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });
 * const tool = createWebFetchTool({ transport });
 */
export function createGuardedTransport(
  options: GuardedTransportOptions = {},
): HttpTransport & { close(): Promise<void> } {
  const allowPrivate = options.allowPrivate === true;
  const allowed = createHostMatcher(options.allowHosts ?? []);
  const resolver = options.resolver ?? defaultResolver;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;

  const lookup = (
    hostname: string,
    lookupOptions: { all?: boolean; family?: number },
    callback: LookupCallback,
  ) => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(
            Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }),
            [],
          );
          return;
        }
        if (!allowed(hostname)) {
          for (const entry of addresses) {
            const verdict = judgeAddress(entry.address, { allowPrivate });
            if (!verdict.allowed) {
              callback(
                blockedAddress(
                  hostname,
                  `it resolves to ${entry.address}, a ${verdict.range} address`,
                ),
                [],
              );
              return;
            }
          }
        }
        const usable =
          lookupOptions.family === 4 || lookupOptions.family === 6
            ? addresses.filter((entry) => entry.family === lookupOptions.family)
            : addresses;
        const chosen = usable.length > 0 ? usable : addresses;
        if (lookupOptions.all === true)
          callback(
            null,
            chosen.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        else callback(null, chosen[0]?.address ?? "", chosen[0]?.family ?? 4);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
    );
  };

  const agent = new Agent({
    connect: {
      lookup: lookup as never,
      timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    },
    keepAliveTimeout: 4_000,
  });

  const checkUrl = createUrlPolicy(options);

  const transport = async (request: HttpRequest): Promise<HttpResponse> => {
    let state: RedirectState = {
      url: new URL(request.url),
      method: request.method ?? "GET",
      headers: lowerCaseHeaders(request.headers),
      body: request.body,
    };
    for (let hop = 0; ; hop += 1) {
      checkUrl(state.url);
      const response = await undiciRequest(state.url, {
        dispatcher: agent,
        method: state.method,
        headers: { ...state.headers, "accept-encoding": "gzip, deflate, br" },
        ...(state.body === undefined ? {} : { body: state.body }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      const responseHeaders = headerRecord(response.headers);
      const location = responseHeaders.location;
      if (
        response.statusCode >= 300 &&
        response.statusCode < 400 &&
        location !== undefined &&
        request.redirect !== "manual"
      ) {
        response.body.on("error", () => {});
        response.body.destroy();
        state = nextRedirectHop(state, response.statusCode, location, hop, maxRedirects);
        continue;
      }
      const contentType = responseHeaders["content-type"] ?? "";
      const cap = request.maxBytesForType?.(contentType) ?? request.maxBytes;
      const encodings = (responseHeaders["content-encoding"] ?? "")
        .split(",")
        .map((value) => value.trim().toLowerCase())
        .filter(Boolean);
      const read = await readBodyCapped(response.body, encodings, cap, request.signal);
      return {
        status: response.statusCode,
        url: state.url.href,
        headers: responseHeaders,
        ...read,
      };
    }
  };
  return Object.assign(transport, { close: () => agent.close() });
}
