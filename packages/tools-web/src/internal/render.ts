import {
  fail,
  formatCount,
  isErrorCode,
  PROXIED_REQUEST_DROPPED_HEADERS,
  PROXIED_RESPONSE_DROPPED_HEADERS,
  raceSignal,
  type ToolFailure,
} from "@agentool/contract";
import { z } from "zod";
import { type ForwardOption, forwardUrl } from "./forward.js";
import { type HttpTransport, WebRequestError } from "./http-transport.js";

/** One request a page renderer makes through web_fetch's {@link GuardedFetch}. */
export interface GuardedFetchRequest {
  /** The absolute `http:` / `https:` URL (a fragment is dropped). */
  url: string;
  /** `"GET"` (default) or `"POST"`; any other method is refused with `BLOCKED`. */
  method?: string;
  /** The page's request headers. Hop-by-hop headers, `host`, `accept-encoding` and `user-agent` are replaced; the host's origin-scoped `headers` are never added. */
  headers?: Record<string, string>;
  /** A request body (POST), as text. */
  body?: string;
  /** Cancels this request (the render's own signal cancels every request anyway). */
  signal?: AbortSignal;
}

/** What a {@link GuardedFetch} returns: the final response after redirects, body decoded and whole. */
export interface GuardedFetchResponse {
  /** The URL after redirects (the requested one when reads are forwarded through a proxy). */
  url: string;
  /** The HTTP status (never a followed 3xx). */
  status: number;
  /** The status text, or `""`. */
  statusText: string;
  /** Response headers, names in lower case, without `content-encoding`, `content-length`, `transfer-encoding` (the body is already decoded). */
  headers: Record<string, string>;
  /** The decoded body. */
  body: Uint8Array;
}

/**
 * web_fetch's own request path, handed to a page renderer for every request the page makes:
 * the same address policy (checked on the URL and every redirect hop, and at connect time on
 * Node), the same transport and `forward` proxy, a byte cap per response and for the whole
 * render, a cap on the number of requests, and the call's signal (timeout, abort). It throws a
 * `WebRequestError`-like error (with a shared `code`) when a request is refused or fails.
 */
export type GuardedFetch = (request: GuardedFetchRequest) => Promise<GuardedFetchResponse>;

/** What web_fetch hands a {@link PageRenderer} besides the URL and signal. */
export interface PageRenderContext {
  /** Fetch every request of the page through this, never through the renderer's own network. */
  fetch: GuardedFetch;
  /** The page itself, already fetched and checked (URL and every redirect): serve the first navigation from it. */
  document: GuardedFetchResponse;
}

/** What a {@link PageRenderer} may return instead of a bare HTML string. */
export interface RenderedPage {
  /** The serialized DOM after the page's scripts ran. */
  html: string;
  /** The page's URL at the end (after a script navigation); default the URL rendered. */
  url?: string;
}

/**
 * Renders a page (runs its JavaScript) and returns the resulting HTML. Callable as
 * `(url, signal) => html`; a renderer that honours the third argument routes every request
 * through web_fetch's guard (`createChromiumRenderer` from `@agentool/tools-preview/node` does).
 * Throw an error with a shared `code` (and optional `hint`) to report a precise failure.
 */
export type PageRenderer = (
  url: string,
  signal: AbortSignal,
  context: PageRenderContext,
) => Promise<string | RenderedPage>;

/** Default time limit of one render: 20 s (kept inside web_fetch's own timeout). */
export const DEFAULT_RENDER_TIMEOUT_MS = 20_000;

/** Default cap on the requests one render makes: 150. */
export const DEFAULT_RENDER_MAX_REQUESTS = 150;

/** Default cap on the bytes all requests of one render read: 20 MiB. */
export const DEFAULT_RENDER_MAX_BYTES = 20 * 1_048_576;

/** How much earlier than web_fetch's own timeout a render is stopped, so its error names the next step. */
const RENDER_MARGIN_MS = 1_500;

