import { checkReadAnswers } from "../driver-answers.js";
import type { DriverReadAnswer } from "../driver-protocol.js";
import { MAX_READ_ANSWER_CHARACTERS, MAX_READ_MATCHES } from "../limits.js";
import type { PreviewReadAnswer } from "../preview-data.js";
import type { SessionWork } from "./session-work.js";

/** One query of `read`. */
export interface PreviewQuery {
  /** A CSS selector. */
  css: string;
  /** `text` (default), `html`, `value` or an attribute name. */
  attr?: string | undefined;
}

/**
 * One query's answer for the model: the values of its matches share one character budget.
 *
 * @param answer - the driver's answer
 * @returns the answer, with what the cap left out
 */
export function toReadAnswer(answer: DriverReadAnswer): PreviewReadAnswer {
  let budget = MAX_READ_ANSWER_CHARACTERS;
  let omitted = 0;
  const values = (answer.values ?? []).map((value) => {
    if (value === null) return null;
    const text = value.text.slice(0, Math.max(0, budget));
    omitted += value.total - text.length;
    budget -= text.length;
    return text;
  });
  return {
    css: answer.css,
    attr: answer.attr,
    count: answer.count ?? 0,
    values,
    truncated: omitted > 0,
    ...(omitted > 0 ? { omitted_characters: omitted } : {}),
    ...(answer.error === undefined ? {} : { error: answer.error }),
  };
}

/**
 * `read`: the driver queries the DOM.
 *
 * @param queries - the queries
 * @returns the op's work
 */
export function readWork(queries: readonly PreviewQuery[]): SessionWork {
  return async (session, signal) => {
    const raw = await session.callDriver(
      "read",
      [queries, { maxMatches: MAX_READ_MATCHES, maxCharacters: MAX_READ_ANSWER_CHARACTERS }],
      signal,
    );
    return { answers: checkReadAnswers(raw, queries).map(toReadAnswer) };
  };
}
