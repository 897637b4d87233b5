import { parseOptions } from "@agentool/contract";
import type { BrowserContext, LaunchOptions } from "playwright-core";
import { z } from "zod";
import { PreviewError } from "../preview-backend.js";
import { CHROMIUM_NO_EGRESS_ARGS, DEFAULT_CHROMIUM_PATH } from "./chromium-backend.js";
import { settle } from "./internal/settle.js";
import { PageRender, type PageRenderSettings } from "./page-render.js";
import { leaseSharedBrowser, type SharedBrowserLease } from "./shared-browser.js";

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
 * The WebRTC flags: WebRTC may not send UDP outside a proxy (there is none that answers), so no
 * peer connection reaches any address. They are now part of {@link CHROMIUM_NO_EGRESS_ARGS}
 * (preview and renderer alike).
 *
 * @deprecated Included in {@link CHROMIUM_NO_EGRESS_ARGS}; kept for hosts that add it themselves.
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
  const launchOptions = (parsed.launchOptions ?? {}) as LaunchOptions;
  const renderer = new ChromiumPageRenderer(
    {
      executablePath: parsed.executablePath ?? DEFAULT_CHROMIUM_PATH,
      launchOptions,
      args: [...CHROMIUM_NO_EGRESS_ARGS, ...(launchOptions.args ?? [])],
    },
    {
      budgetMs: parsed.timeoutMs ?? DEFAULT_RENDER_BUDGET_MS,
      idleMs: parsed.idleMs ?? DEFAULT_RENDER_IDLE_MS,
      settleMs: parsed.settleMs ?? DEFAULT_RENDER_SETTLE_MS,
      blockedTypes: new Set(parsed.blockResourceTypes ?? DEFAULT_RENDER_BLOCKED_RESOURCE_TYPES),
      viewport: parsed.viewport ?? { width: 1280, height: 800 },
    },
  );
  return {
    render: (url, signal, renderContext) => renderer.render(url, signal, renderContext),
    dispose: () => renderer.dispose(),
  };
}

/** The renderer's state: the browser lease (taken at the first render) and the renders in flight. */
class ChromiumPageRenderer {
  readonly #contexts = new Set<BrowserContext>();
  #lease: SharedBrowserLease | undefined;
  #released = false;

  constructor(
    readonly browserSettings: Parameters<typeof leaseSharedBrowser>[0],
    readonly settings: PageRenderSettings,
  ) {}

  async render(
    url: string,
    signal: AbortSignal,
    renderContext: RendererContext,
  ): Promise<ChromiumRenderedPage> {
    if (this.#released) throw this.#disposed();
    if (typeof renderContext?.fetch !== "function") {
      // Fail closed: without web_fetch's guarded fetch there is no network at all.
      throw new PreviewError(
        "NOT_CONFIGURED",
        "The Chromium renderer needs web_fetch's guarded fetch as its third argument; it never uses Chromium's own network.",
        "Pass renderer.render as the render option of web_fetch.",
      );
    }
    const job = new PageRender(url, renderContext, this.settings);
    this.#lease ??= leaseSharedBrowser(this.browserSettings);
    return job.run(
      {
        lease: this.#lease,
        released: () => this.#released,
        disposedError: () => this.#disposed(),
        contexts: this.#contexts,
      },
      signal,
    );
  }

  async dispose(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    await Promise.all([...this.#contexts].map((context) => settle(context.close(), 5_000)));
    this.#contexts.clear();
    await this.#lease?.release();
  }

  #disposed(): PreviewError {
    return new PreviewError(
      "NOT_CONFIGURED",
      "The Chromium renderer was disposed.",
      "The host must create the renderer again.",
    );
  }
}