/** The zod options of rendering. */
export const renderOptionsShape = {
  render: z
    .custom<PageRenderer>((value) => typeof value === "function", {
      error: "expected a renderer function (url, signal, { fetch, document }) => Promise<html>",
    })
    .optional(),
  renderByDefault: z.boolean().optional(),
  renderTimeoutMs: z.number().int().min(1_000).max(600_000).optional(),
  renderMaxRequests: z.number().int().min(1).max(10_000).optional(),
  renderMaxBytes: z.number().int().min(1_024).max(1_073_741_824).optional(),
};

/** A rendered page's request headers not passed on: the shared list, and its user agent (ours). */
const DROPPED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  ...PROXIED_REQUEST_DROPPED_HEADERS,
  "user-agent",
]);

const DROPPED_RESPONSE_HEADERS = PROXIED_RESPONSE_DROPPED_HEADERS;

/**
 * Strips a transport response's headers to those a browser may see for a decoded body.
 *
 * @param headers - the transport's headers (lower case)
 * @returns the kept headers
 */
export function responseHeadersForPage(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (!DROPPED_RESPONSE_HEADERS.has(key.toLowerCase())) out[key.toLowerCase()] = value;
  }
  return out;
}

/** What {@link createRenderFetch} needs from web_fetch. */
export interface RenderFetchSettings {
  transport: HttpTransport;
  urlPolicy: ((url: URL) => void) | undefined;
  forward: ForwardOption | undefined;
  userAgent: string;
  maxResponseBytes: number;
  maxRequests: number;
  maxBytes: number;
  signal: AbortSignal;
}

/**
 * Builds the guarded fetch of one render.
 *
 * @param settings - web_fetch's transport, policy, proxy, caps and the render's signal
 * @returns the guarded fetch
 */
export function createRenderFetch(settings: RenderFetchSettings): GuardedFetch {
  let requests = 0;
  let bytes = 0;
  return async (request) => {
    const method = (request.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "POST") {
      throw new WebRequestError(
        "BLOCKED",
        `A ${method} request of the rendered page was refused: only GET and POST are sent.`,
      );
    }
    requests += 1;
    if (requests > settings.maxRequests) {
      throw new WebRequestError(
        "TOO_LARGE",
        `The rendered page made more than ${formatCount(settings.maxRequests)} requests; the rest are refused.`,
      );
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new WebRequestError("BLOCKED", `The rendered page asked for an invalid URL.`);
    }
    url.hash = "";
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new WebRequestError("BLOCKED", `Only http(s) requests are sent, not ${url.protocol}.`);
    }
    settings.urlPolicy?.(url);
    const target = forwardUrl(settings.forward, url.href);
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.headers ?? {})) {
      const name = key.toLowerCase();
      if (!DROPPED_REQUEST_HEADERS.has(name) && !name.startsWith(":")) headers[name] = value;
    }
    headers["user-agent"] = settings.userAgent;
    const left = settings.maxBytes - bytes;
    if (left <= 0) {
      throw new WebRequestError(
        "TOO_LARGE",
        `The rendered page read more than ${formatCount(settings.maxBytes)} bytes; the rest are refused.`,
      );
    }
    const signal =
      request.signal === undefined
        ? settings.signal
        : AbortSignal.any([settings.signal, request.signal]);
    const cap = Math.min(settings.maxResponseBytes, left);
    const response = await settings.transport({
      url: target,
      method,
      headers,
      ...(request.body === undefined || method === "GET" ? {} : { body: request.body }),
      signal,
      maxBytes: cap,
    });
    bytes += response.body.byteLength;
    if (response.truncated) {
      throw new WebRequestError(
        "TOO_LARGE",
        `${url.href} is larger than ${formatCount(cap)} bytes; the rendered page does not get it.`,
      );
    }
    return {
      url: settings.forward === undefined ? response.url || url.href : url.href,
      status: response.status,
      statusText: response.statusText ?? "",
      headers: responseHeadersForPage(response.headers),
      body: response.body,
    };
  };
}

