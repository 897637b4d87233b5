import type { PreviewBackendSession, PreviewDriverMethod } from "../preview-backend.js";
import { type ConsoleOutput, mergeConsole } from "./console-output.js";
import { checkConsoleBatch, checkDriverAnswer } from "./driver-answers.js";
import type { ConsoleBatch } from "./driver-protocol.js";
import { CONSOLE_DRAIN_TIMEOUT_MS } from "./limits.js";
import type { PreviewSessionData } from "./preview-data.js";

/** One conversation's open artifact: its backend session, call count, queue and console state. */
export class PreviewSession {
  /** Calls made on this session, the current one included. */
  calls = 1;
  /** Closes the session when it has been idle too long. */
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The calls of this conversation run one after the other. */
  queue: Promise<unknown> = Promise.resolve();
  /** Set once the session is ended. */
  closed = false;
  /** Calls in progress (an idle timer firing meanwhile waits for them). */
  busy = 1;
  /** Console output the driver handed back with the last call's value (one round trip for both). */
  drained: ConsoleBatch | undefined;
  /** The number of the last console batch received from the driver (acknowledged with the next call). */
  consoleBatch = 0;

  /**
   * @param thread - the conversation
   * @param path - the artifact's normalized path
   * @param backend - the backend's session
   */
  constructor(
    readonly thread: string,
    readonly path: string,
    readonly backend: PreviewBackendSession,
  ) {}

  /**
   * Calls a driver method and takes the console output since the last call in the same round
   * trip; the drained output waits on the session for the response. The envelope and the
   * console are checked here (page-controlled); the value is the op's to check.
   *
   * @param method - the driver method
   * @param args - its arguments
   * @param signal - the call's signal
   * @returns the method's value
   */
  async callDriver(
    method: PreviewDriverMethod,
    args: readonly unknown[],
    signal: AbortSignal,
  ): Promise<unknown> {
    const answer = checkDriverAnswer(
      await this.backend.call("withConsole", [method, args, this.consoleBatch], signal),
      method,
    );
    this.drained = answer.console;
    if (typeof answer.console?.batch === "number") this.consoleBatch = answer.console.batch;
    return answer.value;
  }

  /**
   * The console output since the last response: what the last driver call brought back, or a
   * `drain` (given up after two seconds), with the requests the backend refused.
   *
   * @returns the response's console
   */
  async drainConsole(): Promise<ConsoleOutput> {
    let driver: ConsoleBatch | undefined = this.drained;
    this.drained = undefined;
    if (driver === undefined) {
      try {
        driver = checkConsoleBatch(
          await this.backend.call(
            "drain",
            [this.consoleBatch],
            AbortSignal.timeout(CONSOLE_DRAIN_TIMEOUT_MS),
          ),
        );
      } catch {
        driver = undefined;
      }
    }
    if (typeof driver?.batch === "number") this.consoleBatch = driver.batch;
    return mergeConsole([driver?.entries ?? [], this.backend.takeBlocked()], driver?.omitted ?? 0);
  }

  /**
   * The session line of a response.
   *
   * @param state - the state to report
   * @param idleMs - the idle timeout
   * @param backend - the backend's kind
   * @returns the session data
   */
  data(state: "open" | "closed", idleMs: number, backend: string): PreviewSessionData {
    return { path: this.path, state, calls: this.calls, idle_timeout_ms: idleMs, backend };
  }
}
