import { fail, type ToolFailure } from "@agentool/contract";
import type { CommandOutputData } from "./run-command-data.js";

/** Why a command was stopped before it ended by itself. */
export type StopReason = "timeout" | "abort" | "output";

/**
 * The failure of a command that could not be started (`spawn` reported an error).
 *
 * @param executable - argv[0] as sent
 * @param error - the error
 * @returns the failure
 */
export function startFailure(executable: string, error: NodeJS.ErrnoException): ToolFailure {
  if (error.code === "ENOENT") {
    return fail(
      "DEPENDENCY_MISSING",
      `${executable} is allowed but could not be found (not installed or not on PATH).`,
      { hint: "Ask the user to install it, or use another allowed command." },
    );
  }
  if (error.code === "EACCES") {
    return fail("PERMISSION_DENIED", `${executable} could not be run: permission denied.`, {
      hint: "Ask the user to check the program's permissions.",
    });
  }
  return fail("INTERNAL", `${executable} could not be started: ${error.message}.`, {
    hint: "Check the command, or ask the user to run it.",
  });
}

/** What {@link stoppedFailure} reports. */
export interface StoppedCommand {
  readonly executable: string;
  readonly timeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly maxCapturedBytes: number;
  /** Both streams as shown. */
  readonly stdout: CommandOutputData;
  readonly stderr: CommandOutputData;
}

/**
 * The failure of a command stopped with its process group: `TIMEOUT` (with a hint on
 * `timeout_ms`, explaining milliseconds when it was tiny), `TOO_LARGE` (too much output) or
 * `ABORTED`; the first two end with its last output.
 *
 * @param reason - why it was stopped
 * @param command - the command, its limits and its output
 * @returns the failure
 */
export function stoppedFailure(reason: StopReason, command: StoppedCommand): ToolFailure {
  const { executable, timeoutMs, maxTimeoutMs } = command;
  if (reason === "abort") {
    return fail(
      "ABORTED",
      `${executable} was cancelled and stopped with its whole process group.`,
      { retryable: true },
    );
  }
  const lastOf = (stream: CommandOutputData) =>
    stream.omitted_lines > 0 ? stream.tail : stream.text;
  const tail = `${lastOf(command.stdout)}\n${lastOf(command.stderr)}`.trim().slice(-2000);
  const lastOutput = tail.length > 0 ? ` Last output:\n${tail}` : "";
  if (reason === "output") {
    return fail(
      "TOO_LARGE",
      `${executable} wrote more than ${command.maxCapturedBytes} bytes of output and was stopped with its whole process group.${lastOutput}`,
      {
        hint: "Run something that prints less: a filter, a count or limit flag, a narrower path or a quieter mode.",
      },
    );
  }
  return fail(
    "TIMEOUT",
    `${executable} was still running after ${timeoutMs} ms and was stopped with its whole process group.${lastOutput}`,
    {
      hint:
        timeoutMs < 1_000
          ? timeoutMs * 1_000 <= maxTimeoutMs
            ? `timeout_ms is in milliseconds: ${timeoutMs} is ${timeoutMs / 1_000} s. For ${timeoutMs} seconds pass timeout_ms=${timeoutMs * 1_000} (at most ${maxTimeoutMs}).`
            : `timeout_ms is in milliseconds: ${timeoutMs} is ${timeoutMs / 1_000} s. ${timeoutMs} seconds is more than allowed: pass at most timeout_ms=${maxTimeoutMs} (${maxTimeoutMs / 1_000} s), or run something that finishes sooner.`
          : `Pass a larger timeout_ms (at most ${maxTimeoutMs}), or run something that finishes sooner.`,
    },
  );
}
