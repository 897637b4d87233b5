import { type ErrorCode, ToolFailureError } from "@agentool/contract";

/** One console line (or uncaught error, or refused request) the artifact produced. */
export interface PreviewConsoleEntry {
  /** `log`, `info`, `warn`, `error`, `debug`, `uncaught` (an uncaught error or rejection) or `blocked` (a refused request or navigation). */
  level: string;
  /** The message, capped. */
  text: string;
  /** How many times it came in a row (consecutive duplicates are collapsed). */
  count: number;
}

/** One action of `act`, as the schema gives it. */
export interface PreviewAction {
  /** `click`, `key`, `type`, `scroll` or `wait`. */
  type: "click" | "key" | "type" | "scroll" | "wait";
  /** Click position, CSS pixels from the viewport's left. */
  x?: number | undefined;
  /** Click position, CSS pixels from the viewport's top. */
  y?: number | undefined;
  /** Click the centre of the first element this CSS selector matches. */
  selector?: string | undefined;
  /** A key name (`ArrowLeft`, `Enter`, `a`, ` `). */
  key?: string | undefined;
  /** Text typed key by key into the focused element. */
  text?: string | undefined;
  /** Horizontal scroll in CSS pixels. */
  dx?: number | undefined;
  /** Vertical scroll in CSS pixels. */
  dy?: number | undefined;
  /** Milliseconds to wait. */
  ms?: number | undefined;
}

/** What a run of actions did. */
export interface PreviewActOutcome {
  /** Actions done before the first failure (all of them when none failed). */
  completed: number;
  /** The first action that could not be done. */
  failed?: { index: number; message: string } | undefined;
}

/** A PNG the backend took of the viewport. */
export interface PreviewViewportImage {
  /** Base64 PNG bytes. */
  data: string;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/** The driver's methods (the same script runs in both backends). */
export type PreviewDriverMethod =
  | "drain"
  | "read"
  | "evaluate"
  | "locate"
  | "act"
  | "shot"
  | "summary"
  | "settle"
  | "loaded"
  | "withConsole"
  | "ping";

/** One open artifact in a backend. Every method honours its signal (rejects once it aborts). */
export interface PreviewBackendSession {
  /** Starts loading the prepared document (the engine then waits for it through the driver's `loaded`). */
  load(signal: AbortSignal): Promise<void>;
  /** Calls the driver inside the artifact. */
  call(
    method: PreviewDriverMethod,
    args: readonly unknown[],
    signal: AbortSignal,
  ): Promise<unknown>;
  /** Performs actions (trusted input in Chromium; synthesized events in the iframe). */
  act(actions: readonly PreviewAction[], signal: AbortSignal): Promise<PreviewActOutcome>;
  /** A PNG of the viewport, when the backend can take one (`undefined` when it cannot). */
  screenshotViewport(signal: AbortSignal): Promise<PreviewViewportImage | undefined>;
  /** Requests refused at the network layer since the last call, as console entries. */
  takeBlocked(): PreviewConsoleEntry[];
  /**
   * After a call was cut off (deadline or abort): stops the artifact's running script if the
   * backend can, and tells whether the session still answers.
   */
  recover(): Promise<"usable" | "closed">;
  /** Closes the session; never rejects. */
  close(): Promise<void>;
}

/** What a backend gets to open an artifact. */
export interface PreviewOpenRequest {
  /** The artifact's path as the model gave it (normalized). */
  path: string;
  /** The artifact with the CSP and driver injected. */
  document: string;
  /** The postMessage channel token the driver answers on (iframe backend). */
  channel: string;
  /** The Content-Security-Policy, for backends that can also send it as a header. */
  contentSecurityPolicy: string;
  /** Viewport size in CSS pixels. */
  viewport: { width: number; height: number };
  /** Aborted at the call's deadline or when the caller aborts. */
  signal: AbortSignal;
  /**
   * Reads one of the artifact's own files for the page (a script, stylesheet, image, font or
   * fetched JSON), by its workspace path: confined and capped by the tool's reader, secret paths
   * refused; given to backends with an {@link PreviewBackend.assetOrigin}.
   */
  readAsset?: (path: string, signal: AbortSignal) => Promise<Uint8Array>;
}

/** A place artifacts run: headless Chromium on Node, a sandboxed iframe in browsers. */
export interface PreviewBackend {
  /** `"chromium"`, `"iframe"`, … (shown in the session line). */
  readonly kind: string;
  /**
   * The origin the backend serves the artifact's folder from (the document at
   * `<origin>/<path>`, its files beside it through {@link PreviewOpenRequest.readAsset}), when it
   * serves files at all; the artifact's policy then allows that origin and nothing else.
   */
  readonly assetOrigin?: string;
  /**
   * Whether the backend has no server for the artifact's files and wants them inlined into the
   * document instead (`data:` URLs and an import map), with the page's `fetch` of them answered
   * over its channel through {@link PreviewOpenRequest.readAsset} (the iframe backend).
   */
  readonly inlinesFiles?: boolean;
  /** Why the backend cannot run here (no `document`, no browser), or `undefined` when it can. */
  unavailable(): { code: ErrorCode; message: string; hint: string } | undefined;
  /** Creates a session (page or frame) for one artifact; `load` then loads it. */
  open(request: PreviewOpenRequest): Promise<PreviewBackendSession>;
  /** Closes every resource the backend holds; never rejects. */
  dispose(): Promise<void>;
}

const previewErrorMarker = Symbol.for("agentool.preview.error");

/**
 * An expected failure inside a backend, carrying a shared error code: a {@link ToolFailureError}
 * of the contract, so the tool's `run` turns it into the failure envelope wherever it is thrown.
 */
export class PreviewError extends ToolFailureError {
  /** @internal */
  readonly [previewErrorMarker] = true;

  /**
   * @param code - a shared error code
   * @param message - what went wrong
   * @param hint - what to do next
   * @param retryable - whether the same call may pass when repeated unchanged
   */
  constructor(code: ErrorCode, message: string, hint?: string, retryable?: boolean) {
    super(code, message, {
      ...(hint === undefined ? {} : { hint }),
      ...(retryable === undefined ? {} : { retryable }),
    });
    this.name = "PreviewError";
  }

  /**
   * Tells whether a value is a {@link PreviewError} (works across package copies).
   *
   * @param value - anything
   * @returns `true` for a preview error
   */
  static override isInstance(value: unknown): value is PreviewError {
    return typeof value === "object" && value !== null && previewErrorMarker in value;
  }
}

/**
 * Races a promise with a signal: rejects with the signal's reason once it aborts. The contract's
 * `raceSignal`, re-exported here where backends have always found it.
 */
export { raceSignal } from "@agentool/contract";
