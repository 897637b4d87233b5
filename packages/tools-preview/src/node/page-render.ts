import { raceSignal, sleep } from "@agentool/contract";
import type { BrowserContext, Page, Route } from "playwright-core";
import { PreviewError } from "../preview-backend.js";
import type { ChromiumRenderedPage, RendererContext } from "./chromium-renderer.js";
import { firstLine } from "./internal/first-line.js";
import { settle } from "./internal/settle.js";
import type { SharedBrowserLease } from "./shared-browser.js";

/** The renderer's settings, defaults filled in. */
export interface PageRenderSettings {
  /** Hard budget of one render, ms. */
  budgetMs: number;
  /** Quiet window after load, ms. */
  idleMs: number;
  /** Longest wait for the quiet window, ms. */
  settleMs: number;
  /** Resource types aborted without a request. */
  blockedTypes: ReadonlySet<string>;
  /** The viewport. */
  viewport: { width: number; height: number };
}

/** What a render needs from its renderer: the browser, and where its context is tracked. */
export interface PageRenderHost {
  /** The shared browser's lease. */
  lease: SharedBrowserLease;
  /** Whether the renderer was disposed. */
  released(): boolean;
  /** The error a render of a disposed renderer throws. */
  disposedError(): PreviewError;
  /** The contexts in flight (closed by `dispose`). */
  contexts: Set<BrowserContext>;
}

/** Whether `request` navigates the rendered page's own main frame (false for popups and frames). */
function isMainFrameNavigation(request: ReturnType<Route["request"]>, page: Page | undefined) {
  if (page === undefined || !request.isNavigationRequest()) return false;
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false;
  }
}

/**
 * One render: a fresh context whose every request goes through web_fetch's guarded fetch, the
 * page loaded, a quiet window, the DOM taken — within the budget, whatever the page does.
 */
export class PageRender {
  readonly #controller = new AbortController();
  readonly #deadline: number;
  #page: Page | undefined;
  #documentServed = false;
  #pageNavigations = 0;
  #inFlight = 0;
  #lastActivity = Date.now();

  /**
   * @param url - the page
   * @param renderContext - web_fetch's guarded fetch and the already fetched document
   * @param settings - budget, quiet window, blocked types, viewport
   */
  constructor(
    readonly url: string,
    readonly renderContext: RendererContext,
    readonly settings: PageRenderSettings,
  ) {
    this.#deadline = Date.now() + settings.budgetMs;
  }

