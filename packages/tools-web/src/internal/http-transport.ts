import { type ErrorCode, ToolFailureError, type ToolFailureErrorOptions } from "@agentool/contract";

/** One HTTP request a web tool makes through a {@link HttpTransport}. */
export interface HttpRequest {
  /** The absolute `http:` / `https:` URL to request. */
  url: string;
  /** `"GET"` (default) or `"POST"`. */
  method?: "GET" | "POST";
  /** Request headers (lower- or mixed-case names). */
  headers?: Record<string, string>;
  /** A request body (POST). */
  body?: string;
  /** Cancels the request; a transport must stop reading when it fires. */
  signal?: AbortSignal;
  /** Most body bytes to read (after content decoding); the rest is dropped and `truncated` set. */
  maxBytes: number;
  /** A tighter or looser cap by content type, decided once the headers arrive (e.g. PDFs). */
  maxBytesForType?: (contentType: string) => number;
  /**
   * `"follow"` (default): redirects are followed, each hop checked. `"manual"`: a redirect is
   * returned as it came (status, `location`, `set-cookie`), for a caller that follows hops itself
   * (a browser keeping cookies per hop). Transports that cannot do `"manual"` may follow.
   */
  redirect?: "follow" | "manual";
}

/** What a {@link HttpTransport} returns. */
export interface HttpResponse {
  /** The HTTP status code. */
  status: number;
  /** The status text, when known. */
  statusText?: string;
  /** The final URL after redirects. */
  url: string;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  /** The body bytes read (decoded from gzip/deflate/br), at most the cap. */
  body: Uint8Array;
  /** Whether the body was longer than the cap and was cut. */
  truncated: boolean;
}

/**
 * Performs one HTTP request. Inject one into a web tool for runtimes without `fetch`
 * (mini-programs), for a proxy, or for the SSRF-guarded Node transport from `./node`.
 * It may throw a {@link WebRequestError} to report a precise failure; anything else it throws
 * becomes a `NETWORK_ERROR`.
 */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;

const WEB_REQUEST_ERROR_MARKER = Symbol.for("agentool.web-request-error");

/**
 * A failure a transport reports with a code from the shared list (e.g. `BLOCKED`). It is the
 * contract's `ToolFailureError`: thrown from anywhere inside a tool (also as the `cause` of
 * another error), the tool's `run` turns it into the failure envelope with its code, message,
 * hint and `retryable`.
 */
export class WebRequestError extends ToolFailureError {
  /** @internal */
  readonly [WEB_REQUEST_ERROR_MARKER] = true;

  /**
   * @param code - a code from the shared list
   * @param message - what went wrong, for the model
   * @param options - a hint, whether it is retryable, the cause
   */
  constructor(code: ErrorCode, message: string, options: ToolFailureErrorOptions = {}) {
    super(code, message, options);
    this.name = "WebRequestError";
  }

  /**
   * Tells whether a value is a {@link WebRequestError}, even from another copy of the package.
   *
   * @param value - anything
   * @returns `true` for a web request error
   */
  static override isInstance(value: unknown): value is WebRequestError {
    return typeof value === "object" && value !== null && WEB_REQUEST_ERROR_MARKER in value;
  }

  /**
   * The first {@link WebRequestError} among a thrown value and its `cause`s (eight deep), across
   * copies.
   *
   * @param value - anything thrown
   * @returns the error, or `undefined`
   */
  static override find(value: unknown): WebRequestError | undefined {
    let current: unknown = value;
    for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth += 1) {
      if (WebRequestError.isInstance(current)) return current;
      current = (current as { cause?: unknown }).cause;
    }
    return undefined;
  }
}

