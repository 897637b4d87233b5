import type { ToolContext } from "@agentool/contract";
import { AgentoolError, errorMessage } from "@agentool/contract";
import { z } from "zod";
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

/** Longest handler failure quoted to the model. */
const QUOTED_MESSAGE_CHARACTERS = 500;

function describeError(error: unknown): string {
  return errorMessage(error, QUOTED_MESSAGE_CHARACTERS) || "unknown error";
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

/** Most seconds `timeout_seconds` accepts when the host sets no maximum: 24 hours. */
const MAX_WAIT_SECONDS = 86_400;

/**
 * How long a waiting tool waits: the host's default and the most a call may ask for.
 *
 * @internal
 */
export interface WaitLimits {
  /** The wait when the call sends no `timeout_seconds` (`0` = no limit). */
  defaultMs: number;
  /** The longest wait a call may ask for (`0` = no limit). */
  maxMs: number;
}

/**
 * Reads the `timeoutMs` / `maxTimeoutMs` options into {@link WaitLimits}. The maximum defaults to
 * the default wait (a call may then only shorten it); a maximum below the default, or a limited
 * maximum over an unlimited default, is a set-up mistake.
 *
 * @internal
 */
export function resolveWaitLimits(
  owner: string,
  defaultMs: number,
  maxTimeoutMs: number | undefined,
): WaitLimits {
  const maxMs = maxTimeoutMs ?? defaultMs;
  if (maxMs !== 0 && (defaultMs === 0 || maxMs < defaultMs)) {
    throw new AgentoolError(
      `${owner}: maxTimeoutMs (${maxMs}) must be at least timeoutMs (${defaultMs === 0 ? "0 = no limit" : defaultMs}); use 0 for no limit.`,
    );
  }
  return { defaultMs, maxMs };
}

/**
 * The `timeout_seconds` input field, bounded by the host's maximum.
 *
 * @internal
 */
export function timeoutSecondsField(limits: WaitLimits) {
  const maxSeconds =
    limits.maxMs === 0 ? MAX_WAIT_SECONDS : Math.max(1, Math.floor(limits.maxMs / 1_000));
  const fallback =
    limits.defaultMs === 0 ? "no limit" : `${Math.max(1, Math.round(limits.defaultMs / 1_000))}`;
  return z
    .number()
    .int()
    .min(1)
    .max(maxSeconds)
    .optional()
    .describe(`Seconds to wait (default ${fallback}, at most ${maxSeconds}).`);
}

/**
 * The wait of one call: its `timeout_seconds` (bounded by the maximum), or the default.
 *
 * @internal
 */
export function waitForCall(limits: WaitLimits, timeoutSeconds: number | undefined): number {
  if (timeoutSeconds === undefined) return limits.defaultMs;
  const asked = timeoutSeconds * 1_000;
  return limits.maxMs === 0 ? asked : Math.min(asked, limits.maxMs);
}

/**
 * The `timeoutMs` to give `defineTool` for a tool whose calls wait at most `limits.maxMs`.
 *
 * @internal
 */
export function contractTimeoutForLimits(limits: WaitLimits): number {
  return limits.defaultMs === 0 || limits.maxMs === 0 ? 0 : contractTimeoutFor(limits.maxMs);
}

/**
 * Describes the wait for a tool description: `" within 10 minutes (timeout_seconds can shorten
 * it)"`, `""` without a limit.
 *
 * @internal
 */
export function describeWait(limits: WaitLimits): string {
  if (limits.defaultMs === 0) return "";
  const change =
    limits.maxMs === limits.defaultMs
      ? "timeout_seconds can shorten it"
      : limits.maxMs === 0
        ? "timeout_seconds changes it"
        : `timeout_seconds changes it, up to ${formatDuration(limits.maxMs)}`;
  return ` within ${formatDuration(limits.defaultMs)} (${change})`;
}
