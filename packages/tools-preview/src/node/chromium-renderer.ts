import { parseOptions } from "@agentool/contract";
import type { BrowserContext, LaunchOptions, Page, Route } from "playwright-core";
import { z } from "zod";
import { PreviewError, raceSignal } from "../preview-backend.js";
import { CHROMIUM_NO_EGRESS_ARGS, DEFAULT_CHROMIUM_PATH } from "./chromium-backend.js";
import { leaseSharedBrowser } from "./shared-browser.js";

// Structural copies of `@agentool/tools-web`'s renderer seam: no runtime dependency either way.

/** One request the renderer asks web_fetch's guarded fetch for (structurally `GuardedFetchRequest` of `@agentool/tools-web`). */
export interface RendererFetchRequest {
  /** The absolute URL. */
  url: string;
  /** The method (web_fetch sends GET and POST only). */
  method?: string;
  /** The page's request headers. */
  headers?: Record<string, string>;
  /** The request body, as text. */
  body?: string;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** What the guarded fetch answers (structurally `GuardedFetchResponse` of `@agentool/tools-web`). */
export interface RendererFetchResponse {
  /** The URL after redirects. */
  url: string;
  /** The HTTP status. */
  status: number;
  /** The status text. */
  statusText?: string;
  /** Response headers (lower case), for a decoded body. */
  headers: Record<string, string>;
  /** The decoded body. */
  body: Uint8Array;
}

/** What web_fetch hands a renderer (structurally `PageRenderContext` of `@agentool/tools-web`). */
export interface RendererContext {
  /** Every request of the page is fulfilled through this; the renderer has no network of its own. */
  fetch: (request: RendererFetchRequest) => Promise<RendererFetchResponse>;
  /** The page, already fetched and checked by web_fetch: the first navigation is served from it. */
  document?: RendererFetchResponse;
}

/** A renderer's result: the serialized DOM and the page's URL at the end. */
export interface ChromiumRenderedPage {
  /** `page.content()` after the page's scripts ran. */
  html: string;
  /** The page's URL at the end. */
  url: string;
}

/** The `render` function of {@link createChromiumRenderer}: pass it as web_fetch's `render` option. */
export type ChromiumRenderFunction = (
  url: string,
  signal: AbortSignal,
  context: RendererContext,
) => Promise<ChromiumRenderedPage>;

/** What {@link createChromiumRenderer} returns. */
export interface ChromiumRenderer {
  /** Renders one page; every request goes through `context.fetch`. */
  render: ChromiumRenderFunction;
  /** Closes the renders in flight and gives the shared browser back (it closes with its last user). */
  dispose(): Promise<void>;
}

/** Resource types aborted without any request by default: text does not need them. */
export const DEFAULT_RENDER_BLOCKED_RESOURCE_TYPES: readonly string[] = [
  "image",
  "media",
  "font",
  "texttrack",
  "eventsource",
  "manifest",
];

/** Default hard budget of one render: 15 s. */
export const DEFAULT_RENDER_BUDGET_MS = 15_000;

/** Default quiet window (no request in flight) after the load event before the DOM is taken: 500 ms. */
export const DEFAULT_RENDER_IDLE_MS = 500;

/** Default longest wait for that quiet window after the load event: 3 s. */
export const DEFAULT_RENDER_SETTLE_MS = 3_000;

/**
 * Flags added to {@link CHROMIUM_NO_EGRESS_ARGS} for rendering: WebRTC may not send UDP outside a proxy (there is
 * none that answers), so no peer connection reaches any address.
 */
export const CHROMIUM_RENDER_ARGS: readonly string[] = [
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** Options of {@link createChromiumRenderer}. */
export interface ChromiumRendererOptions {
  /** The Chromium binary. Default `/usr/bin/chromium`. */
  executablePath?: string;
  /** Extra playwright-core launch options (their `args` are added to the hardened flags). */
  launchOptions?: LaunchOptions;
  /** Hard budget of one render, ms (web_fetch also stops it inside its own time limit). Default {@link DEFAULT_RENDER_BUDGET_MS}. */
  timeoutMs?: number;
  /** Quiet window after load before the DOM is taken, ms. Default {@link DEFAULT_RENDER_IDLE_MS}. */
  idleMs?: number;
  /** Longest wait for the quiet window after load, ms. Default {@link DEFAULT_RENDER_SETTLE_MS}. */
  settleMs?: number;
  /** Resource types aborted without a request. Default {@link DEFAULT_RENDER_BLOCKED_RESOURCE_TYPES}; `[]` fetches everything through the guard. */
  blockResourceTypes?: readonly string[];
  /** The viewport. Default 1280 × 800. */
  viewport?: { width: number; height: number };
}

const optionsSchema = z
  .object({
    executablePath: z.string().min(1).optional(),
    launchOptions: z.record(z.string(), z.unknown()).optional(),
    timeoutMs: z.number().int().min(500).max(600_000).optional(),
    idleMs: z.number().int().min(0).max(60_000).optional(),
    settleMs: z.number().int().min(0).max(600_000).optional(),
    blockResourceTypes: z.array(z.string()).readonly().optional(),
    viewport: z
      .strictObject({
        width: z.number().int().min(100).max(4_000),
        height: z.number().int().min(100).max(4_000),
      })
      .optional(),
  })
  .strict();

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

function settle<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([
    promise.catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref?.()),
  ]);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)).replace(
    /^\w+\.\w+: /,
    "",
  );
}

