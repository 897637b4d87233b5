/**
 * Why an `old_text` was not found: indentation or whitespace that differ (with the file's lines
 * as they are), or the region of the file most like it.
 *
 * @internal
 */

import {
  containsPrivateKey,
  createPrivateKeyLineScanner,
  PRIVATE_KEY_REDACTION,
} from "@agentool/contract";
import type { EditFailure } from "./edit-match.js";
import { SequenceMatcher } from "./sequence-matcher.js";

/**
 * A line without its trailing spaces, tabs and `\r` — a loop, linear on any line (the regular
 * expression `/[ \t\r]+$/` takes seconds on a long run of spaces that does not end the line).
 *
 * @param line - one line
 * @returns the line without trailing spaces, tabs and carriage returns
 * @internal
 */
export function trimTrailingWhitespace(line: string): string {
  let end = line.length;
  while (end > 0) {
    const code = line.charCodeAt(end - 1);
    if (code !== 32 && code !== 9 && code !== 13) break;
    end -= 1;
  }
  return end === line.length ? line : line.slice(0, end);
}

/** The lines of a needle to compare line by line (without a final empty one). */
function needleLines(needle: string): string[] {
  const lines = needle.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Every index ≥ `from` where `pattern` occurs in `values`, in order, until `accept` has accepted
 * `max` of them (linear however repetitive both are).
 */
function occurrences(
  values: (index: number) => string,
  length: number,
  pattern: readonly string[],
  from: number,
  accept: (index: number) => boolean,
  max: number,
): number[] {
  const matcher = new SequenceMatcher(pattern);
  const found: number[] = [];
  for (let index = from; index < length && found.length < max; index += 1) {
    if (matcher.push(values(index))) {
      const start = index - pattern.length + 1;
      if (accept(start)) found.push(start);
    }
  }
  return found;
}

/**
 * Finds where `needle` matches `text` line by line once each line is normalised (indentation
 * or whitespace ignored): the 1-based first lines of up to 10 matches. The first needle line
 * may be the end of a file line, the last one its start. Linear: each file line is normalised
 * once and the whole lines between the first and the last are found by Knuth–Morris–Pratt.
 *
 * @internal
 */
export function findLooseMatches(
  text: string,
  needle: string,
  normalize: (line: string) => string,
): number[] {
  const wanted = needleLines(needle).map(normalize);
  if (wanted.every((line) => line.length === 0)) return [];
  const fileLines = text.split("\n");
  const normalized = new Array<string | undefined>(fileLines.length);
  const at = (index: number) => {
    let value = normalized[index];
    if (value === undefined) {
      value = normalize(fileLines[index] as string);
      normalized[index] = value;
    }
    return value;
  };
  const last = wanted.length - 1;
  const first = wanted[0] as string;
  const final = wanted[last] as string;
  const edgesMatch = (start: number) =>
    start >= 0 &&
    start + wanted.length <= fileLines.length &&
    (last === 0
      ? at(start).includes(first)
      : at(start).endsWith(first) && at(start + last).startsWith(final));
  if (wanted.length <= 2) {
    const matches: number[] = [];
    for (let start = 0; start + wanted.length <= fileLines.length; start += 1) {
      if (edgesMatch(start)) matches.push(start + 1);
      if (matches.length >= 10) break;
    }
    return matches;
  }
  // The whole lines between the first and the last, then the two edges around each place they
  // occur; the 0-based index of the second line is the 1-based number of the first.
  return occurrences(
    at,
    fileLines.length - 1,
    wanted.slice(1, last),
    1,
    (second) => edgesMatch(second - 1),
    10,
  );
}

/** A line without its leading spaces and tabs and its trailing whitespace (loops, no regex). */
function ignoreIndentation(line: string): string {
  let start = 0;
  while (start < line.length) {
    const code = line.charCodeAt(start);
    if (code !== 32 && code !== 9) break;
    start += 1;
  }
  return trimTrailingWhitespace(start === 0 ? line : line.slice(start));
}
const ignoreWhitespace = (line: string) => line.replace(/\s+/g, " ").trim();

/**
 * Names an indentation: `"4 spaces"`, `"2 tabs"`, `"1 tab and 2 spaces"`, `"no indentation"`.
 *
 * @internal
 */
export function describeIndentation(line: string): string {
  const indentation = /^[ \t]*/.exec(line)?.[0] ?? "";
  if (indentation.length === 0) return "no indentation";
  const tabs = [...indentation].filter((character) => character === "\t").length;
  const spaces = indentation.length - tabs;
  const parts: string[] = [];
  if (tabs > 0) parts.push(`${tabs} tab${tabs === 1 ? "" : "s"}`);
  if (spaces > 0) parts.push(`${spaces} space${spaces === 1 ? "" : "s"}`);
  return parts.join(" and ");
}

function excerptLines(text: string, from: number, to: number): string {
  const lines = text.split("\n");
  const excerpt: string[] = [];
  for (let number = Math.max(1, from); number <= Math.min(lines.length, to); number += 1) {
    let content = (lines[number - 1] as string).replace(/\r$/, "");
    if (content.length > MAX_EXCERPT_LINE_CHARACTERS)
      content = `${content.slice(0, MAX_EXCERPT_LINE_CHARACTERS)}…`;
    excerpt.push(`${String(number).padStart(6)}\t${content}`);
  }
  return excerpt.join("\n");
}

/** Explains a needle that matches only when indentation or whitespace is ignored. */
function* explainWhitespace(text: string, needle: string): Generator<void, string | undefined> {
  const wanted = needleLines(needle);
  const indented = findLooseMatches(text, needle, ignoreIndentation);
  if (indented.length > 0) {
    const first = indented[0] as number;
    const fileLines = text.split("\n");
    const differences: string[] = [];
    wanted.forEach((line, index) => {
      const fileLine = (fileLines[first - 1 + index] as string).replace(/\r$/, "");
      // The first needle line may start inside the file line: compare only whole lines.
      if (
        index === 0 &&
        wanted.length > 1 &&
        ignoreIndentation(fileLine) !== ignoreIndentation(line)
      )
        return;
      const ours = describeIndentation(fileLine);
      const theirs = describeIndentation(line);
      if (ours !== theirs && differences.length < 6) {
        differences.push(`line ${first + index}: the file has ${ours}, old_text has ${theirs}`);
      }
    });
    const where =
      indented.length === 1
        ? `line${wanted.length === 1 ? ` ${first}` : `s ${first}–${first + wanted.length - 1}`}`
        : `${indented.length >= 10 ? "10 or more" : indented.length} places (lines ${indented.join(", ")})`;
    return [
      ` Only the indentation differs: old_text matches ${where} when indentation is ignored.`,
      ...(differences.length > 0 ? [differences.join("; ")] : []),
      `The file's lines as they are (cat -n style, indentation kept):`,
      excerptLines(text, first, first + Math.min(wanted.length, MAX_EXCERPT_LINES) - 1),
    ].join("\n");
  }
  yield;
  const spaced = findLooseMatches(text, needle, ignoreWhitespace);
  if (spaced.length > 0) {
    const first = spaced[0] as number;
    return [
      ` Only whitespace differs: old_text matches ${spaced.length === 1 ? "line" : `${spaced.length >= 10 ? "10 or more" : spaced.length} places, first line`} ${first} when spaces and tabs inside lines are ignored. The file's lines, quoted so every space shows:`,
      text
        .split("\n")
        .slice(first - 1, first - 1 + Math.min(wanted.length, MAX_EXCERPT_LINES))
        .map(
          (line, index) =>
            `${String(first + index).padStart(6)}\t${JSON.stringify(line.replace(/\r$/, ""))}`,
        )
        .join("\n"),
    ].join("\n");
  }
  return undefined;
}

/** Where a not-found message is about: the edit's label, the file, a note on line-number prefixes. */
export interface NotFoundContext {
  /** A prefix naming the edit, e.g. `"edits[2]: "`. */
  label: string;
  /** The file as shown to the model. */
  display: string;
  /** What the prefixes of `old_text` had to do with it (`""`: nothing). */
  note: string;
}

/**
 * The `PATTERN_NOT_FOUND` failure for a needle not in the file: indentation or whitespace that
 * differ (the file's lines shown as they are), else the closest region and where to re-read.
 *
 * @param text - the file's text
 * @param needle - `old_text` (without line-number prefixes when they were recognised)
 * @param context - the label, the file and the prefix note
 * @returns the failure
 * @internal
 */
export function explainNotFound(
  text: string,
  needle: string,
  context: NotFoundContext,
): EditFailure {
  const steps = notFoundSteps(text, needle, context);
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

/**
 * {@link explainNotFound} in steps (each a pass over the file), awaiting `pause` between them so
 * a caller on a long file can let the event loop turn.
 *
 * @param text - the file's text
 * @param needle - the text not found
 * @param context - the label, the file and the prefix note
 * @param pause - awaited between steps (it may throw to stop)
 * @returns the failure, as {@link explainNotFound} gives it
 * @internal
 */
export async function explainNotFoundInSteps(
  text: string,
  needle: string,
  context: NotFoundContext,
  pause: () => Promise<void>,
): Promise<EditFailure> {
  const steps = notFoundSteps(text, needle, context);
  let step = steps.next();
  while (step.done !== true) {
    await pause();
    step = steps.next();
  }
  return step.value;
}

function* notFoundSteps(
  text: string,
  needle: string,
  context: NotFoundContext,
): Generator<void, EditFailure> {
  const failure = yield* describeNotFound(text, needle, context);
  if (!containsPrivateKey(text)) return failure;
  yield;
  return { ...failure, message: redactExcerpts(failure.message, text) };
}

/**
 * The file's lines quoted in a message (`%6d\t…`, plain or JSON-quoted) that belong to a
 * private-key block, replaced by the note: a closest region or an indentation excerpt must not
 * show a key that read_file would have redacted.
 */
function redactExcerpts(message: string, text: string): string {
  const keyLines = new Set<number>();
  const isKeyLine = createPrivateKeyLineScanner();
  for (const [index, line] of text.split("\n").entries()) {
    if (isKeyLine(line)) keyLines.add(index + 1);
  }
  return message.replace(/^( *(\d+)\t).*$/gm, (line, prefix: string, number: string) =>
    keyLines.has(Number(number)) ? `${prefix}${PRIVATE_KEY_REDACTION}` : line,
  );
}

/** {@link explainNotFound} before its excerpts are redacted, a step per pass over the file. */
function* describeNotFound(
  text: string,
  needle: string,
  context: NotFoundContext,
): Generator<void, EditFailure> {
  const { label, display, note } = context;
  const whitespace = yield* explainWhitespace(text, needle);
  if (whitespace !== undefined) {
    return {
      code: "PATTERN_NOT_FOUND",
      message: `${label}old_text was not found in ${display}.${note}${whitespace}`,
      hint: `Copy old_text again with the file's exact indentation and spacing, as shown above${note.length > 0 ? ", without the line-number prefixes" : ""}.`,
    };
  }
  yield;
  const region = findClosestRegion(text, needle);
  const closest =
    region === undefined
      ? " Nothing in the file resembles it."
      : ` The closest region is at line${region.startLine === region.endLine ? ` ${region.startLine}` : `s ${region.startLine}–${region.endLine}`}:\n${region.excerpt}`;
  return {
    code: "PATTERN_NOT_FOUND",
    message: `${label}old_text was not found in ${display}.${note}${closest}`,
    hint: `Re-read ${display} with read_file${region === undefined ? "" : ` (offset=${Math.max(1, region.startLine - 5)})`} and copy old_text exactly as it is now, including whitespace and indentation (without the line-number prefix).`,
  };
}

/** The region of a file most like a text that was not found. */
export interface ClosestRegion {
  /** First line (1-based). */
  startLine: number;
  /** Last line. */
  endLine: number;
  /** The region with a line of context each side, `cat -n` style, lines cut to 200 characters. */
  excerpt: string;
}

const MAX_EXCERPT_LINES = 12;
const MAX_EXCERPT_LINE_CHARACTERS = 200;
const MAX_SIMILARITY_LINES = 200_000;

function bigrams(text: string): Map<string, number> {
  const result = new Map<string, number>();
  for (let index = 0; index + 1 < text.length; index += 1) {
    const pair = text.slice(index, index + 2);
    result.set(pair, (result.get(pair) ?? 0) + 1);
  }
  return result;
}

function dice(first: Map<string, number>, firstSize: number, text: string): number {
  if (firstSize === 0 || text.length < 2) return 0;
  const seen = new Map<string, number>();
  let shared = 0;
  for (let index = 0; index + 1 < text.length; index += 1) {
    const pair = text.slice(index, index + 2);
    const available = (first.get(pair) ?? 0) - (seen.get(pair) ?? 0);
    if (available > 0) {
      shared += 1;
      seen.set(pair, (seen.get(pair) ?? 0) + 1);
    }
  }
  return (2 * shared) / (firstSize + text.length - 1);
}

/**
 * Finds the region of `text` most like `needle`: the window of lines sharing most trimmed lines
 * with it, else the single line most similar (character bigrams) to its longest line.
 *
 * @internal
 */
export function findClosestRegion(text: string, needle: string): ClosestRegion | undefined {
  const lines = text.split("\n");
  const needleLines = needle
    .split("\n")
    .map((line) => line.trim())
    .filter((line, index, all) => !(index === all.length - 1 && line.length === 0));
  const wanted = new Set(needleLines.filter((line) => line.length > 0));
  if (wanted.size === 0) return undefined;
  const window = Math.max(1, needleLines.length);
  let bestStart = -1;
  let bestScore = 0;
  let score = 0;
  const hits = new Uint8Array(lines.length);
  for (let index = 0; index < lines.length; index += 1) {
    hits[index] = wanted.has((lines[index] as string).trim()) ? 1 : 0;
    score += hits[index] as number;
    if (index >= window) score -= hits[index - window] as number;
    if (score > bestScore) {
      bestScore = score;
      bestStart = Math.max(0, index - window + 1);
    }
  }
  let startLine: number;
  let endLine: number;
  if (bestStart !== -1) {
    // Trim the window to the lines that matched.
    let first = bestStart;
    let last = Math.min(lines.length - 1, bestStart + window - 1);
    while (first < last && hits[first] === 0) first += 1;
    while (last > first && hits[last] === 0) last -= 1;
    startLine = first + 1;
    endLine = last + 1;
  } else {
    const longest = [...wanted].reduce(
      (best, line) => (line.length > best.length ? line : best),
      "",
    );
    const pairs = bigrams(longest);
    let bestSimilarity = 0.3;
    let bestLine = -1;
    const limit = Math.min(lines.length, MAX_SIMILARITY_LINES);
    for (let index = 0; index < limit; index += 1) {
      const candidate = (lines[index] as string).trim();
      if (candidate.length === 0 || Math.abs(candidate.length - longest.length) > longest.length)
        continue;
      const similarity = dice(pairs, longest.length - 1, candidate);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        bestLine = index;
      }
    }
    if (bestLine === -1) return undefined;
    startLine = bestLine + 1;
    endLine = bestLine + 1;
  }
  const from = Math.max(1, startLine - 1);
  const to = Math.min(lines.length, endLine + 1, from + MAX_EXCERPT_LINES - 1);
  const excerpt: string[] = [];
  for (let number = from; number <= to; number += 1) {
    let content = (lines[number - 1] as string).replace(/\r$/, "");
    if (content.length > MAX_EXCERPT_LINE_CHARACTERS)
      content = `${content.slice(0, MAX_EXCERPT_LINE_CHARACTERS)}…`;
    excerpt.push(`${String(number).padStart(6)}\t${content}`);
  }
  return { startLine, endLine, excerpt: excerpt.join("\n") };
}
