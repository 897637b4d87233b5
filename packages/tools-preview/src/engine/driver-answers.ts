// The host side's checks of the page driver's answers. The driver runs inside the artifact, so
// everything it answers is page-controlled: a hostile page can patch the built-ins the driver
// relies on and answer anything. Nothing it answers reaches a response unchecked: every field
// is typed, every text and list capped, and a canvas shot must be a PNG under the size cap.
import type { PreviewActOutcome, PreviewConsoleEntry } from "../preview-backend.js";
import { PreviewError } from "../preview-backend.js";
import type {
  ConsoleBatch,
  DriverAnswer,
  DriverEvalResult,
  DriverLocation,
  DriverReadAnswer,
  DriverReadValue,
  DriverShot,
  DriverSummary,
} from "./driver-protocol.js";
import {
  MAX_CONSOLE_ENTRY_CHARACTERS,
  MAX_DRIVER_CONSOLE_ENTRIES,
  MAX_DRIVER_TEXT_CHARACTERS,
  MAX_EVAL_VALUE_CHARACTERS,
  MAX_READ_ANSWER_CHARACTERS,
  MAX_READ_MATCHES,
  MAX_SHOT_BYTES,
  MAX_SHOT_SIDE,
} from "./limits.js";

/** The PNG signature (8 bytes) as the start of its base64. */
const PNG_BASE64_START = "iVBORw0KGgo";
/** Longest base64 text of a canvas shot. */
const MAX_SHOT_BASE64_CHARACTERS = Math.ceil(MAX_SHOT_BYTES / 3) * 4;
/** What `typeof` answers (and `null`), the only value types an eval reports. */
const VALUE_TYPES = new Set([
  "undefined",
  "null",
  "object",
  "boolean",
  "number",
  "bigint",
  "string",
  "symbol",
  "function",
]);
/** Longest console level name (`uncaught`, `blocked`…). */
const MAX_LEVEL_CHARACTERS = 16;

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null;
}

/** A string cut at `limit` characters; anything else is `undefined`. */
function cappedText(value: unknown, limit: number): string | undefined {
  if (typeof value !== "string") return undefined;
  return value.length > limit ? value.slice(0, limit) : value;
}

