import { checkEvalResult } from "../driver-answers.js";
import type { DriverEvalResult } from "../driver-protocol.js";
import { MAX_EVAL_VALUE_CHARACTERS } from "../limits.js";
import type { PreviewToolData } from "../preview-data.js";
import type { SessionWork } from "./session-work.js";

/**
 * The eval fields of a response from the driver's answer.
 *
 * @param result - what `evaluate` answered
 * @returns `thrown`, or the value's JSON, type, length and whether it was cut
 */
export function toEvalFields(result: DriverEvalResult): Partial<PreviewToolData> {
  if (result.error !== undefined) return { thrown: result.error };
  return {
    value_json: result.json ?? null,
    value_type: result.type ?? "undefined",
    value_characters: result.total ?? 0,
    value_truncated: (result.total ?? 0) > (result.json?.length ?? 0),
  };
}

/**
 * `eval`: the driver runs the code inside the artifact — a bare expression answers its value, as a
 * developer console does; anything else runs as an async function body (`return` answers).
 *
 * @param code - an expression or a function body
 * @returns the op's work
 */
export function evalWork(code: string): SessionWork {
  return async (session, signal) =>
    toEvalFields(
      checkEvalResult(
        await session.callDriver("evaluate", [code, MAX_EVAL_VALUE_CHARACTERS], signal),
      ),
    );
}
