// A PreviewBackend without a browser: the engine's own logic (sessions, deadlines, op sequencing,
// console batches, failures, caps) tested in milliseconds. Its driver answers like the page
// driver does (src/engine/driver/page-driver.ts), console batches and acknowledgements included,
// from handlers a test sets per method.
import { raceSignal } from "@agentool/contract";
import type { DriverConfig, DriverSummary } from "../engine/driver-protocol.js";
import type {
  PreviewAction,
  PreviewActOutcome,
  PreviewBackend,
  PreviewBackendSession,
  PreviewConsoleEntry,
  PreviewDriverMethod,
  PreviewOpenRequest,
  PreviewViewportImage,
} from "../preview-backend.js";

/** Answers one driver method inside a fake session. */
export type FakeDriverHandler = (
  args: readonly unknown[],
  session: FakeBackendSession,
) => unknown | Promise<unknown>;

/** Driver methods a test scripts (the rest answer as an empty page does). */
export type FakeDriver = Partial<Record<PreviewDriverMethod, FakeDriverHandler>>;

const EMPTY_PAGE: DriverSummary = {
  title: "Fake page",
  canvases: 0,
  width: 800,
  height: 600,
  ready: "complete",
};

const DEFAULT_DRIVER: FakeDriver = {
  loaded: () => EMPTY_PAGE,
  summary: () => EMPTY_PAGE,
  settle: () => undefined,
  ping: () => true,
  read: ([queries]) =>
    (queries as Array<{ css: string; attr?: string }>).map((query) => ({
      css: query.css,
      attr: query.attr ?? "text",
      count: 0,
      values: [],
      cut: false,
    })),
  evaluate: () => ({ total: 0, type: "undefined" }),
  shot: () => ({ source: "viewport", canvases: 0, width: 800, height: 600 }),
};

/** The driver's config, read back from the prepared document. */
function driverConfig(document: string): DriverConfig {
  const source = /<script src="data:text\/javascript;charset=utf-8,([^"]*)"><\/script>/.exec(
    document,
  );
  const script = decodeURIComponent(source?.[1] ?? "");
  const match = /installPreviewDriver\((\{"channel".*\})\);\s*\}\)\(\);\s*$/s.exec(script);
  if (match?.[1] === undefined) throw new Error("the document carries no driver config");
  return JSON.parse(match[1]) as DriverConfig;
}

/** One fake page: the driver's console batches, scripted methods, and a log of what was asked. */
export class FakeBackendSession implements PreviewBackendSession {
  /** Every call, in order: `load`, a driver method's name, `act`, `shoot`, `recover`, `close`. */
  readonly log: string[] = [];
  /** What `recover` answers after a cut-off call. */
  recoverAnswer: "usable" | "closed" = "usable";
  /** What `screenshotViewport` answers (`undefined`: the backend cannot shoot a viewport). */
  viewportImage: PreviewViewportImage | undefined = {
    data: "iVBORw0KGgo=",
    width: 800,
    height: 600,
  };
  /** How a run of actions goes; default: every action is done. */
  actHandler: (
    actions: readonly PreviewAction[],
  ) => PreviewActOutcome | Promise<PreviewActOutcome> = (actions) => ({
    completed: actions.length,
  });
  /** Runs when the document starts loading (wait to slow it). */
  loadHandler: (() => void | Promise<void>) | undefined;
  /** Whether the session was closed. */
  closed = false;
  readonly #blocked: PreviewConsoleEntry[] = [];
  #entries: PreviewConsoleEntry[] = [];
  #omitted = 0;
  #unacknowledged: { batch: number; entries: PreviewConsoleEntry[]; omitted: number } | null = null;
  #nextBatch = 1;

  /**
   * @param request - what the engine opened it with
   * @param driver - the scripted driver methods
   * @param config - the injected driver's config
   */
  constructor(
    readonly request: PreviewOpenRequest,
    readonly driver: FakeDriver,
    readonly config: DriverConfig,
  ) {}