/**
 * A page renderer for web_fetch's `render` option: each page opens in a fresh context of the
 * headless Chromium shared with the preview tool (same hardened flags: Chromium's own network
 * goes to a closed port, every host name fails to resolve). `context.route("**\/*")` fulfils
 * **every** request — the document, scripts, styles, XHR / fetch, frames, navigations — by
 * calling the guarded fetch web_fetch passes, so its address policy, caps and signal apply to
 * each; WebSockets are closed, service workers, downloads and popups blocked, images, media and
 * fonts aborted without a request (by default). The DOM is taken after the load event and a
 * quiet window (no request in flight), within a hard budget; a page that never loads fully is
 * taken as it is at the budget, one that never gets its DOM fails with `TIMEOUT`.
 *
 * @param options - executable, launch options, budget, quiet window, blocked resource types
 * @returns `{ render, dispose }`
 * @throws AgentoolError for invalid options
 * @example
 * const renderer = createChromiumRenderer();
 * const webFetch = createNodeWebFetchTool({ render: renderer.render });
 * await webFetch.run({ url: "https://example.com/app", render: true });
 * await renderer.dispose();
 */
export function createChromiumRenderer(options: ChromiumRendererOptions = {}): ChromiumRenderer {
  const parsed = parseOptions("createChromiumRenderer", optionsSchema, options);
  const executablePath = parsed.executablePath ?? DEFAULT_CHROMIUM_PATH;
  const launchOptions = (parsed.launchOptions ?? {}) as LaunchOptions;
  const args = [...CHROMIUM_NO_EGRESS_ARGS, ...CHROMIUM_RENDER_ARGS, ...(launchOptions.args ?? [])];
  const budgetMs = parsed.timeoutMs ?? DEFAULT_RENDER_BUDGET_MS;
  const idleMs = parsed.idleMs ?? DEFAULT_RENDER_IDLE_MS;
  const settleMs = parsed.settleMs ?? DEFAULT_RENDER_SETTLE_MS;
  const blockedTypes = new Set(parsed.blockResourceTypes ?? DEFAULT_RENDER_BLOCKED_RESOURCE_TYPES);
  const viewport = parsed.viewport ?? { width: 1280, height: 800 };
  let lease: ReturnType<typeof leaseSharedBrowser> | undefined;
  let released = false;
  const contexts = new Set<BrowserContext>();

  function disposed(): PreviewError {
    return new PreviewError(
      "NOT_CONFIGURED",
      "The Chromium renderer was disposed.",
      "The host must create the renderer again.",
    );
  }

  async function render(
    url: string,
    signal: AbortSignal,
    renderContext: RendererContext,
  ): Promise<ChromiumRenderedPage> {
    if (released) throw disposed();
    if (typeof renderContext?.fetch !== "function") {
      // Fail closed: without web_fetch's guarded fetch there is no network at all.
      throw new PreviewError(
        "NOT_CONFIGURED",
        "The Chromium renderer needs web_fetch's guarded fetch as its third argument; it never uses Chromium's own network.",
        "Pass renderer.render as the render option of web_fetch.",
      );
    }
    const deadline = Date.now() + budgetMs;
    const left = () => Math.max(0, deadline - Date.now());
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(
      () =>
        controller.abort(
          new PreviewError("TIMEOUT", `Rendering ${url} took longer than ${budgetMs} ms.`),
        ),
      budgetMs,
    );
    const stop = controller.signal;
    lease ??= leaseSharedBrowser({ executablePath, launchOptions, args });
    let context: BrowserContext | undefined;
    try {
      const browser = await raceSignal(lease.browser(), stop);
      if (released) throw disposed();
      context = await raceSignal(
        browser.newContext({
          viewport,
          serviceWorkers: "block",
          acceptDownloads: false,
          javaScriptEnabled: true,
        }),
        stop,
      );
      contexts.add(context);
      const theContext = context;
      let page: Page | undefined;
      let documentServed = false;
      let pageNavigations = 0;
      let inFlight = 0;
      let lastActivity = Date.now();
      const handle = async (route: Route) => {
        const request = route.request();
        // A popup's (window.open) first navigation has no frame yet: request.frame() throws.
        const ownNavigation = isMainFrameNavigation(request, page);
        if (ownNavigation) pageNavigations += 1;
        const laterNavigation = ownNavigation && pageNavigations > 1;
        if (stop.aborted) {
          await route.abort("aborted").catch(() => {});
          return;
        }
        if (blockedTypes.has(request.resourceType())) {
          await route.abort("blockedbyclient").catch(() => {});
          return;
        }
        const document = renderContext.document;
        if (
          !documentServed &&
          document !== undefined &&
          ownNavigation &&
          request.url().split("#")[0] === url.split("#")[0]
        ) {
          documentServed = true;
          await route
            .fulfill({
              status: document.status,
              headers: { ...document.headers, "cache-control": "no-store" },
              body: Buffer.from(document.body),
            })
            .catch(() => {});
          return;
        }
        inFlight += 1;
        lastActivity = Date.now();
        try {
          const postData = request.postData();
          const response = await renderContext.fetch({
            url: request.url(),
            method: request.method(),
            headers: request.headers(),
            ...(postData === null ? {} : { body: postData }),
            signal: stop,
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
          inFlight -= 1;
          lastActivity = Date.now();
        }
      };
      await raceSignal(
        Promise.all([
          theContext.route("**/*", handle),
          theContext.routeWebSocket(/.*/, (socket) => {
            void socket
              .close({ code: 1008, reason: "no WebSockets while rendering" })
              .catch(() => {});
          }),
        ]),
        stop,
      );
      theContext.on("page", (popup) => {
        if (page !== undefined && popup !== page) void popup.close().catch(() => {});
      });
      page = await raceSignal(theContext.newPage(), stop);
      const thePage = page;
      try {
        await raceSignal(
          // "commit", not "domcontentloaded": a page that navigates itself early (a form
          // submitted from a timer, answered 204) leaves a goto waiting for its DOM event
          // hanging; the load state below is awaited without failing instead.
          thePage.goto(url, { waitUntil: "commit", timeout: left() + 1_000 }),
          stop,
        );
      } catch (error) {
        if (stop.aborted) throw stop.reason ?? error;
        throw new PreviewError(
          "NETWORK_ERROR",
          `Chromium could not open ${url}: ${firstLine(error)}`,
          "The page or a redirect of it was refused or failed.",
        );
      }
      // The load event, then a quiet window; past the budget, the DOM is taken as it is.
      await settle(
        raceSignal(thePage.waitForLoadState("load", { timeout: left() + 1_000 }), stop),
        Math.max(0, left() - 300),
      );
      // The quiet window starts at the load event at the earliest: on a loaded machine the
      // page's own requests (a script's fetch) can reach the route handler well after the
      // document itself was served, and a window counted from that would close before them.
      lastActivity = Math.max(lastActivity, Date.now());
      const quietBy = Math.min(deadline - 300, Date.now() + settleMs);
      while (Date.now() < quietBy && !stop.aborted) {
        if (inFlight === 0 && Date.now() - lastActivity >= idleMs) break;
        await sleep(50);
      }
      if (stop.aborted) throw stop.reason;
      const html = await raceSignal(thePage.content(), stop);
      return { html, url: thePage.url() };
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      if (stop.aborted) {
        throw new PreviewError(
          "TIMEOUT",
          `Rendering ${url} did not finish within ${budgetMs} ms (the page's scripts may never yield).`,
          "Read the page without rendering, or use another source.",
        );
      }
      if (PreviewError.isInstance(error)) throw error;
      throw new PreviewError("UNSUPPORTED", `Rendering ${url} failed: ${firstLine(error)}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (context !== undefined) {
        const closing = context;
        contexts.delete(closing);
        // Closed in the background: the answer does not wait for a busy page to go.
        void settle(closing.close(), 5_000);
      }
    }
  }

  return {
    render,
    async dispose() {
      if (released) return;
      released = true;
      await Promise.all([...contexts].map((context) => settle(context.close(), 5_000)));
      contexts.clear();
      await lease?.release();
    },
  };
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