/**
 * Reads a web stream into bytes against a cap; cancels the stream as soon as the cap is passed,
 * so an endless or decompression-bomb body stops early.
 *
 * @param stream - the body stream
 * @param maxBytes - most bytes to keep
 * @param signal - cancels reading
 * @returns the bytes kept and whether more were available
 */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (stream === null) return { body: new Uint8Array(0), truncated: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    while (true) {
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        await reader.cancel().catch(() => {});
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  return { body: concatBytes(chunks, size), truncated };
}

/**
 * Joins byte chunks.
 *
 * @param chunks - the chunks
 * @param size - their total length
 * @returns one array
 */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined && chunks[0].byteLength === size) {
    return chunks[0];
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Request headers that follow a redirect to another origin; every other one is dropped there. */
export const CROSS_ORIGIN_HEADERS: readonly string[] = ["user-agent", "accept"];

/** Redirects a transport follows at most, by default. */
export const DEFAULT_FETCH_MAX_REDIRECTS = 5;

/** Where one request stands while its redirects are followed. */
export interface RedirectState {
  /** The URL of this hop. */
  url: URL;
  /** The method of this hop. */
  method: "GET" | "POST";
  /** The headers of this hop (lower-case names). */
  headers: Record<string, string>;
  /** The body of this hop. */
  body: string | undefined;
}

/**
 * Lower-cases header names (the last of two spellings wins).
 *
 * @param headers - headers as given
 * @returns the same headers, names in lower case
 */
export function lowerCaseHeaders(
  headers: Record<string, string> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
  return out;
}

/**
 * The next hop of a redirect, shared by every transport here: at most `maxRedirects`; 303 (and
 * 301/302 of a POST) become a GET without body; on a hop to **another origin** (scheme, host or
 * port differs) every header but `user-agent` and `accept` is dropped, and a request with a body
 * (307/308 of a POST) is not followed at all — so no key, token, cookie or body the host meant
 * for one origin reaches another.
 *
 * @param state - the hop that answered with a redirect
 * @param status - its status
 * @param location - its Location header
 * @param hop - how many redirects were followed before this one
 * @param maxRedirects - the most to follow
 * @returns the next hop
 * @throws WebRequestError when the redirect is not followed
 */
export function nextRedirectHop(
  state: RedirectState,
  status: number,
  location: string,
  hop: number,
  maxRedirects: number,
): RedirectState {
  if (hop >= maxRedirects) {
    throw new WebRequestError(
      "NETWORK_ERROR",
      `Stopped after ${maxRedirects} redirects (the last one pointed to ${location}).`,
      {
        hint: "The page redirects in a loop or too many times; try the final address directly or another source.",
        retryable: false,
      },
    );
  }
  let next: URL;
  try {
    next = new URL(location, state.url);
  } catch {
    throw new WebRequestError(
      "NETWORK_ERROR",
      `The server redirected to an invalid address (${location}).`,
      { hint: "Use another source." },
    );
  }
  let { method, body } = state;
  let headers = { ...state.headers };
  if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
    method = "GET";
    body = undefined;
    delete headers["content-type"];
    delete headers["content-length"];
  }
  if (next.origin !== state.url.origin) {
    if (body !== undefined) {
      throw new WebRequestError(
        "NETWORK_ERROR",
        `${state.url.origin} redirected a ${method} request with a body to another origin (${next.origin}); it is not followed, so nothing meant for ${state.url.origin} goes elsewhere.`,
        {
          hint: "Ask the host to point the endpoint at its final address.",
          retryable: false,
        },
      );
    }
    const kept: Record<string, string> = {};
    for (const name of CROSS_ORIGIN_HEADERS) {
      const value = headers[name];
      if (value !== undefined) kept[name] = value;
    }
    headers = kept;
  }
  return { url: next, method, headers, body };
}

/** Options of {@link createFetchTransport}. */
export interface FetchTransportOptions {
  /** The `fetch` to use. Default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Redirects followed at most (each hop passed to `checkUrl`). Default {@link DEFAULT_FETCH_MAX_REDIRECTS} (5). */
  maxRedirects?: number;
  /**
   * Called with the URL of every hop before it is requested; throw (a {@link WebRequestError})
   * to refuse it. `web_fetch` passes its address policy here. Default: no check.
   */
  checkUrl?: (url: URL) => void;
}