  /** Aborted by the caller's signal or at the budget. */
  get stop(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Renders the page.
   *
   * @param host - the renderer
   * @param signal - the caller's signal
   * @returns the serialized DOM and the final URL
   */
  async run(host: PageRenderHost, signal: AbortSignal): Promise<ChromiumRenderedPage> {
    const { budgetMs } = this.settings;
    const onAbort = () => this.#controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(
      () =>
        this.#controller.abort(
          new PreviewError("TIMEOUT", `Rendering ${this.url} took longer than ${budgetMs} ms.`),
        ),
      budgetMs,
    );
    let context: BrowserContext | undefined;
    try {
      const browser = await raceSignal(host.lease.browser(), this.stop);
      if (host.released()) throw host.disposedError();
      context = await raceSignal(
        browser.newContext({
          viewport: this.settings.viewport,
          serviceWorkers: "block",
          acceptDownloads: false,
          javaScriptEnabled: true,
        }),
        this.stop,
      );
      host.contexts.add(context);
      return await this.#renderIn(context);
    } catch (error) {
      throw this.#failure(error, signal);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (context !== undefined) {
        host.contexts.delete(context);
        // Closed in the background: the answer does not wait for a busy page to go.
        void settle(context.close(), 5_000);
      }
    }
  }

  #left(): number {
    return Math.max(0, this.#deadline - Date.now());
  }

  async #renderIn(context: BrowserContext): Promise<ChromiumRenderedPage> {
    await raceSignal(
      Promise.all([
        context.route("**/*", (route) => this.#handle(route)),
        context.routeWebSocket(/.*/, (socket) => {
          void socket
            .close({ code: 1008, reason: "no WebSockets while rendering" })
            .catch(() => {});
        }),
      ]),
      this.stop,
    );
    context.on("page", (popup) => {
      if (this.#page !== undefined && popup !== this.#page) void popup.close().catch(() => {});
    });
    const page = await raceSignal(context.newPage(), this.stop);
    this.#page = page;
    await this.#navigate(page);
    await this.#waitForQuiet(page);
    if (this.stop.aborted) throw this.stop.reason;
    const html = await raceSignal(page.content(), this.stop);
    return { html, url: page.url() };
  }

  async #navigate(page: Page): Promise<void> {
    try {
      await raceSignal(
        // "commit", not "domcontentloaded": a page that navigates itself early (a form
        // submitted from a timer, answered 204) leaves a goto waiting for its DOM event
        // hanging; the load state below is awaited without failing instead.
        page.goto(this.url, { waitUntil: "commit", timeout: this.#left() + 1_000 }),
        this.stop,
      );
    } catch (error) {
      if (this.stop.aborted) throw this.stop.reason ?? error;
      throw new PreviewError(
        "NETWORK_ERROR",
        `Chromium could not open ${this.url}: ${firstLine(error)}`,
        "The page or a redirect of it was refused or failed.",
      );
    }
  }

  /** The load event, then a quiet window; past the budget, the DOM is taken as it is. */
  async #waitForQuiet(page: Page): Promise<void> {
    await settle(
      raceSignal(page.waitForLoadState("load", { timeout: this.#left() + 1_000 }), this.stop),
      Math.max(0, this.#left() - 300),
    );
    // The quiet window starts at the load event at the earliest: on a loaded machine the
    // page's own requests (a script's fetch) can reach the route handler well after the
    // document itself was served, and a window counted from that would close before them.
    this.#lastActivity = Math.max(this.#lastActivity, Date.now());
    const quietBy = Math.min(this.#deadline - 300, Date.now() + this.settings.settleMs);
    while (Date.now() < quietBy && !this.stop.aborted) {
      if (this.#inFlight === 0 && Date.now() - this.#lastActivity >= this.settings.idleMs) break;
      await sleep(50);
    }
  }

  /** Every request of the page: served from the fetched document or the guarded fetch, or refused. */
  async #handle(route: Route): Promise<void> {
    const request = route.request();
    // A popup's (window.open) first navigation has no frame yet: request.frame() throws.
    const ownNavigation = isMainFrameNavigation(request, this.#page);
    if (ownNavigation) this.#pageNavigations += 1;
    const laterNavigation = ownNavigation && this.#pageNavigations > 1;
    if (this.stop.aborted) {
      await route.abort("aborted").catch(() => {});
      return;
    }
    if (this.settings.blockedTypes.has(request.resourceType())) {
      await route.abort("blockedbyclient").catch(() => {});
      return;
    }
    const document = this.renderContext.document;
    if (
      !this.#documentServed &&
      document !== undefined &&
      ownNavigation &&
      request.url().split("#")[0] === this.url.split("#")[0]
    ) {
      this.#documentServed = true;
      await route
        .fulfill({
          status: document.status,
          headers: { ...document.headers, "cache-control": "no-store" },
          body: Buffer.from(document.body),
        })
        .catch(() => {});
      return;
    }
    await this.#fetchThroughGuard(route, laterNavigation);
  }

  async #fetchThroughGuard(route: Route, laterNavigation: boolean): Promise<void> {
    const request = route.request();
    this.#inFlight += 1;
    this.#lastActivity = Date.now();
    try {
      const postData = request.postData();
      const response = await this.renderContext.fetch({
        url: request.url(),
        method: request.method(),
        headers: request.headers(),
        ...(postData === null ? {} : { body: postData }),
        signal: this.stop,
      });
      await route.fulfill({
        status: response.status,
        headers: response.headers,
        body: Buffer.from(response.body),
      });
    } catch {
      // Refused by the guard (BLOCKED, TOO_LARGE…) or failed: the page sees a network error;
      // a refused navigation of the page itself is answered 204, so the page stays loaded.
      if (laterNavigation) await route.fulfill({ status: 204, body: "" }).catch(() => {});
      else await route.abort("blockedbyclient").catch(() => {});
    } finally {
      this.#inFlight -= 1;
      this.#lastActivity = Date.now();
    }
  }

  #failure(error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted) return signal.reason ?? error;
    if (this.stop.aborted)
      return new PreviewError(
        "TIMEOUT",
        `Rendering ${this.url} did not finish within ${this.settings.budgetMs} ms (the page's scripts may never yield).`,
        "Read the page without rendering, or use another source.",
      );
    if (PreviewError.isInstance(error)) return error;
    return new PreviewError("UNSUPPORTED", `Rendering ${this.url} failed: ${firstLine(error)}`);
  }
}
