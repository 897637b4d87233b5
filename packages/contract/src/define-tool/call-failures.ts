import { ToolFailureError } from "../authoring/tool-failure-error.js";
import { fail, isToolResult, type ToolFailure, type ToolResult } from "../result.js";

/**
 * The failure envelope of anything a call threw: a coded {@link ToolFailureError} (also as a
 * `cause`) keeps its code and hint; anything else is `INTERNAL`.
 *
 * @param name - the tool's name
 * @param error - what was thrown
 * @returns the failure
 * @internal
 */
export function internalError(name: string, error: unknown): ToolFailure {
  // An expected failure thrown from inside (a seam's coded error) keeps its code and hint.
  const coded = ToolFailureError.find(error);
  if (coded !== undefined) return coded.toFailure();
  let detail: string;
  try {
    detail = error instanceof Error ? error.message : String(error);
  } catch {
    detail = "unknown error";
  }
  return fail("INTERNAL", `${name} failed unexpectedly: ${detail || "unknown error"}`, {
    hint: "Check the arguments; if they are right, try another approach or report the problem.",
  });
}

/**
 * What `execute` returned, when it is an envelope; else an `INTERNAL` failure naming the bug.
 *
 * @param name - the tool's name
 * @param result - what `execute` returned (or its promise resolved to)
 * @returns the envelope
 * @internal
 */
export function checkResult<Output>(name: string, result: unknown): ToolResult<Output> {
  if (isToolResult(result)) return result as ToolResult<Output>;
  return fail("INTERNAL", `${name} returned a malformed result (not an ok()/fail() envelope).`, {
    hint: "This is a bug in the tool; report it. Try another approach meanwhile.",
  });
}
