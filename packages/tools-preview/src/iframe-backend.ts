import {
  type PreviewAction,
  type PreviewActOutcome,
  type PreviewBackend,
  type PreviewBackendSession,
  PreviewError,
  type PreviewOpenRequest,
  raceSignal,
} from "./preview-backend.js";

/** Makes the iframe a session runs in (the test and DI seam; normally left out). */
export type PreviewFrameFactory = () => HTMLIFrameElement;

/** Options of {@link createIframeBackend}. */
export interface IframeBackendOptions {
  /** Shows the frame (e.g. appends it to a panel) so the user watches what the agent tests. Default: appended off-screen to `document.body`. */
  attach?: (frame: HTMLIFrameElement) => void;
  /** Makes the iframe. Default `document.createElement("iframe")`. */
  frameFactory?: PreviewFrameFactory;
}

/** The sandbox every preview frame gets: scripts only, so its origin is opaque. */
export const PREVIEW_FRAME_SANDBOX = "allow-scripts";

/** The shell's policy: no frame of its own may navigate anywhere but to its srcdoc. */
const SHELL_CONTENT_SECURITY_POLICY =
  "frame-src 'none'; child-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

function shellDocument(artifact: string, path: string): string {
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${SHELL_CONTENT_SECURITY_POLICY}"><title>${escapeAttribute(path).replace(/</g, "&lt;")}</title><style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style></head><body><iframe sandbox="${PREVIEW_FRAME_SANDBOX}" srcdoc="${escapeAttribute(artifact)}"></iframe></body></html>`;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
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
  const open = new Set<PreviewBackendSession>();
  let disposed = false;
  return {
    kind: "iframe",
    unavailable() {
      if (typeof document === "undefined" || typeof window === "undefined")
        return {
          code: "NOT_CONFIGURED",
          message: "preview's iframe backend needs a browser document, and this runtime has none.",
          hint: "The host must run it in a browser, or on Node use createChromiumPreviewTool from @agentool/tools-preview/node.",
        };
      if (disposed)
        return {
          code: "NOT_CONFIGURED",
          message: "The preview backend was disposed.",
          hint: "The host must create the preview tool again.",
        };
      return undefined;
    },
    async open(request: PreviewOpenRequest): Promise<PreviewBackendSession> {
      // A shell frame holds the artifact's frame: the shell's CSP (frame-src 'none') is what
      // Chromium checks on every navigation of the artifact's frame, its own included, so a
      // location change, a link or a meta refresh is refused before any request is made.
      const frame = options.frameFactory
        ? options.frameFactory()
        : document.createElement("iframe");
      frame.setAttribute("sandbox", PREVIEW_FRAME_SANDBOX);
      frame.setAttribute("referrerpolicy", "no-referrer");
      frame.setAttribute("title", `preview of ${request.path}`);
      frame.style.width = `${request.viewport.width}px`;
      frame.style.height = `${request.viewport.height}px`;
      frame.style.border = "0";
      if (options.attach === undefined) {
        frame.style.position = "fixed";
        frame.style.left = "-20000px";
        frame.style.top = "0";
      }
      const inner = (): Window | null => {
        try {
          return (frame.contentWindow?.frames[0] as Window | undefined) ?? null;
        } catch {
          return null;
        }
      };
      const pending = new Map<number, Pending>();
      let nextId = 1;
      let closed = false;
      const onMessage = (event: MessageEvent) => {
        const message = event.data as {
          channel?: unknown;
          id?: unknown;
          value?: unknown;
          error?: unknown;
        } | null;
        if (
          event.source === null ||
          event.source !== inner() ||
          message === null ||
          typeof message !== "object"
        )
          return;
        if (message.channel !== request.channel || typeof message.id !== "number") return;
        const waiting = pending.get(message.id);
        if (waiting === undefined) return;
        pending.delete(message.id);
        if (message.error !== undefined) waiting.reject(new Error(String(message.error)));
        else waiting.resolve(message.value);
      };
      window.addEventListener("message", onMessage);

      function call(
        method: string,
        args: readonly unknown[],
        signal: AbortSignal,
      ): Promise<unknown> {
        if (closed)
          return Promise.reject(
            new PreviewError(
              "INVALID_INPUT",
              "The preview session is closed.",
              'Call preview with op "open" again.',
            ),
          );
        const target = inner();
        if (target === null)
          return Promise.reject(
            new PreviewError(
              "INTERNAL",
              "The preview frame is not in the document.",
              'Call preview with op "open" again.',
            ),
          );
        const id = nextId++;
        const answer = new Promise<unknown>((resolve, reject) =>
          pending.set(id, { resolve, reject }),
        );
        target.postMessage({ channel: request.channel, id, method, args }, "*");
        return raceSignal(answer, signal).finally(() => pending.delete(id));
      }

      const session: PreviewBackendSession = {
        async load(signal) {
          let loaded = false;
          frame.addEventListener(
            "load",
            () => {
              loaded = true;
            },
            { once: true },
          );
          frame.srcdoc = shellDocument(request.document, request.path);
          if (options.attach !== undefined) options.attach(frame);
          else document.body.appendChild(frame);
          // The shell's load event, or 1 s after the artifact's DOM is parsed when a cancelled
          // navigation stopped its loading (its load event then never comes).
          let parsedAt: number | undefined;
          while (!loaded) {
            await raceSignal(new Promise((resolve) => setTimeout(resolve, 50)), signal);
            if (loaded || inner() === null) continue;
            const probe = new AbortController();
            const timer = setTimeout(() => probe.abort(), 200);
            const state = (await call("summary", [], probe.signal).catch(() => undefined)) as
              | { ready?: string }
              | undefined;
            clearTimeout(timer);
            if (signal.aborted) throw signal.reason;
            if (state !== undefined && state.ready !== "loading") {
              parsedAt ??= Date.now();
              if (state.ready === "complete" || Date.now() - parsedAt >= 1_000) return;
            }
          }
        },
        call,
        act: (actions: readonly PreviewAction[], signal) =>
          call("act", [actions], signal) as Promise<PreviewActOutcome>,
        screenshotViewport: async () => undefined,
        takeBlocked: () => [],
        async recover() {
          if (closed) return "closed";
          const probe = new AbortController();
          const timer = setTimeout(() => probe.abort(), 500);
          try {
            await call("ping", [], probe.signal);
            return "usable";
          } catch {
            await session.close();
            return "closed";
          } finally {
            clearTimeout(timer);
          }
        },
        async close() {
          if (closed) return;
          closed = true;
          open.delete(session);
          window.removeEventListener("message", onMessage);
          for (const waiting of pending.values())
            waiting.reject(new Error("the preview session was closed"));
          pending.clear();
          frame.remove();
        },
      };
      open.add(session);
      return session;
    },
    async dispose() {
      disposed = true;
      await Promise.all([...open].map((session) => session.close()));
    },
  };
}
