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

/** How long another session's call may go unanswered before this one checks it is not held by it. */
export const STALL_MS = 1_000;

/** How long a new session's shell frame may take to appear while another session is stalled. */
const SHELL_WAIT_MS = 500;

/** How long a session has to answer a ping to show its frame is not held up. */
const QUICK_PING_MS = 200;

/** How a session shows its frame, and what it knows of the page's other sessions. */
export interface IframeSessionHost {
  /** Shows the frame; default: appended off-screen to `document.body`. */
  attach: ((frame: HTMLIFrameElement) => void) | undefined;
  /** Called once the session is closed. */
  onClose: () => void;
  /**
   * Another session of the page whose oldest call has gone unanswered for {@link STALL_MS} (or,
   * `ended`, one closed for that a short while ago, whose process the browser may still hold).
   */
  stalledBy: () => Stall | undefined;
  /** Called when this session is closed because its frame stopped answering (a runaway script). */
  onStuck: () => void;
  /** Called whenever the frame answers (the page's process runs). */
  onAnswer: () => void;
}

/** Another session holding up the page's preview process. */
export interface Stall {
  /** Its artifact. */
  path: string;
  /** How long it has not answered (or, `ended`, since it was closed). */
  busyMs: number;
  /** Whether it was already closed (the browser may still be ending its process). */
  ended?: boolean;
}

/**
 * The failure of a session held up by another session's runaway script: a browser runs the
 * sandboxed frames of one page in one renderer process, so one frame that never yields stalls
 * them all, and the page cannot stop it.
 */
export function sharedProcessStall(other: Stall): PreviewError {
  const what =
    other.ended === true
      ? `A preview frame (${other.path}) stopped answering — a script that never yields — and its session was closed ${Math.round(other.busyMs)} ms ago, but the browser has not ended the process that script holds`
      : `Another conversation's artifact (${other.path}) has run a script for ${Math.round(other.busyMs)} ms without yielding`;
  return new PreviewError(
    "TIMEOUT",
    other.ended === true
      ? `${what}, and this browser puts every preview frame of the page in that process: no preview can load here until it ends.`
      : `${what}, and this browser runs every preview frame of the page in one process: this session cannot answer until that script ends (a runaway script is stopped at its call's deadline, and its session closed).`,
    other.ended === true
      ? "Retry later; if it persists the host must reload its page. Where sessions must never share a fate, run preview on Node (createChromiumPreviewTool from @agentool/tools-preview/node): each session has its own process there."
      : "Retry in a few seconds. Where sessions must never wait on each other, run preview on Node (createChromiumPreviewTool from @agentool/tools-preview/node), where each session has its own process.",
    true,
  );
}

/** One artifact in a shell frame holding its sandboxed frame; the driver answers over postMessage. */
export class IframeSession implements PreviewBackendSession {
  readonly #frame: HTMLIFrameElement;
  readonly #request: PreviewOpenRequest;
  readonly #host: IframeSessionHost;
  readonly #pending = new Map<number, Pending>();
  /**
   * When each message the frame has not answered was sent: kept after its caller gave up (a
   * frame stuck in a script answers nothing), cleared by any answer (the frame is running).
   */
  readonly #sentAt = new Map<number, number>();
  #closedReason: string | undefined;
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
    const loadStarted = Date.now();
    while (!loaded) {
      await raceSignal(new Promise((resolve) => setTimeout(resolve, 50)), signal);
      if (loaded) continue;
      if (this.#inner() === null) {
        // The shell frame normally exists within a few ms; a process held by another session's
        // script does not make it.
        const stall =
          Date.now() - loadStarted >= SHELL_WAIT_MS ? this.#host.stalledBy() : undefined;
        if (stall !== undefined) throw sharedProcessStall(stall);
        continue;
      }
      const probe = new AbortController();
      const timer = setTimeout(() => probe.abort(), 200);
      const state = (await this.call("summary", [], probe.signal).catch(() => undefined)) as
        | { ready?: string }
        | undefined;
      clearTimeout(timer);
      if (signal.aborted) throw signal.reason;
      const stall = state === undefined ? this.#host.stalledBy() : undefined;
      if (stall !== undefined) throw sharedProcessStall(stall);
      if (state !== undefined && state.ready !== "loading") {
        parsedAt ??= Date.now();
        if (state.ready === "complete" || Date.now() - parsedAt >= 1_000) return;
      }
    }
  }

  async call(method: string, args: readonly unknown[], signal: AbortSignal): Promise<unknown> {
    const stall = this.#host.stalledBy();
    // Another frame's script is not yielding: a frame of the same process cannot answer either.
    if (stall !== undefined && method !== "ping" && !(await this.#answersWithin(QUICK_PING_MS)))
      throw sharedProcessStall(stall);
    return this.#send(method, args, signal);
  }

  /** The artifact's path. */
  get path(): string {
    return this.#request.path;
  }

  /** How long this session's oldest call in flight has gone unanswered (0 when none). */
  busyMs(now: number): number {
    let oldest = now;
    for (const sentAt of this.#sentAt.values()) oldest = Math.min(oldest, sentAt);
    return now - oldest;
  }

  /** Whether the artifact's frame answers a ping within `ms`. */
  async #answersWithin(ms: number): Promise<boolean> {
    const probe = new AbortController();
    const timer = setTimeout(() => probe.abort(), ms);
    try {
      await this.#send("ping", [], probe.signal);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  #send(method: string, args: readonly unknown[], signal: AbortSignal): Promise<unknown> {
    if (this.#closed)
      return Promise.reject(
        new PreviewError(
          "INVALID_INPUT",
          `The preview session is closed${this.#closedReason === undefined ? "" : `: ${this.#closedReason}`}.`,
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
    this.#sentAt.set(id, Date.now());
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
    if (await this.#answersWithin(500)) return "usable";
    // Held up by another frame's running script: that one is closed by its own call; this one
    // stays.
    const stall = this.#host.stalledBy();
    if (stall !== undefined && stall.ended !== true) return "usable";
    await this.close();
    this.#host.onStuck();
    return "closed";
  }

  /**
   * Closes the session when its frame no longer answers (its process was ended with another
   * session's runaway frame); the next call says why.
   *
   * @param reason - why, for that call
   * @returns whether the session was closed
   */
  async closeUnlessAnswering(reason: string): Promise<boolean> {
    if (this.#closed || (await this.#answersWithin(1_000))) return false;
    this.#closedReason = reason;
    await this.close();
    return true;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#host.onClose();
    window.removeEventListener("message", this.#onMessage);
    this.#sentAt.clear();
    for (const waiting of this.#pending.values())
      waiting.reject(
        new PreviewError(
          "INVALID_INPUT",
          `The preview session was closed${this.#closedReason === undefined ? "" : `: ${this.#closedReason}`}.`,
          'Call preview with op "open" again.',
        ),
      );
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
    // Any message means the frame runs: nothing sent before it is held up any more.
    this.#sentAt.clear();
    this.#host.onAnswer();
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
