import {
  errorMessage,
  formatCount,
  PROXIED_REQUEST_DROPPED_HEADERS,
  PROXIED_RESPONSE_DROPPED_HEADERS,
} from "@agentool/contract";
import type { Route } from "playwright-core";
import type { BrowserEvents } from "./browser-events.js";

/** One request the browser's transport sends (structurally `HttpRequest` of `@agentool/tools-web`). */
export interface BrowserHttpRequest {
  /** The absolute http(s) URL. */
  url: string;
  /** `GET` or `POST`. */
  method?: "GET" | "POST";
  /** Request headers. */
  headers?: Record<string, string>;
  /** A POST body. */
  body?: string;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Most body bytes to read. */
  maxBytes: number;
  /** `"manual"`: a redirect comes back as it came. */
  redirect?: "follow" | "manual";
}

/** What the transport answers (structurally `HttpResponse` of `@agentool/tools-web`). */
export interface BrowserHttpResponse {
  /** The HTTP status. */
  status: number;
  /** The final URL. */
  url: string;
  /** Response headers, lower case (`set-cookie` one per line). */
  headers: Record<string, string>;
  /** The decoded body. */
  body: Uint8Array;
  /** Whether the body was cut at `maxBytes`. */
  truncated: boolean;
}

/**
 * Every request of the browser goes through this: the SSRF-guarded transport of
 * `@agentool/tools-web/node` (`createGuardedTransport()`), which judges each resolved address at
 * connect time and each redirect hop. The browser itself has no network.
 */
export type BrowserTransport = (request: BrowserHttpRequest) => Promise<BrowserHttpResponse>;

/** What the network of one session may do. */
export interface BrowserNetworkSettings {
  transport: BrowserTransport;
  /** Only these origins (`https://example.com`); default any the guard allows. */
  allowOrigins: readonly string[] | undefined;
  /** Never these origins. */
  blockOrigins: readonly string[];
  /** Requests per navigation. */
  maxRequests: number;
  /** Bytes per navigation. */
  maxBytes: number;
  /** Bytes of one response. */
  maxResponseBytes: number;
  /** Redirect hops of one navigation. */
  maxRedirects: number;
  /** Headers the host sends to one origin only (web_fetch's `headers` shape), never elsewhere. */
  originHeaders: ReadonlyArray<{ origin: string; headers: Readonly<Record<string, string>> }>;
}

/** Why a tab's navigation was not loaded, and its error code. */
export interface PageRefusal {
  text: string;
  code: "BLOCKED" | "NETWORK_ERROR" | "TOO_LARGE" | "TIMEOUT";
}

/** Transport requests of one session at once: the rest wait (each may hold a response in memory). */
const MAX_REQUESTS_IN_FLIGHT = 6;

/** The code a failed request is reported with. */
function failureCode(error: unknown): PageRefusal["code"] {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "BLOCKED" || code === "TOO_LARGE" || code === "TIMEOUT") return code;
  if ((error as { name?: unknown } | null)?.name === "TimeoutError") return "TIMEOUT";
  return "NETWORK_ERROR";
}

/** Response headers not handed back: the shared list, and Alt-Svc (no other protocol exists here). */
const DROPPED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  ...PROXIED_RESPONSE_DROPPED_HEADERS,
  "alt-svc",
]);

/**
 * The network of one session: each request of its pages fetched through the guarded transport
 * (GET and POST only), origins filtered, requests and bytes counted per navigation. A redirect
 * of a page's navigation comes back to the browser as a page that replaces itself with the next
 * hop (so the address and the cookies of each hop are the browser's, and the next hop passes the
 * guard again); a subresource's redirects are followed by the transport.
 */
export class BrowserNetwork {
  readonly #settings: BrowserNetworkSettings;
  readonly #events: BrowserEvents;
  #requests = 0;
  #bytes = 0;
  #redirects = 0;
  #pageRefusal: PageRefusal | undefined;
  /** Transport requests in flight, and those waiting for a slot (memory stays bounded). */
  #inFlight = 0;
  /** Requests of the session's pages being answered, from interception to fulfilment. */
  #handling = 0;
  readonly #waiting: Array<() => void> = [];
  /** Tab navigations being answered, and redirect hops handed to the browser but not yet asked for. */
  #navigating = 0;
  #hopsAhead = 0;

  /**
   * @param settings - transport, origin lists and caps
   * @param events - where refusals are recorded
   */
  constructor(settings: BrowserNetworkSettings, events: BrowserEvents) {
    this.#settings = settings;
    this.#events = events;
  }

