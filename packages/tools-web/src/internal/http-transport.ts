import type { ErrorCode } from "@agentool/contract";

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

/** A failure a transport reports with a code from the shared list (e.g. `BLOCKED`). */
export class WebRequestError extends Error {
  /** The error code the tool will report. */
  readonly code: ErrorCode;
  /** What to do next. */
  readonly hint: string | undefined;
  /** Whether repeating the same request may succeed. */
  readonly retryable: boolean | undefined;
  readonly [WEB_REQUEST_ERROR_MARKER] = true;

  /**
   * @param code - a code from the shared list
   * @param message - what went wrong, for the model
   * @param options - a hint and whether it is retryable
   */
  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "WebRequestError";
    this.code = code;
    this.hint = options.hint;
    this.retryable = options.retryable;
  }

  /**
   * Tells whether a value (or one of its `cause`s) is a {@link WebRequestError}, across copies.
   *
   * @param value - anything thrown
   * @returns the error, or `undefined`
   */
  static find(value: unknown): WebRequestError | undefined {
    let current: unknown = value;
    for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth += 1) {
      if (WEB_REQUEST_ERROR_MARKER in current) return current as WebRequestError;
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

/** Options of {@link createFetchTransport}. */
export interface FetchTransportOptions {
  /** The `fetch` to use. Default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A transport over the global `fetch` (any runtime): redirects followed by `fetch` itself, the
 * body streamed against the cap (bytes after content decoding).
 *
 * @param options - an alternative `fetch`
 * @returns the transport
 * @example
 * const transport = createFetchTransport();
 * const response = await transport({ url: "https://example.com/", maxBytes: 1_000_000 });
 */
export function createFetchTransport(options: FetchTransportOptions = {}): HttpTransport {
  return async (request) => {
    const fetchFunction = options.fetch ?? globalThis.fetch;
    if (typeof fetchFunction !== "function") {
      throw new WebRequestError("NOT_CONFIGURED", "This runtime has no global fetch.", {
        hint: "Ask the host to pass a `transport` to the web tools.",
      });
    }
    const init: RequestInit = {
      method: request.method ?? "GET",
      headers: request.headers ?? {},
      redirect: "follow",
    };
    if (request.body !== undefined) init.body = request.body;
    if (request.signal !== undefined) init.signal = request.signal;
    const response = await fetchFunction(request.url, init);
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
      url: response.url || request.url,
      headers,
      body,
      truncated,
    };
  };
}
