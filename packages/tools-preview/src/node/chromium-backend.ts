import { raceSignal } from "@agentool/contract";
import type { BrowserContext, CDPSession, LaunchOptions, Page } from "playwright-core";
import { ARTIFACT_ORIGIN } from "../engine/inline-files.js";
import { WEBRTC_WALL_SOURCE } from "../engine/webrtc-wall.js";
import {
  type PreviewBackend,
  type PreviewBackendSession,
  type PreviewConsoleEntry,
  PreviewError,
  type PreviewOpenRequest,
} from "../preview-backend.js";
import { recordBlocked, routeArtifact } from "./artifact-routes.js";
import { ChromiumSession } from "./chromium-session.js";
import { leaseSharedBrowser, type SharedBrowserLease } from "./shared-browser.js";

/** Debian's Chromium, the default `executablePath`. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Flags every browser of this package is launched with (preview and `web_fetch` renderer):
 * headless, no GPU, no background traffic, every connection sent to a closed local port, every
 * host name unresolvable, and WebRTC kept from sending UDP outside that proxy (its STUN / TURN
 * traffic is not a request the per-context interception sees), so nothing can leave even if a
 * request slipped past the interception.
 */
export const CHROMIUM_NO_EGRESS_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/**
 * Flags of the preview's browser: {@link CHROMIUM_NO_EGRESS_ARGS} plus
 * `--disable-site-isolation-trials`. The artifact's document carries a `sandbox` CSP, and with
 * site isolation Chromium commits every such document in a second, freshly started renderer
 * process — twice the time of `goto` + `load` (measured 99 + 80 ms against 54 + 43 ms). Site
 * isolation has nothing to separate here: a preview context holds one document of one origin
 * with no network, and renderer processes are never shared between contexts (sessions). The
 * `web_fetch` renderer, which loads real sites, keeps site isolation.
 */
export const CHROMIUM_PREVIEW_ARGS: readonly string[] = [
  ...CHROMIUM_NO_EGRESS_ARGS,
  "--disable-site-isolation-trials",
];

/** Where the artifact's document is served from inside the browser (never resolved: `.invalid`). */
export { ARTIFACT_ORIGIN } from "../engine/inline-files.js";

/** Options of the Chromium backend. */
export interface ChromiumBackendOptions {
  /** The Chromium binary. Default {@link DEFAULT_CHROMIUM_PATH}. */
  executablePath?: string;
  /** Extra playwright-core launch options (their `args` are added to {@link CHROMIUM_PREVIEW_ARGS}). */
  launchOptions?: LaunchOptions;
}

const DISPOSED = {
  code: "NOT_CONFIGURED",
  message: "The preview backend was disposed.",
  hint: "The host must create the preview tool again.",
} as const;

/** The Node backend's state: the browser lease and the open sessions. */
class ChromiumBackend implements PreviewBackend {
  readonly kind = "chromium";
  readonly assetOrigin = ARTIFACT_ORIGIN;
  readonly #lease: SharedBrowserLease;
  readonly #open = new Set<PreviewBackendSession>();
  #released = false;

  constructor(lease: SharedBrowserLease) {
    this.#lease = lease;
  }

  unavailable() {
    return this.#released ? DISPOSED : undefined;
  }

  async open(request: PreviewOpenRequest): Promise<PreviewBackendSession> {
    const instance = await raceSignal(this.#lease.browser(), request.signal);
    const context: BrowserContext = await instance.newContext({
      viewport: request.viewport,
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    const documentUrl = `${ARTIFACT_ORIGIN}/${request.path.split("/").map(encodeURIComponent).join("/")}`;
    const blocked: PreviewConsoleEntry[] = [];
    let page: Page | undefined;
    let cdp: Promise<CDPSession>;
    try {
      // Ahead of every script of every frame of the context, child frames included.
      await context.addInitScript({ content: WEBRTC_WALL_SOURCE });
      await routeArtifact(context, request, documentUrl, () => page, blocked);
      page = await context.newPage();
      // Only needed to stop a runaway script; attached alongside the load rather than before it.
      cdp = context.newCDPSession(page);
      cdp.catch(() => {});
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
    page.on("crash", () => {
      recordBlocked(blocked, "the artifact's page crashed (out of memory?)");
    });
    const session: ChromiumSession = new ChromiumSession({
      context,
      page,
      cdp,
      documentUrl,
      viewport: request.viewport,
      blocked,
      onClose: () => this.#open.delete(session),
    });
    this.#open.add(session);
    if (this.#released) {
      await session.close();
      throw new PreviewError(DISPOSED.code, DISPOSED.message, DISPOSED.hint);
    }
    return session;
  }

  async dispose(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    await Promise.all([...this.#open].map((session) => session.close()));
    await this.#lease.release();
  }
}

/**
 * The Node backend: one headless Chromium shared by every session of every tool with the same
 * launch settings, one browser context per session; every request other than the artifact's own
 * document is aborted at the network layer, WebSockets are refused, service workers blocked,
 * WebRTC's constructors replaced by stubs that throw in every frame.
 *
 * @param options - executable and launch options
 * @returns the backend
 */
export function createChromiumBackend(options: ChromiumBackendOptions = {}): PreviewBackend {
  const executablePath = options.executablePath ?? DEFAULT_CHROMIUM_PATH;
  const launchOptions = options.launchOptions ?? {};
  const args = [...CHROMIUM_PREVIEW_ARGS, ...(launchOptions.args ?? [])];
  return new ChromiumBackend(leaseSharedBrowser({ executablePath, launchOptions, args }));
}
