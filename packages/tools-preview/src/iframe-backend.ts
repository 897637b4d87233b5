import { IframeSession, STALL_MS, type Stall } from "./iframe/iframe-session.js";

import type {
  PreviewBackend,
  PreviewBackendSession,
  PreviewOpenRequest,
} from "./preview-backend.js";

export { PREVIEW_FRAME_SANDBOX } from "./iframe/shell-document.js";

/** Makes the iframe a session runs in (the test and DI seam; normally left out). */
export type PreviewFrameFactory = () => HTMLIFrameElement;

/** Options of {@link createIframeBackend}. */
export interface IframeBackendOptions {
  /** Shows the frame (e.g. appends it to a panel) so the user watches what the agent tests. Default: appended off-screen to `document.body`. */
  attach?: (frame: HTMLIFrameElement) => void;
  /** Makes the iframe. Default `document.createElement("iframe")`. */
  frameFactory?: PreviewFrameFactory;
}

/** The browser backend's state: its options and the open sessions. */
class IframeBackend implements PreviewBackend {
  readonly kind = "iframe";
  readonly inlinesFiles = true;
  readonly #options: IframeBackendOptions;
  readonly #open = new Set<IframeSession>();
  #disposed = false;
  /**
   * The last session closed because its frame stopped answering, until any frame answers again:
   * the browser may keep the process its script holds (and put new frames in it).
   */
  #runaway: { path: string; at: number } | undefined;

  constructor(options: IframeBackendOptions) {
    this.#options = options;
  }

  unavailable() {
    if (typeof document === "undefined" || typeof window === "undefined")
      return {
        code: "NOT_CONFIGURED" as const,
        message: "preview's iframe backend needs a browser document, and this runtime has none.",
        hint: "The host must run it in a browser, or on Node use createChromiumPreviewTool from @agentool/tools-preview/node.",
      };
    if (this.#disposed)
      return {
        code: "NOT_CONFIGURED" as const,
        message: "The preview backend was disposed.",
        hint: "The host must create the preview tool again.",
      };
    return undefined;
  }

  async open(request: PreviewOpenRequest): Promise<PreviewBackendSession> {
    const frame = this.#options.frameFactory
      ? this.#options.frameFactory()
      : document.createElement("iframe");
    const session: IframeSession = new IframeSession(frame, request, {
      attach: this.#options.attach,
      onClose: () => this.#open.delete(session),
      stalledBy: () => this.#stalledBy(session),
      onAnswer: () => {
        this.#runaway = undefined;
      },
      onStuck: () => void this.#afterStuck(request.path),
    });
    this.#open.add(session);
    return session;
  }

  /**
   * Another session whose oldest unanswered message is older than {@link STALL_MS} and than the
   * asking session's own.
   */
  #stalledBy(asking: IframeSession): Stall | undefined {
    const now = Date.now();
    // Only a session held up for longer than the asking one: the first to stop answering is the
    // runaway, the others wait on it.
    let worst = { path: "", busyMs: Math.max(STALL_MS - 1, asking.busyMs(now)) };
    for (const other of this.#open) {
      const busyMs = other === asking ? 0 : other.busyMs(now);
      if (busyMs > worst.busyMs) worst = { path: other.path, busyMs };
    }
    if (worst.path !== "") return worst;
    const runaway = this.#runaway;
    return runaway === undefined
      ? undefined
      : { path: runaway.path, busyMs: now - runaway.at, ended: true };
  }

  /**
   * After a runaway session was closed: the renderer process it shared with other sessions is
   * still held by its script while any frame lives in it, and the browser ends it only when none
   * does. So the sessions that no longer answer are closed now, saying why, instead of hanging
   * their next call until its deadline — and the next `open` gets a fresh process.
   */
  async #afterStuck(path: string): Promise<void> {
    this.#runaway = { path, at: Date.now() };
    const reason = `the browser ended it together with ${path}, whose script never yielded (a page's preview frames share one process here; on Node each session has its own)`;
    await Promise.all([...this.#open].map((session) => session.closeUnlessAnswering(reason)));
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    await Promise.all([...this.#open].map((session) => session.close()));
  }
}

/**
 * The browser backend: each session is an `<iframe sandbox="allow-scripts" srcdoc>` (an opaque
 * origin: no access to the host's storage, cookies or DOM) whose document carries the CSP and
 * the driver; calls go over `postMessage` on a per-session channel token.
 *
 * @param options - attach and frameFactory
 * @returns the backend
 */
export function createIframeBackend(options: IframeBackendOptions = {}): PreviewBackend {
  return new IframeBackend(options);
}
