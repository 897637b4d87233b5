import { errorMessage, raceSignal } from "@agentool/contract";
import { mediaTypeOf, statusOfFailure } from "../engine/media-types.js";
import {
  type PreviewAction,
  type PreviewActOutcome,
  type PreviewBackendSession,
  PreviewError,
  type PreviewOpenRequest,
} from "../preview-backend.js";
import { PREVIEW_FRAME_SANDBOX, shellDocument } from "./shell-document.js";

/** Longest the page waits for one of its files. */
const FETCH_TIMEOUT_MS = 10_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** How a session shows its frame. */
export interface IframeSessionHost {
  /** Shows the frame; default: appended off-screen to `document.body`. */
  attach: ((frame: HTMLIFrameElement) => void) | undefined;
  /** Called once the session is closed. */
  onClose: () => void;
}

/** One artifact in a shell frame holding its sandboxed frame; the driver answers over postMessage. */
export class IframeSession implements PreviewBackendSession {
  readonly #frame: HTMLIFrameElement;
  readonly #request: PreviewOpenRequest;
  readonly #host: IframeSessionHost;
  readonly #pending = new Map<number, Pending>();
  readonly #onMessage = (event: MessageEvent) => this.#receive(event);
  #nextId = 1;
  #closed = false;

  /**
   * @param frame - the (shell) iframe, not yet in the document
   * @param request - the open request
   * @param host - attach, and what to do on close
   */
  constructor(frame: HTMLIFrameElement, request: PreviewOpenRequest, host: IframeSessionHost) {
    this.#frame = frame;
    this.#request = request;
    this.#host = host;
    frame.setAttribute("sandbox", PREVIEW_FRAME_SANDBOX);
    frame.setAttribute("referrerpolicy", "no-referrer");
    frame.setAttribute("title", `preview of ${request.path}`);
    frame.style.width = `${request.viewport.width}px`;
    frame.style.height = `${request.viewport.height}px`;
    frame.style.border = "0";
    if (host.attach === undefined) {
      frame.style.position = "fixed";
      frame.style.left = "-20000px";
      frame.style.top = "0";
    }
    window.addEventListener("message", this.#onMessage);
  }

  async load(signal: AbortSignal): Promise<void> {
    let loaded = false;
    this.#frame.addEventListener(
      "load",
      () => {
        loaded = true;
      },
      { once: true },
    );
    this.#frame.srcdoc = shellDocument(this.#request.document, this.#request.path);
    if (this.#host.attach !== undefined) this.#host.attach(this.#frame);
    else document.body.appendChild(this.#frame);
    // The shell's load event, or 1 s after the artifact's DOM is parsed when a cancelled
    // navigation stopped its loading (its load event then never comes).
    let parsedAt: number | undefined;
    while (!loaded) {
      await raceSignal(new Promise((resolve) => setTimeout(resolve, 50)), signal);
      if (loaded || this.#inner() === null) continue;
      const probe = new AbortController();
      const timer = setTimeout(() => probe.abort(), 200);
      const state = (await this.call("summary", [], probe.signal).catch(() => undefined)) as
        | { ready?: string }
        | undefined;
      clearTimeout(timer);
      if (signal.aborted) throw signal.reason;
      if (state !== undefined && state.ready !== "loading") {
        parsedAt ??= Date.now();
        if (state.ready === "complete" || Date.now() - parsedAt >= 1_000) return;
      }
    }
  }

  call(method: string, args: readonly unknown[], signal: AbortSignal): Promise<unknown> {
    if (this.#closed)
      return Promise.reject(
        new PreviewError(
          "INVALID_INPUT",
          "The preview session is closed.",
          'Call preview with op "open" again.',
        ),
      );
    const target = this.#inner();
    if (target === null)
      return Promise.reject(
        new PreviewError(
          "INTERNAL",
          "The preview frame is not in the document.",
          'Call preview with op "open" again.',
        ),
      );
    const id = this.#nextId++;
    const answer = new Promise<unknown>((resolve, reject) =>
      this.#pending.set(id, { resolve, reject }),
    );
    target.postMessage({ channel: this.#request.channel, id, method, args }, "*");
    return raceSignal(answer, signal).finally(() => this.#pending.delete(id));
  }

  act(actions: readonly PreviewAction[], signal: AbortSignal): Promise<PreviewActOutcome> {
    return this.call("act", [actions], signal) as Promise<PreviewActOutcome>;
  }

  async screenshotViewport(): Promise<undefined> {
    return undefined;
  }

  takeBlocked() {
    return [];
  }

  async recover(): Promise<"usable" | "closed"> {
    if (this.#closed) return "closed";
    const probe = new AbortController();
    const timer = setTimeout(() => probe.abort(), 500);
    try {
      await this.call("ping", [], probe.signal);
      return "usable";
    } catch {
      await this.close();
      return "closed";
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#host.onClose();
    window.removeEventListener("message", this.#onMessage);
    for (const waiting of this.#pending.values())
      waiting.reject(new Error("the preview session was closed"));
    this.#pending.clear();
    this.#frame.remove();
  }

  /**
   * Answers the page's `fetch` of one of its own files (the driver's bridge) through the
   * request's reader: confined, capped, secrets refused — what the Node backend serves.
   */
  async #answerFetch(target: Window, id: number, path: string): Promise<void> {
    const channel = this.#request.channel;
    const reader = this.#request.readAsset;
    try {
      if (reader === undefined) throw new Error("this preview serves no files");
      const bytes = await reader(path, AbortSignal.timeout(FETCH_TIMEOUT_MS));
      const copy = bytes.slice().buffer;
      if (!this.#closed)
        target.postMessage(
          { channel, fetch_answer: id, bytes: copy, type: mediaTypeOf(path) },
          "*",
          [copy],
        );
    } catch (error) {
      if (!this.#closed)
        target.postMessage(
          {
            channel,
            fetch_answer: id,
            status: statusOfFailure(error),
            error: errorMessage(error),
          },
          "*",
        );
    }
  }

  /** The artifact's frame inside the shell, once it exists. */
  #inner(): Window | null {
    try {
      return (this.#frame.contentWindow?.frames[0] as Window | undefined) ?? null;
    } catch {
      return null;
    }
  }

  #receive(event: MessageEvent): void {
    const message = event.data as {
      channel?: unknown;
      id?: unknown;
      value?: unknown;
      error?: unknown;
      fetch?: unknown;
      path?: unknown;
    } | null;
    const source = this.#inner();
    if (
      event.source === null ||
      event.source !== source ||
      message === null ||
      typeof message !== "object"
    )
      return;
    if (message.channel !== this.#request.channel) return;
    if (typeof message.fetch === "number" && typeof message.path === "string") {
      void this.#answerFetch(source, message.fetch, message.path);
      return;
    }
    if (typeof message.id !== "number") return;
    const waiting = this.#pending.get(message.id);
    if (waiting === undefined) return;
    this.#pending.delete(message.id);
    if (message.error !== undefined) waiting.reject(new Error(String(message.error)));
    else waiting.resolve(message.value);
  }
}