/** A whole number ≥ 0 (anything else is 0). */
function wholeNumber(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The failure of an answer that is not what the driver answers. */
function malformed(method: string): PreviewError {
  return new PreviewError(
    "UNSUPPORTED",
    `The page driver's answer to ${method} is malformed: the artifact replaced or broke it (patched built-ins, or overwrote the preview's globals).`,
    'Do not patch built-ins or the preview\'s globals in the artifact; call preview with op "open" again after fixing it.',
  );
}

/**
 * Checks the envelope of a `withConsole` answer: the method's value and the console batch.
 *
 * @param answer - what the driver answered
 * @param method - the method called, for the message
 * @returns the answer, its console checked and capped
 * @throws PreviewError `UNSUPPORTED` when it is not an object
 */
export function checkDriverAnswer(answer: unknown, method: string): DriverAnswer {
  if (!isFields(answer)) throw malformed(method);
  const console = answer.console === undefined ? undefined : checkConsoleBatch(answer.console);
  return console === undefined ? { value: answer.value } : { value: answer.value, console };
}

/**
 * Checks a console batch: its number, and at most {@link MAX_DRIVER_CONSOLE_ENTRIES} entries of
 * capped text (the entries left out are counted as omitted).
 *
 * @param batch - what the driver handed out
 * @returns the batch, checked; `undefined` for anything that is not an object
 */
export function checkConsoleBatch(batch: unknown): ConsoleBatch | undefined {
  if (!isFields(batch)) return undefined;
  const raw = Array.isArray(batch.entries) ? batch.entries : [];
  const entries: PreviewConsoleEntry[] = [];
  let omitted = wholeNumber(batch.omitted);
  for (let index = 0; index < raw.length; index++) {
    const entry: unknown = raw[index];
    const text = isFields(entry) ? cappedText(entry.text, MAX_CONSOLE_ENTRY_CHARACTERS + 1) : "";
    if (entries.length >= MAX_DRIVER_CONSOLE_ENTRIES || !isFields(entry) || text === undefined) {
      omitted += 1;
      continue;
    }
    entries.push({
      level: cappedText(entry.level, MAX_LEVEL_CHARACTERS) ?? "log",
      text,
      count: Math.max(1, wholeNumber(entry.count)),
    });
  }
  return {
    ...(typeof batch.batch === "number" && Number.isSafeInteger(batch.batch)
      ? { batch: batch.batch }
      : {}),
    entries,
    omitted: Math.min(omitted, Number.MAX_SAFE_INTEGER),
  };
}

/**
 * Checks `evaluate`'s answer: the JSON cut at {@link MAX_EVAL_VALUE_CHARACTERS} with its true
 * length (never less than what arrived), one of `typeof`'s names, a capped error and stack.
 *
 * @param result - what the driver answered
 * @returns the result, checked
 * @throws PreviewError `UNSUPPORTED` when it is not an object
 */
export function checkEvalResult(result: unknown): DriverEvalResult {
  if (!isFields(result)) throw malformed("eval");
  if (result.error !== undefined) {
    const stack = cappedText(result.stack, MAX_DRIVER_TEXT_CHARACTERS);
    return {
      error:
        cappedText(result.error, MAX_DRIVER_TEXT_CHARACTERS) ??
        "the code threw something the page driver did not describe",
      ...(stack === undefined ? {} : { stack }),
    };
  }
  const json = typeof result.json === "string" ? result.json : undefined;
  const type =
    typeof result.type === "string" && VALUE_TYPES.has(result.type) ? result.type : "unknown";
  if (json === undefined) return { total: 0, type };
  return {
    json: cappedText(json, MAX_EVAL_VALUE_CHARACTERS) as string,
    total: Math.max(wholeNumber(result.total), json.length),
    type,
  };
}

/**
 * Checks `loaded` / `summary`: a capped title and whole numbers.
 *
 * @param summary - what the driver answered
 * @returns the summary, checked
 * @throws PreviewError `UNSUPPORTED` when it is not an object
 */
export function checkSummary(summary: unknown): DriverSummary {
  if (!isFields(summary)) throw malformed("open");
  return {
    title: cappedText(summary.title, MAX_DRIVER_TEXT_CHARACTERS) ?? "",
    canvases: wholeNumber(summary.canvases),
    width: wholeNumber(summary.width),
    height: wholeNumber(summary.height),
  };
}

/** One match's value: capped text and its length (never less than what arrived). */
function checkReadValue(value: unknown): DriverReadValue | null {
  if (!isFields(value) || typeof value.text !== "string") return null;
  return {
    text: cappedText(value.text, MAX_READ_ANSWER_CHARACTERS) as string,
    total: Math.max(wholeNumber(value.total), value.text.length),
  };
}

/**
 * Checks `read`'s answers against the queries asked: one answer per query (extras dropped),
 * the selector and attribute as asked, at most {@link MAX_READ_MATCHES} capped values.
 *
 * @param answers - what the driver answered
 * @param queries - the queries asked
 * @returns one checked answer per query
 * @throws PreviewError `UNSUPPORTED` when it is not a list
 */
export function checkReadAnswers(
  answers: unknown,
  queries: readonly { css: string; attr?: string | undefined }[],
): DriverReadAnswer[] {
  if (!Array.isArray(answers)) throw malformed("read");
  return queries.map((query, index) => {
    const answer: unknown = answers[index];
    const attr = query.attr ?? "text";
    if (!isFields(answer)) return { css: query.css, attr, error: "the page driver gave no answer" };
    const error = cappedText(answer.error, MAX_DRIVER_TEXT_CHARACTERS);
    const values = Array.isArray(answer.values)
      ? answer.values.slice(0, MAX_READ_MATCHES).map(checkReadValue)
      : [];
    return {
      css: query.css,
      attr,
      count: wholeNumber(answer.count),
      values,
      ...(error === undefined ? {} : { error }),
    };
  });
}

/**
 * Checks `locate`'s answer: finite coordinates, or a capped reason.
 *
 * @param location - what the driver answered
 * @returns the location, checked
 * @throws PreviewError `UNSUPPORTED` when it is not an object
 */
export function checkLocation(location: unknown): DriverLocation {
  if (!isFields(location)) throw malformed("act");
  if (location.error !== undefined)
    return { error: cappedText(location.error, MAX_DRIVER_TEXT_CHARACTERS) ?? "not clickable" };
  const x = location.x;
  const y = location.y;
  if (typeof x !== "number" || typeof y !== "number" || !Number.isFinite(x + y))
    throw malformed("act");
  return { x, y };
}

/**
 * Checks `shot`'s answer: a canvas shot is a PNG (by its signature) of at most
 * {@link MAX_SHOT_BYTES}, 1 to {@link MAX_SHOT_SIDE} pixels a side; a viewport answer carries
 * no image (the backend shoots it).
 *
 * @param shot - what the driver answered
 * @returns the shot, checked
 * @throws PreviewError `UNSUPPORTED` when malformed or not a PNG, `TOO_LARGE` over the cap
 */
export function checkShot(shot: unknown): DriverShot {
  if (!isFields(shot)) throw malformed("shot");
  const canvases = wholeNumber(shot.canvases);
  if (shot.source === "viewport") return { source: "viewport", canvases, width: 0, height: 0 };
  if (shot.source !== "canvas") throw malformed("shot");
  if (shot.error !== undefined)
    return {
      source: "canvas",
      canvases,
      width: 0,
      height: 0,
      error: cappedText(shot.error, MAX_DRIVER_TEXT_CHARACTERS) ?? "the canvas cannot be read",
    };
  const data = shot.data;
  if (typeof data !== "string") throw malformed("shot");
  if (data.length > MAX_SHOT_BASE64_CHARACTERS)
    throw new PreviewError(
      "TOO_LARGE",
      `The canvas shot is over ${MAX_SHOT_BYTES / 1024 / 1024} MiB.`,
      "Draw less noise into the canvas, or read the state with eval.",
    );
  if (!data.startsWith(PNG_BASE64_START) || !/^[A-Za-z0-9+/]*={0,2}$/.test(data))
    throw new PreviewError(
      "UNSUPPORTED",
      "The canvas shot is not a PNG: the artifact replaced or broke the canvas's toDataURL.",
      "Do not patch canvas built-ins in the artifact, or read the state with eval.",
    );
  const width = wholeNumber(shot.width);
  const height = wholeNumber(shot.height);
  if (width < 1 || height < 1 || width > MAX_SHOT_SIDE || height > MAX_SHOT_SIDE)
    throw malformed("shot");
  const selector = cappedText(shot.selector, MAX_DRIVER_TEXT_CHARACTERS);
  return {
    source: "canvas",
    ...(selector === undefined ? {} : { selector }),
    canvases,
    width,
    height,
    data,
  };
}

/**
 * Checks the outcome of `act` (the iframe backend's comes from the page driver): counts within
 * the actions asked for, a capped message.
 *
 * @param outcome - what the backend answered
 * @param actions - how many actions were asked for
 * @returns the outcome, checked
 * @throws PreviewError `UNSUPPORTED` when it is not an object
 */
export function checkActOutcome(outcome: unknown, actions: number): PreviewActOutcome {
  if (!isFields(outcome)) throw malformed("act");
  const completed = Math.min(wholeNumber(outcome.completed), actions);
  const failed = outcome.failed;
  if (!isFields(failed) || wholeNumber(failed.index) >= actions) return { completed };
  return {
    completed,
    failed: {
      index: wholeNumber(failed.index),
      message: cappedText(failed.message, MAX_DRIVER_TEXT_CHARACTERS) ?? "the action failed",
    },
  };
}
