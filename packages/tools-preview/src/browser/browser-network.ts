import { errorMessage, formatCount } from "@agentool/contract";
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
}

const DROPPED_REQUEST_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "accept-encoding",
  "proxy-authorization",
  "proxy-connection",
]);

const DROPPED_RESPONSE_HEADERS = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
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
  #pageRefusal: string | undefined;
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

  /** Why the last navigation of a tab was refused, if it was (once). */
  takePageRefusal(): string | undefined {
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
    if (!pageNavigation) return this.#answer(route, false);
    this.#navigating += 1;
    if (this.#hopsAhead > 0) this.#hopsAhead -= 1;
    try {
      await this.#answer(route, true);
    } finally {
      this.#navigating -= 1;
    }
  }

  async #answer(route: Route, pageNavigation: boolean): Promise<void> {
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
        if (!DROPPED_REQUEST_HEADERS.has(name) && !name.startsWith(":")) headers[name] = value;
      }
      const body = request.postData();
      const response = await this.#settings.transport({
        url: url.href,
        method: request.method() === "POST" ? "POST" : "GET",
        headers,
        ...(body === null || request.method() !== "POST" ? {} : { body }),
        maxBytes: Math.min(this.#settings.maxResponseBytes, this.#settings.maxBytes - this.#bytes),
        redirect: pageNavigation ? "manual" : "follow",
        signal: AbortSignal.timeout(30_000),
      });
      this.#bytes += response.body.byteLength;
      if (response.truncated) {
        await this.#refuse(
          route,
          pageNavigation,
          `${url.href.slice(0, 300)} was cut: it is larger than this navigation's ${formatCount(Math.min(this.#settings.maxResponseBytes, this.#settings.maxBytes))}-byte budget`,
        );
        return;
      }
      await this.#fulfill(route, url, response, pageNavigation);
    } catch (error) {
      await this.#refuse(
        route,
        pageNavigation,
        `${url.href.slice(0, 300)}: ${errorMessage(error)}`,
      );
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
  ): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers))
      if (!DROPPED_RESPONSE_HEADERS.has(name)) headers[name] = value;
    const location = response.headers.location;
    if (pageNavigation && response.status >= 300 && response.status < 400 && location) {
      this.#redirects += 1;
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        await this.#refuse(route, true, `${url.href} redirected to an invalid address`);
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
      this.#hopsAhead += 1;
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

  async #refuse(route: Route, pageNavigation: boolean, text: string): Promise<void> {
    this.#events.record("blocked", text);
    if (pageNavigation) {
      this.#pageRefusal = text;
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
