/** The formatter for what is not a safe integer, made on first use (making one costs ~10 ms). */
let countFormat: Intl.NumberFormat | undefined;

/** Groups a safe integer's digits by thousands, as `Intl.NumberFormat("en-US")` does. */
function groupDigits(value: number): string {
  const digits = String(Math.abs(value));
  let grouped = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const piece = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped.length === 0 ? piece : `${piece},${grouped}`;
  }
  return value < 0 ? `-${grouped}` : grouped;
}

/**
 * A count as the model reads it: digits grouped with commas (`12,345`), the same on every
 * machine whatever its locale.
 *
 * @param value - the number
 * @returns the grouped digits
 * @example
 * formatCount(1234567); // "1,234,567"
 */
export function formatCount(value: number): string {
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) return groupDigits(value);
  countFormat ??= new Intl.NumberFormat("en-US");
  return countFormat.format(value);
}

/**
 * A count with its noun, singular for exactly one: `1 file`, `12,345 files`.
 *
 * @param value - the number
 * @param one - the noun for one
 * @param many - the noun for any other count (default `one` + "s")
 * @returns the grouped count and the noun
 * @example
 * formatCountOf(1, "match"); // "1 match"
 * formatCountOf(1200, "match", "matches"); // "1,200 matches"
 */
export function formatCountOf(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

/**
 * Joins description sentences (or lines), dropping the empty ones — sentences left out because a
 * tool they name is not mounted.
 *
 * @param parts - the sentences; `undefined`, `false` and `""` are dropped
 * @param separator - between two kept parts (default a space; `"\n"` for lines)
 * @returns the joined text
 * @example
 * joinSentences(["Reads a file.", mounted.when("edit_file", "Edit it with edit_file.")]);
 */
export function joinSentences(
  parts: ReadonlyArray<string | undefined | false>,
  separator = " ",
): string {
  return parts
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .join(separator);
}

/**
 * Joins words as a sentence lists them: "a", "a or b", "a, b or c".
 *
 * @param items - the words
 * @param conjunction - the last joint (default `"or"`)
 * @returns the phrase
 * @example
 * listWords(["read_file", "grep_search", "glob_search"]); // "read_file, grep_search or glob_search"
 */
export function listWords(items: readonly string[], conjunction = "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/**
 * The message of anything thrown, without ever throwing itself (a hostile `message` getter or
 * `toString` gives `"unknown error"`), optionally cut for quoting to the model.
 *
 * @param error - anything thrown
 * @param maxCharacters - longest message returned; a longer one is cut and ends with `…`
 *   (default: no cut)
 * @returns its message
 * @example
 * errorMessage(new Error("x".repeat(500)), 300); // 300 characters, then "…"
 */
export function errorMessage(error: unknown, maxCharacters = Number.POSITIVE_INFINITY): string {
  let text: string;
  try {
    text = error instanceof Error ? error.message || error.name || "unknown error" : String(error);
  } catch {
    return "unknown error";
  }
  return text.length > maxCharacters ? `${text.slice(0, maxCharacters)}…` : text;
}