  /**
   * The artifact logs a console line (consecutive duplicates collapse, as in the page driver).
   *
   * @param level - `log`, `warn`, `uncaught`…
   * @param text - the message
   */
  print(level: string, text: string): void {
    const last = this.#entries[this.#entries.length - 1];
    if (last !== undefined && last.level === level && last.text === text) last.count += 1;
    else if (this.#entries.length >= this.config.maxEntries) this.#omitted += 1;
    else this.#entries.push({ level, text, count: 1 });
  }

  /**
   * The network layer refuses a request (handed out by `takeBlocked`).
   *
   * @param text - the message
   */
  block(text: string): void {
    this.#blocked.push({ level: "blocked", text, count: 1 });
  }

  async load(signal: AbortSignal): Promise<void> {
    this.log.push("load");
    await raceSignal(Promise.resolve(this.loadHandler?.()), signal);
  }

  call(method: PreviewDriverMethod, args: readonly unknown[], signal: AbortSignal) {
    if (this.closed) return Promise.reject(new Error("the fake session is closed"));
    if (method === "drain") {
      this.log.push("drain");
      return Promise.resolve(this.#drain(args[0]));
    }
    if (method === "withConsole") {
      const [inner, innerArgs, acknowledged] = args as [PreviewDriverMethod, unknown[], number];
      this.log.push(inner);
      // The page finishes the method (and drains) even when the host stopped waiting.
      const answer = Promise.resolve()
        .then(() => this.#dispatch(inner, innerArgs))
        .then((value) => ({ value, console: this.#drain(acknowledged) }));
      return raceSignal(answer, signal);
    }
    this.log.push(method);
    return raceSignal(
      Promise.resolve().then(() => this.#dispatch(method, args)),
      signal,
    );
  }

  act(actions: readonly PreviewAction[], signal: AbortSignal): Promise<PreviewActOutcome> {
    this.log.push("act");
    return raceSignal(
      Promise.resolve().then(() => this.actHandler(actions)),
      signal,
    );
  }

  async screenshotViewport(): Promise<PreviewViewportImage | undefined> {
    this.log.push("shoot");
    return this.viewportImage;
  }

  takeBlocked(): PreviewConsoleEntry[] {
    return this.#blocked.splice(0, this.#blocked.length);
  }

  async recover(): Promise<"usable" | "closed"> {
    this.log.push("recover");
    return this.closed ? "closed" : this.recoverAnswer;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.log.push("close");
    this.closed = true;
  }

  #dispatch(method: PreviewDriverMethod, args: readonly unknown[]): unknown {
    const handler = this.driver[method] ?? DEFAULT_DRIVER[method];
    if (handler === undefined) throw new Error(`the fake driver has no ${method}`);
    return handler(args, this);
  }

  /** The page driver's drain: an unacknowledged batch is handed out again with the next one. */
  #drain(acknowledged: unknown) {
    let pending = this.#unacknowledged;
    if (pending !== null && typeof acknowledged === "number" && acknowledged >= pending.batch)
      pending = null;
    let merged = pending !== null ? [...pending.entries, ...this.#entries] : this.#entries;
    let lost = (pending?.omitted ?? 0) + this.#omitted;
    if (merged.length > this.config.maxEntries) {
      lost += merged.length - this.config.maxEntries;
      merged = merged.slice(0, this.config.maxEntries);
    }
    this.#unacknowledged = { batch: this.#nextBatch++, entries: merged, omitted: lost };
    this.#entries = [];
    this.#omitted = 0;
    return this.#unacknowledged;
  }
}

/** Options of {@link FakeBackend}. */
export interface FakeBackendOptions {
  /** The backend's kind. Default `"fake"`. */
  kind?: string;
  /** Driver methods every new session answers with (others answer as an empty page). */
  driver?: FakeDriver;
}

/** A backend whose sessions are {@link FakeBackendSession}s; it records what it was asked. */
export class FakeBackend implements PreviewBackend {
  readonly kind: string;
  /** Every open request, in order. */
  readonly requests: PreviewOpenRequest[] = [];
  /** Every session opened, in order. */
  readonly sessions: FakeBackendSession[] = [];
  /** Driver methods of the sessions opened from now on. */
  driver: FakeDriver;
  /** What `unavailable` answers. */
  unavailableAnswer: ReturnType<PreviewBackend["unavailable"]>;
  /** Runs before each open (throw to fail it, wait to slow it). */
  beforeOpen: ((request: PreviewOpenRequest) => void | Promise<void>) | undefined;
  /** Whether `dispose` was called. */
  disposed = false;

  /** @param options - kind and driver */
  constructor(options: FakeBackendOptions = {}) {
    this.kind = options.kind ?? "fake";
    this.driver = options.driver ?? {};
  }

  /** The session opened last. */
  get last(): FakeBackendSession {
    const session = this.sessions[this.sessions.length - 1];
    if (session === undefined) throw new Error("no fake session was opened");
    return session;
  }

  unavailable() {
    return this.unavailableAnswer;
  }

  async open(request: PreviewOpenRequest): Promise<PreviewBackendSession> {
    this.requests.push(request);
    await raceSignal(Promise.resolve(this.beforeOpen?.(request)), request.signal);
    const session = new FakeBackendSession(request, this.driver, driverConfig(request.document));
    this.sessions.push(session);
    return session;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

/**
 * A promise that never settles (a script that never yields, a read that hangs).
 *
 * @returns the promise
 */
export function never<T = never>(): Promise<T> {
  return new Promise<T>(() => {});
}

/**
 * Waits.
 *
 * @param ms - how long
 * @returns when the time has passed
 */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
