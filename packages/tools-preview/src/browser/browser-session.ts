import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { WEBRTC_WALL_SOURCE } from "../engine/webrtc-wall.js";
import { settle } from "../node/internal/settle.js";
import { PreviewError } from "../preview-backend.js";
import { BrowserEvents } from "./browser-events.js";
import { BrowserNetwork, type BrowserNetworkSettings } from "./browser-network.js";

/** Most tabs of one session (a popup past it is closed, and said). */
export const MAX_BROWSER_TABS = 8;

/** Most dialogs answered per call before the rest are only counted. */
const MAX_DIALOG_EVENTS = 5;

/** What a session needs to start. */
export interface BrowserSessionSettings {
  network: BrowserNetworkSettings;
  viewport: { width: number; height: number };
}

/**
 * One conversation's browser: its own context (cookies and storage live as long as the session
 * and are never shared), its tabs (popups become tabs), every request through the guarded
 * network, dialogs dismissed (and said), downloads refused, service workers blocked, WebRTC's
 * constructors stubbed.
 */
export class BrowserSession {
  readonly events = new BrowserEvents();
  readonly network: BrowserNetwork;
  readonly tabs: Page[] = [];
  /** Each tab's last snapshot lines (for `changes`). */
  readonly snapshots = new WeakMap<Page, string[]>();
  current = 0;
  lastUsed = Date.now();
  #context: BrowserContext | undefined;
  /** Each tab's CDP session, attached when the tab opens (a hung page cannot be attached to later). */
  readonly #cdp = new WeakMap<Page, Promise<CDPSession>>();
  #dialogs = 0;

  /** @param settings - network and viewport */
  constructor(readonly settings: BrowserSessionSettings) {
    this.network = new BrowserNetwork(settings.network, this.events);
  }

  /**
   * Opens the session's context in `browser` with its first tab.
   *
   * @param browser - the shared browser
   */
  async start(browser: Browser): Promise<void> {
    const context = await browser.newContext({
      viewport: this.settings.viewport,
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    this.#context = context;
    await context.addInitScript({ content: WEBRTC_WALL_SOURCE });
    await context.route("**/*", (route) => {
      const request = route.request();
      let pageNavigation = false;
      try {
        pageNavigation = request.isNavigationRequest() && request.frame().parentFrame() === null;
      } catch {
        // A popup's first navigation has no frame yet: it is a tab's navigation.
        pageNavigation = request.isNavigationRequest();
      }
      return this.network.handle(route, pageNavigation);
    });
    await context.routeWebSocket(/.*/, (socket) => {
      this.events.record(
        "blocked",
        `WebSocket ${socket.url().slice(0, 300)} refused: the browser tool does not open WebSockets`,
      );
      void socket.close({ code: 1008, reason: "refused" }).catch(() => {});
    });
    context.on("page", (page) => this.#adopt(page));
    const first = await context.newPage();
    if (!this.tabs.includes(first)) this.#adopt(first);
  }

  /** The current tab, or a new one when every tab was closed (a page may close itself). */
  async openPage(): Promise<Page> {
    const current = this.tabs[this.current];
    if (current !== undefined && !current.isClosed()) return current;
    const open = this.tabs.findIndex((tab) => !tab.isClosed());
    if (open !== -1) {
      this.current = open;
      return this.tabs[open] as Page;
    }
    const context = this.#context;
    if (context === undefined) return this.page();
    const page = await context.newPage();
    this.#adopt(page);
    this.current = this.tabs.indexOf(page);
    return page;
  }

  /** The current tab. */
  page(): Page {
    const page = this.tabs[this.current];
    if (page === undefined || page.isClosed())
      throw new PreviewError(
        "INVALID_INPUT",
        "The current tab is closed.",
        'Call browser with op "tabs" to list the tabs, or navigate again.',
      );
    return page;
  }

  /**
   * Stops the script running in every tab (a page that never yields blocks every call on it):
   * CDP `Runtime.terminateExecution`, as the preview does on Node. Never rejects.
   */
  async stopScripts(): Promise<void> {
    const context = this.#context;
    if (context === undefined) return;
    await Promise.all(
      this.tabs
        .filter((tab) => !tab.isClosed())
        .map(async (tab) => {
          const cdp = await settle(this.#cdp.get(tab) ?? context.newCDPSession(tab), 1_000);
          if (cdp !== undefined) await settle(cdp.send("Runtime.terminateExecution"), 1_000);
        }),
    );
  }

  /** Closes the context (every tab); never rejects. */
  async close(): Promise<void> {
    const context = this.#context;
    this.#context = undefined;
    if (context !== undefined) await settle(context.close(), 5_000);
  }

  /** Starts a call: the dialog budget starts again. */
  beginCall(): void {
    this.#dialogs = 0;
    this.lastUsed = Date.now();
  }

  #adopt(page: Page): void {
    if (this.tabs.includes(page)) return;
    const open = this.tabs.filter((tab) => !tab.isClosed()).length;
    if (open >= MAX_BROWSER_TABS) {
      this.events.record(
        "popup",
        `a popup was closed: this session keeps at most ${MAX_BROWSER_TABS} tabs`,
      );
      void page.close().catch(() => {});
      return;
    }
    this.tabs.push(page);
    const cdp = this.#context?.newCDPSession(page);
    if (cdp !== undefined) {
      cdp.catch(() => {});
      this.#cdp.set(page, cdp);
    }
    if (this.tabs.length > 1) {
      this.events.record(
        "popup",
        `a new tab opened (tab ${this.tabs.length}); switch to it with op "tabs"`,
      );
    }
    page.on("dialog", (dialog) => {
      this.#dialogs += 1;
      if (this.#dialogs <= MAX_DIALOG_EVENTS)
        this.events.record(
          "dialog",
          `${dialog.type()} dismissed: ${dialog.message().slice(0, 200)}`,
        );
      else this.events.record("dialog", "more dialogs dismissed");
      // "Leave this page?" is answered yes: dismissing it would keep the tab from navigating.
      void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()).catch(() => {});
    });
    page.on("download", (download) => {
      this.events.record("download", `download of ${download.url().slice(0, 200)} refused`);
      void download.cancel().catch(() => {});
    });
    page.on("pageerror", (error) => this.events.record("error", error.message));
    page.on("crash", () => this.events.record("crash", "the tab crashed (out of memory?)"));
  }
}
