import { errorMessage, fail, formatCount, isErrorCode, type ToolFailure } from "@agentool/contract";
import { PreviewError } from "../preview-backend.js";
import type { CutOffReason } from "./call-deadline.js";
import type { EngineSettings } from "./engine-options.js";
import type { PreviewSession } from "./preview-session.js";
import type { SessionPool } from "./session-pool.js";

/**
 * The failure of a call that threw. A {@link PreviewError} is thrown on: the tool's `run` maps
 * it to the envelope with its own code, message and hint. Another error with a shared code
 * keeps it; anything else is `INTERNAL`.
 *
 * @param settings - the engine's settings (the tool's name)
 * @param error - what the call threw
 * @param op - the op, for the message
 * @returns the failure envelope
 * @throws the error itself when it is a {@link PreviewError}
 */
export function callFailure(settings: EngineSettings, error: unknown, op: string): ToolFailure {
  if (PreviewError.isInstance(error)) throw error;
  const { name } = settings;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && isErrorCode(code))
    return fail(code, `${name} ${op}: ${errorMessage(error)}`, {
      hint: (error as { hint?: string }).hint ?? "Check the path, then call again.",
    });
  return fail("INTERNAL", `${name} ${op} failed: ${errorMessage(error)}`, {
    hint: `Call ${name} with op "open" to start over; if it keeps failing, report it.`,
  });
}

/**
 * The failure of a call cut off at its deadline or by the caller: the backend stops the running
 * script if it can, and the message says whether the session survived (it is ended if not).
 *
 * @param pool - the sessions
 * @param settings - the engine's settings
 * @param session - the session the call ran on
 * @param why - what cut the call off
 * @param what - the call, for the message (`eval`, `open of game.html`)
 * @returns `ABORTED` or `TIMEOUT`
 */
export async function cutOffFailure(
  pool: SessionPool,
  settings: EngineSettings,
  session: PreviewSession,
  why: CutOffReason | undefined,
  what: string,
): Promise<ToolFailure> {
  const { name, deadlineMs } = settings;
  const state = session.closed
    ? "closed"
    : await session.backend.recover().catch(() => "closed" as const);
  if (state === "closed")
    void pool.end(session, `the session on ${session.path} was closed after ${what} was cut off`);
  if (why === "aborted")
    return fail(
      "ABORTED",
      `${name} ${what} was cancelled; the session is ${state === "usable" ? "still open" : "closed"}.`,
      { retryable: true },
    );
  const survived =
    state === "usable"
      ? "its running script was stopped and the session is still open — read or eval to inspect it"
      : `the session had to be closed — fix the artifact and call ${name} with op "open" again`;
  return fail(
    "TIMEOUT",
    `${name} ${what} did not finish within ${formatCount(deadlineMs)} ms (a long or infinite loop in the artifact or the code?); ${survived}.`,
    {
      hint: "Look for loops that never yield (while(true), a missing exit condition), and keep waits short.",
      retryable: true,
    },
  );
}