  /** Starts the budgets of a new navigation asked by the model. */
  newNavigation(): void {
    this.#requests = 0;
    this.#bytes = 0;
    this.#redirects = 0;
    this.#pageRefusal = undefined;
    this.#hopsAhead = 0;
  }

  /** Whether a tab's navigation is in flight or a redirect hop is still to come. */
  navigating(): boolean {
    return this.#navigating > 0 || this.#hopsAhead > 0;
  }

  /** Whether any request of the session's pages is being answered (a page still updating). */
  busy(): boolean {
    return this.#handling > 0;
  }

  /** Why the last navigation of a tab was refused, if it was (once). */
  takePageRefusal(): PageRefusal | undefined {
    const refusal = this.#pageRefusal;
    this.#pageRefusal = undefined;
    return refusal;
  }

  /**
   * Answers one intercepted request.
   *
   * @param route - the request
   * @param pageNavigation - whether it is the navigation of a tab's top frame
   */
  async handle(route: Route, pageNavigation: boolean): Promise<void> {
    this.#handling += 1;
    try {
      await this.#handle(route, pageNavigation);
    } finally {
      this.#handling -= 1;
    }
  }

  async #handle(route: Route, pageNavigation: boolean): Promise<void> {
    if (!pageNavigation) return this.#answer(route, false, route.request().isNavigationRequest());
    this.#navigating += 1;
    if (this.#hopsAhead > 0) this.#hopsAhead -= 1;
    try {
      await this.#answer(route, true, true);
    } finally {
      this.#navigating -= 1;
    }
  }

