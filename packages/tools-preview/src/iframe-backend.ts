import { IframeSession } from "./iframe/iframe-session.js";
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
  readonly #open = new Set<PreviewBackendSession>();
  #disposed = false;

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
    });
    this.#open.add(session);
    return session;
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
