import type { ToolContext } from "@agentool/contract";

/** Why a call was cut off: its internal deadline, or the caller's abort. */
export type CutOffReason = "deadline" | "aborted";

/**
 * One call's signal: aborted by the caller's signal or at the internal deadline, remembering
 * which came first. Call {@link CallDeadline.done} when the call ends.
 */
export class CallDeadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #outer: AbortSignal;
  readonly #onAbort = () => {
    this.#reason ??= "aborted";
    this.#controller.abort(new Error("aborted"));
  };
  #reason: CutOffReason | undefined;

  /**
   * @param context - the call's context (its signal is the caller's)
   * @param deadlineMs - when the call is cut off, ms from now
   */
  constructor(context: ToolContext, deadlineMs: number) {
    this.#timer = setTimeout(() => {
      this.#reason ??= "deadline";
      this.#controller.abort(new Error("preview deadline"));
    }, deadlineMs);
    this.#outer = context.signal;
    if (this.#outer.aborted) this.#onAbort();
    else this.#outer.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Aborted at the deadline or when the caller aborts. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Which cut the call off first, or `undefined` while it runs. */
  reason(): CutOffReason | undefined {
    return this.#reason;
  }

  /** Stops the timer and lets go of the caller's signal. */
  done(): void {
    clearTimeout(this.#timer);
    this.#outer.removeEventListener("abort", this.#onAbort);
  }
}