  /**
   * @param pageNavigation - a tab's top-frame navigation (refused with a page that says why)
   * @param navigation - any frame's navigation (its redirects go back to the browser hop by hop,
   *   so the document's origin is the last hop's)
   */
  async #answer(route: Route, pageNavigation: boolean, navigation: boolean): Promise<void> {
    const request = route.request();
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      await this.#refuse(route, pageNavigation, `an invalid URL was refused`);
      return;
    }
    const refusal = this.#refusal(url, request.method());
    if (refusal !== undefined) {
      await this.#refuse(route, pageNavigation, `${url.href.slice(0, 300)} refused: ${refusal}`);
      return;
    }
    this.#requests += 1;
    try {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(await request.allHeaders())) {
        if (!PROXIED_REQUEST_DROPPED_HEADERS.has(name) && !name.startsWith(":"))
          headers[name] = value;
      }
      const body = request.postData();
      const response = await this.#slot(() =>
        this.#send(url, headers, request.method(), body, navigation),
      );
      this.#bytes += response.body.byteLength;
      if (response.truncated) {
        await this.#refuse(
          route,
          pageNavigation,
          `${url.href.slice(0, 300)} was cut: it is larger than this navigation's ${formatCount(Math.min(this.#settings.maxResponseBytes, this.#settings.maxBytes))}-byte budget`,
          "TOO_LARGE",
        );
        return;
      }
      await this.#fulfill(route, url, response, pageNavigation, navigation);
    } catch (error) {
      await this.#refuse(
        route,
        pageNavigation,
        `${url.href.slice(0, 300)}: ${errorMessage(error)}`,
      );
    }
  }

  /** The host's headers for one origin (none for any other). */
  #hostHeaders(url: URL): Readonly<Record<string, string>> | undefined {
    return this.#settings.originHeaders.find((entry) => entry.origin === url.origin)?.headers;
  }

  /**
   * Sends one request through the transport. A navigation's redirect comes back as it came (the
   * browser follows it); a subresource's is followed by the transport — by hand, hop by hop,
   * when the host's headers ride on it, so they reach their own origin only.
   */
  async #send(
    url: URL,
    pageHeaders: Record<string, string>,
    method: string,
    body: string | null,
    navigation: boolean,
  ): Promise<BrowserHttpResponse> {
    const send = (target: URL, verb: "GET" | "POST", payload: string | null, manual: boolean) => {
      const host = this.#hostHeaders(target);
      return this.#settings.transport({
        url: target.href,
        method: verb,
        headers: host === undefined ? pageHeaders : { ...pageHeaders, ...host },
        ...(payload === null || verb !== "POST" ? {} : { body: payload }),
        maxBytes: Math.min(this.#settings.maxResponseBytes, this.#settings.maxBytes - this.#bytes),
        redirect: manual ? "manual" : "follow",
        signal: AbortSignal.timeout(30_000),
      });
    };
    const verb = method === "POST" ? "POST" : "GET";
    if (navigation) return send(url, verb, body, true);
    // A subresource's redirects are followed here, each hop checked against the origin lists
    // and budgets (the transport checks its address), the host's headers to their origin only.
    let target = url;
    let response = await send(target, verb, body, true);
    for (let hop = 0; hop < this.#settings.maxRedirects; hop += 1) {
      const location = response.headers.location;
      if (response.status < 300 || response.status >= 400 || location === undefined)
        return response;
      target = new URL(location, target);
      const refusal = this.#refusal(target, "GET");
      if (refusal !== undefined)
        throw new Error(`a redirect to ${target.href.slice(0, 300)} refused: ${refusal}`);
      response = await send(target, "GET", null, true);
    }
    throw new Error(`stopped after ${this.#settings.maxRedirects} redirects`);
  }

  /** Runs one transport request when a slot is free (at most {@link MAX_REQUESTS_IN_FLIGHT}). */
  async #slot<T>(work: () => Promise<T>): Promise<T> {
    while (this.#inFlight >= MAX_REQUESTS_IN_FLIGHT)
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#inFlight += 1;
    try {
      return await work();
    } finally {
      this.#inFlight -= 1;
      this.#waiting.shift()?.();
    }
  }

  /** Why a request may not be sent, or `undefined`. */
  #refusal(url: URL, method: string): string | undefined {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return `only http(s) is fetched, not ${url.protocol}`;
    if (method !== "GET" && method !== "POST")
      return `${method} requests are not sent (GET and POST only)`;
    const { allowOrigins, blockOrigins } = this.#settings;
    if (blockOrigins.includes(url.origin)) return `${url.origin} is blocked by the host`;
    if (allowOrigins !== undefined && !allowOrigins.includes(url.origin))
      return `${url.origin} is not among the origins the host allows`;
    if (this.#requests >= this.#settings.maxRequests)
      return `this navigation made ${formatCount(this.#settings.maxRequests)} requests already`;
    if (this.#bytes >= this.#settings.maxBytes)
      return `this navigation read ${formatCount(this.#settings.maxBytes)} bytes already`;
    return undefined;
  }

  async #fulfill(
    route: Route,
    url: URL,
    response: BrowserHttpResponse,
    pageNavigation: boolean,
    navigation: boolean,
  ): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers))
      if (!DROPPED_RESPONSE_HEADERS.has(name)) headers[name] = value;
    const location = response.headers.location;
    if (navigation && response.status >= 300 && response.status < 400 && location) {
      this.#redirects += 1;
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        await this.#refuse(route, pageNavigation, `${url.href} redirected to an invalid address`);
        return;
      }
      // The next hop is judged before the browser is sent there (a javascript: or data: hop, or an
      // origin refused, would never come back as a routed request).
      const hopRefusal = this.#refusal(next, "GET");
      if (hopRefusal !== undefined) {
        await this.#refuse(
          route,
          pageNavigation,
          `${url.href.slice(0, 300)} redirected to ${next.href.slice(0, 300)}: ${hopRefusal}`,
        );
        return;
      }
      if (this.#redirects > this.#settings.maxRedirects) {
        await this.#refuse(
          route,
          true,
          `stopped after ${this.#settings.maxRedirects} redirects (at ${next.href.slice(0, 300)})`,
        );
        return;
      }
      // The browser follows the hop itself as a new navigation (routed, guarded, with its cookies).
      const cookies = headers["set-cookie"];
      if (pageNavigation) this.#hopsAhead += 1;
      await route
        .fulfill({
          status: 200,
          headers: {
            "content-type": "text/html; charset=utf-8",
            "cache-control": "no-store",
            ...(cookies === undefined ? {} : { "set-cookie": cookies }),
          },
          body: `<!doctype html><meta name="robots" content="noindex"><script>location.replace(${JSON.stringify(next.href).replace(/</g, "\\u003c")})</script>`,
        })
        .catch(() => {});
      return;
    }
    await route
      .fulfill({ status: response.status, headers, body: Buffer.from(response.body) })
      .catch(() => {});
  }

  async #refuse(
    route: Route,
    pageNavigation: boolean,
    text: string,
    code: PageRefusal["code"] = "BLOCKED",
  ): Promise<void> {
    this.#events.record(code === "BLOCKED" ? "blocked" : "failed", text);
    if (pageNavigation) {
      this.#pageRefusal = { text, code };
      await route
        .fulfill({
          status: 502,
          headers: { "content-type": "text/plain; charset=utf-8" },
          body: `agentool browser: ${text}`,
        })
        .catch(() => {});
      return;
    }
    await route.abort("blockedbyclient").catch(() => {});
  }
}