/** What {@link runRenderer} returns on success. */
export interface RenderOutcome {
  html: string;
  url: string | undefined;
}

/**
 * Runs a renderer inside a hard budget and maps its failures to shared error codes whose hints
 * name the next step (`render=false`).
 *
 * @param renderer - the host's renderer
 * @param url - the page's final URL
 * @param context - the guarded fetch and the fetched document
 * @param settings - the call's signal, the budget, the tool name
 * @returns the rendered HTML, or a failure
 * @throws the call's abort reason when the call itself was aborted
 */
export async function runRenderer(
  renderer: PageRenderer,
  url: string,
  context: (signal: AbortSignal) => PageRenderContext,
  settings: { signal: AbortSignal; budgetMs: number; toolName: string },
): Promise<{ ok: true; value: RenderOutcome } | { ok: false; failure: ToolFailure }> {
  const next = `Call ${settings.toolName} again with render=false to read the page as served (without running its JavaScript), or use another source.`;
  if (settings.budgetMs < 1_000) {
    return {
      ok: false,
      failure: fail("TIMEOUT", `No time was left to render ${url} within the call's time limit.`, {
        hint: next,
        retryable: true,
      }),
    };
  }
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(settings.signal.reason);
  settings.signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(
      new WebRequestError("TIMEOUT", `Rendering ${url} took longer than ${settings.budgetMs} ms.`),
    );
  }, settings.budgetMs);
  try {
    const rendered = await raceSignal(
      renderer(url, controller.signal, context(controller.signal)),
      controller.signal,
    );
    const html = typeof rendered === "string" ? rendered : rendered?.html;
    if (typeof html !== "string") {
      return {
        ok: false,
        failure: fail("NOT_CONFIGURED", `The host's page renderer returned no HTML for ${url}.`, {
          hint: `Ask the host to fix the web_fetch render option. ${next}`,
        }),
      };
    }
    const renderedUrl =
      typeof rendered === "object" &&
      typeof rendered.url === "string" &&
      /^https?:/i.test(rendered.url)
        ? rendered.url
        : undefined;
    return { ok: true, value: { html, url: renderedUrl } };
  } catch (error) {
    if (settings.signal.aborted) throw settings.signal.reason ?? error;
    if (timedOut) {
      return {
        ok: false,
        failure: fail(
          "TIMEOUT",
          `Rendering ${url} did not finish within ${formatCount(settings.budgetMs)} ms and was stopped.`,
          { hint: next, retryable: true },
        ),
      };
    }
    const code = (error as { code?: unknown } | null)?.code;
    const hint = (error as { hint?: unknown } | null)?.hint;
    const message = error instanceof Error ? error.message : String(error);
    if (isErrorCode(code) && code !== "INTERNAL") {
      return {
        ok: false,
        failure: fail(code, message, {
          hint: typeof hint === "string" && hint ? `${hint} Meanwhile: ${next}` : next,
          retryable: code === "TIMEOUT" || code === "NETWORK_ERROR",
        }),
      };
    }
    return {
      ok: false,
      failure: fail("UNSUPPORTED", `Could not render ${url}: ${message}.`, {
        hint: next,
        retryable: false,
      }),
    };
  } finally {
    clearTimeout(timer);
    settings.signal.removeEventListener("abort", onAbort);
  }
}

/**
 * The render budget of a call: the host's render limit, kept {@link RENDER_MARGIN_MS} inside
 * what is left of the tool's own time limit.
 *
 * @param renderTimeoutMs - the host's render limit
 * @param toolTimeoutMs - the tool's time limit (`0` = none)
 * @param startedAt - when the call started (ms)
 * @param now - the current time (ms)
 * @returns the budget in ms
 */
export function renderBudget(
  renderTimeoutMs: number,
  toolTimeoutMs: number,
  startedAt: number,
  now: number,
): number {
  if (toolTimeoutMs <= 0) return renderTimeoutMs;
  return Math.min(renderTimeoutMs, toolTimeoutMs - (now - startedAt) - RENDER_MARGIN_MS);
}
