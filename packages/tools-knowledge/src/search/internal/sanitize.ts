/**
 * The write path's default text clean-up, and the junk-floor measure.
 *
 * @internal
 */

// C0 controls except tab (U+0009) and line feed (U+000A), DEL (U+007F) and the C1 controls
// (U+0080–U+009F). Scraped PDFs carry U+0001–U+0005 and U+000E; they are pure embedding noise and
// a NUL byte breaks the PostgreSQL wire protocol on insert.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const ALPHANUMERIC = /[\p{L}\p{N}]/gu;

/**
 * The default sanitizer of `ingest`: strips C0 and C1 control characters (and DEL), keeping tab
 * and line feed. A carriage return is a C0 character too (chunk texts hold none: the chunker
 * normalises CRLF). Linear; returns the same string when there is nothing to strip.
 *
 * @param text - a chunk's text
 * @returns the text without control characters
 * @example
 * sanitizeText("Vout\u0002 = 5 V\tmax\n"); // "Vout = 5 V\tmax\n"
 * @internal
 */
export function sanitizeText(text: string): string {
  CONTROL_CHARACTERS.lastIndex = 0;
  if (!CONTROL_CHARACTERS.test(text)) return text;
  return text.replace(CONTROL_CHARACTERS, "");
}

/**
 * Counts the letters and digits of a text (any script; not marks, punctuation or spaces) — the
 * measure of `ingest`'s `minAlnumChars` floor. `| 200-400mA | 5V |` counts 10; `---` counts 0.
 *
 * @param text - a chunk's text
 * @param stopAt - stop counting once this many are found (the floor), so a long chunk costs little
 * @returns how many letters and digits it holds (at most `stopAt`)
 * @internal
 */
export function countAlphanumericCharacters(
  text: string,
  stopAt: number = Number.POSITIVE_INFINITY,
): number {
  let count = 0;
  ALPHANUMERIC.lastIndex = 0;
  while (count < stopAt && ALPHANUMERIC.exec(text) !== null) count += 1;
  ALPHANUMERIC.lastIndex = 0;
  return count;
}
