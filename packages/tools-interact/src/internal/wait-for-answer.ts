import type { ToolContext } from "@agentool/contract";
import type { InteractionHandler, UserAnswer, UserQuestion } from "../interaction-handler.js";

/** How waiting for a person ended. */
export type WaitOutcome =
  | { kind: "answered"; answer: UserAnswer }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "failed"; detail: string };

/**
 * Extra time the contract's own timeout allows beyond the tool's wait, so the tool's friendlier
 * `TIMEOUT` message always wins.
 *
 * @internal
 */
export const CONTRACT_TIMEOUT_MARGIN_MS = 5_000;

/**
 * The `timeoutMs` to give `defineTool` for a tool that waits `waitMs` for a person.
 *
 * @internal
 */
export function contractTimeoutFor(waitMs: number): number {
  return waitMs === 0 ? 0 : waitMs + CONTRACT_TIMEOUT_MARGIN_MS;
}

function describeError(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : String(error);
    return text.length > 0 ? text.slice(0, 500) : "unknown error";
  } catch {
    return "unknown error";
  }
}

/**
 * Asks the handler and waits for the answer, the timeout, or the run's abort — whichever comes
 * first. Never rejects. The handler's signal is aborted when the wait ends without an answer.
 *
 * @internal
 */
export function waitForAnswer(
  handler: InteractionHandler,
  question: UserQuestion,
  context: ToolContext,
  timeoutMs: number,
): Promise<WaitOutcome> {
  const outer = context.signal;
  if (outer.aborted) return Promise.resolve({ kind: "aborted" });
  const controller = new AbortController();
  return new Promise<WaitOutcome>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => settle({ kind: "aborted" });
    const settle = (outcome: WaitOutcome) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      outer.removeEventListener("abort", onAbort);
      if (outcome.kind !== "answered" && outcome.kind !== "failed") {
        controller.abort(new Error(`${question.type} stopped waiting (${outcome.kind})`));
      }
      resolve(outcome);
    };
    outer.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs > 0) timer = setTimeout(() => settle({ kind: "timeout" }), timeoutMs);
    let pending: UserAnswer | Promise<UserAnswer>;
    try {
      pending = handler.ask(question, {
        signal: controller.signal,
        toolCallId: context.toolCallId,
        threadId: context.threadId,
        timeoutMs,
      });
    } catch (error) {
      settle({ kind: "failed", detail: describeError(error) });
      return;
    }
    Promise.resolve(pending).then(
      (answer) => settle({ kind: "answered", answer }),
      (error: unknown) => settle({ kind: "failed", detail: describeError(error) }),
    );
  });
}

/**
 * Formats a duration for a message: `"10 minutes"`, `"30 seconds"`, `"250 ms"`.
 *
 * @internal
 */
export function formatDuration(milliseconds: number): string {
  if (milliseconds >= 60_000 && milliseconds % 60_000 === 0) {
    const minutes = milliseconds / 60_000;
    return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  if (milliseconds >= 1_000 && milliseconds % 1_000 === 0) {
    const seconds = milliseconds / 1_000;
    return `${seconds} second${seconds === 1 ? "" : "s"}`;
  }
  return `${milliseconds} ms`;
}