function locationBase(): string | undefined {
  const href = (globalThis as { location?: { href?: unknown } }).location?.href;
  return typeof href === "string" ? href : undefined;
}

/**
 * A transport over the global `fetch` (any runtime). Redirects are followed by hand
 * (`redirect: "manual"`), each hop given to `checkUrl`, at most `maxRedirects`; on a hop to
 * another origin only `user-agent` and `accept` are kept and a request with a body is not
 * followed. Where the runtime hides redirect targets (browsers answer `opaqueredirect`), a GET
 * is repeated with `redirect: "follow"` and only `user-agent` / `accept` (a request with a body
 * fails): the browser's own policy then applies to later hops. The body is streamed against the
 * cap (bytes after content decoding).
 *
 * @param options - an alternative `fetch`, the redirect limit and a per-hop URL check
 * @returns the transport
 * @example
 * const transport = createFetchTransport();
 * const response = await transport({ url: "https://example.com/", maxBytes: 1_000_000 });
 */
export function createFetchTransport(options: FetchTransportOptions = {}): HttpTransport {
  const maxRedirects = options.maxRedirects ?? DEFAULT_FETCH_MAX_REDIRECTS;
  return async (request) => {
    const fetchFunction = options.fetch ?? globalThis.fetch;
    if (typeof fetchFunction !== "function") {
      throw new WebRequestError("NOT_CONFIGURED", "This runtime has no global fetch.", {
        hint: "Ask the host to pass a `transport` to the web tools.",
      });
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(request.url, locationBase());
    } catch {
      parsed = undefined;
    }
    let state: RedirectState | undefined =
      parsed === undefined
        ? undefined
        : {
            url: parsed,
            method: request.method ?? "GET",
            headers: lowerCaseHeaders(request.headers),
            body: request.body,
          };
    const send = (url: string, hop: RedirectState | undefined, redirect: "manual" | "follow") => {
      const init: RequestInit = {
        method: hop?.method ?? request.method ?? "GET",
        headers: hop?.headers ?? request.headers ?? {},
        redirect,
      };
      const body = hop === undefined ? request.body : hop.body;
      if (body !== undefined) init.body = body;
      if (request.signal !== undefined) init.signal = request.signal;
      return fetchFunction(url, init);
    };
    let response: Response;
    let finalUrl = request.url;
    if (state === undefined) {
      // Not an absolute URL and no page to resolve it against: fetch decides (and fails).
      response = await send(request.url, undefined, "manual");
    } else {
      for (let hop = 0; ; hop += 1) {
        options.checkUrl?.(state.url);
        response = await send(state.url.href, state, "manual");
        finalUrl = state.url.href;
        if (response.type === "opaqueredirect") {
          if (state.body !== undefined) {
            throw new WebRequestError(
              "NETWORK_ERROR",
              `${state.url.origin} redirected a ${state.method} request with a body, and this runtime hides where to; it is not followed.`,
              {
                hint: "Ask the host to point the endpoint at its final address.",
                retryable: false,
              },
            );
          }
          const kept: Record<string, string> = {};
          for (const name of CROSS_ORIGIN_HEADERS) {
            const value = state.headers[name];
            if (value !== undefined) kept[name] = value;
          }
          response = await send(state.url.href, { ...state, headers: kept }, "follow");
          finalUrl = response.url || finalUrl;
          break;
        }
        const location = response.headers.get("location");
        if (response.status < 300 || response.status >= 400 || location === null) break;
        await response.body?.cancel().catch(() => {});
        state = nextRedirectHop(state, response.status, location, hop, maxRedirects);
      }
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    const contentType = headers["content-type"] ?? "";
    const cap = request.maxBytesForType?.(contentType) ?? request.maxBytes;
    const { body, truncated } = await readStreamCapped(response.body, cap, request.signal);
    return {
      status: response.status,
      statusText: response.statusText,
      url: finalUrl,
      headers,
      body,
      truncated,
    };
  };
}
