/**
 * The str_replace matching shared by `edit_file` and `multi_edit`: one literal replacement with
 * the exact-then-tolerant matching rules, read_file's line-number prefixes recognised and
 * removed, and the failure explained (see edit-diagnosis.ts) when the text is not found.
 *
 * @internal
 */

import { explainNotFound, trimTrailingWhitespace } from "./edit-diagnosis.js";
import { countNewlines } from "./unified-diff.js";

/** One literal replacement. */
export interface TextEdit {
  /** The text to find (literal). */
  oldText: string;
  /** What replaces it (literal; no `$&` expansion). Empty deletes. */
  newText: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean;
}

/** How `old_text` was found. */
export type MatchKind = "exact" | "line-endings" | "trailing-whitespace";

/** A replacement that went through. */
export interface AppliedEdit {
  /** The text after the replacement. */
  text: string;
  /** How many occurrences were replaced. */
  replacements: number;
  /** Whether the match was exact or tolerated line-ending / trailing-whitespace differences. */
  matchKind: MatchKind;
  /**
   * Whether `oldText` (and `newText`, when it had them too) carried read_file's line-number
   * prefixes, removed before matching because the text without them matched one place.
   */
  strippedLineNumbers: boolean;
  /** 1-based line numbers (in the text before) where each replaced occurrence started. */
  lines: number[];
  /** What was replaced, as positions in the text before (ascending, not overlapping). */
  splices: Splice[];
}

/** One replacement: `[start, end)` of the text before became `replacement`. */
export interface Splice {
  /** Start (UTF-16 index) in the text before. */
  start: number;
  /** End (exclusive) in the text before. */
  end: number;
  /** The text that replaced it. */
  replacement: string;
}

/** Why a replacement did not go through. */
export interface EditFailure {
  /** The shared error code. */
  code: "PATTERN_NOT_FOUND" | "PATTERN_NOT_UNIQUE" | "INVALID_INPUT";
  /** What went wrong. */
  message: string;
  /** What to do next. */
  hint: string;
}

/** Options of {@link applyTextEdit}. */
export interface ApplyEditOptions {
  /** The file as shown to the model. */
  display: string;
  /** A prefix naming the edit in messages, e.g. `"edits[2]: "`. Default `""`. */
  label?: string;
  /** Most match line numbers listed in a `PATTERN_NOT_UNIQUE` message. Default 50. */
  maxListedLines?: number;
}

type Range = { start: number; end: number };

function exactRanges(text: string, needle: string): Range[] {
  const ranges: Range[] = [];
  let index = text.indexOf(needle);
  while (index !== -1) {
    ranges.push({ start: index, end: index + needle.length });
    index = text.indexOf(needle, index + needle.length);
  }
  return ranges;
}

/** A line without its final `\r`. */
function trimCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/**
 * Finds `needle` in `text` after removing, before every `\n` of both, either `\r` or all trailing
 * spaces, tabs and `\r`; maps the matches back to ranges of the original text.
 */
function tolerantRanges(
  text: string,
  needle: string,
  trailing: (line: string) => string,
): Range[] | undefined {
  const normalizedNeedle = needle
    .split("\n")
    .map((line, index, all) => (index < all.length - 1 ? trailing(line) : line));
  const needleText = normalizedNeedle.join("\n");
  if (needleText.length === 0) return undefined;
  const lines = text.split("\n");
  const originalStarts = new Float64Array(lines.length);
  const normalizedStarts = new Float64Array(lines.length);
  const normalizedLines: string[] = new Array(lines.length);
  let original = 0;
  let normalized = 0;
  let changed = needleText !== needle;
  lines.forEach((line, index) => {
    originalStarts[index] = original;
    normalizedStarts[index] = normalized;
    const stripped = index < lines.length - 1 ? trailing(line) : line;
    if (stripped.length !== line.length) changed = true;
    normalizedLines[index] = stripped;
    original += line.length + 1;
    normalized += stripped.length + 1;
  });
  if (!changed) return undefined;
  const haystack = normalizedLines.join("\n");
  const lineOf = (position: number): number => {
    let low = 0;
    let high = lines.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((normalizedStarts[middle] as number) <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const toOriginal = (position: number): number => {
    const line = lineOf(position);
    return (originalStarts[line] as number) + position - (normalizedStarts[line] as number);
  };
  return exactRanges(haystack, needleText).map((range) => ({
    start: toOriginal(range.start),
    end: toOriginal(range.end),
  }));
}

/**
 * The tolerances tried, in order, when old_text (or a patch hunk) does not match exactly: each
 * line's `\r` only, then all its trailing whitespace.
 *
 * @internal
 */
export const TOLERANCES: ReadonlyArray<readonly [MatchKind, (line: string) => string]> = [
  ["line-endings", trimCarriageReturn],
  ["trailing-whitespace", trimTrailingWhitespace],
];

function findRanges(text: string, needle: string): { ranges: Range[]; matchKind: MatchKind } {
  const ranges = exactRanges(text, needle);
  if (ranges.length > 0) return { ranges, matchKind: "exact" };
  for (const [matchKind, trailing] of TOLERANCES) {
    const tolerant = tolerantRanges(text, needle, trailing);
    if (tolerant !== undefined && tolerant.length > 0) return { ranges: tolerant, matchKind };
  }
  return { ranges: [], matchKind: "exact" };
}

/**
 * Lists the lines of occurrences for the model, one entry a line: several occurrences on one
 * line read `12 (3×)`, never `12, 12, 12`.
 *
 * @param lines - 1-based line of each occurrence, ascending
 * @param max - most distinct lines listed; the rest are counted
 * @returns e.g. `1 (2×), 2, 3 (2×)` or `1, 2, … and 40 more`
 * @internal
 */
export function listLines(lines: readonly number[], max: number): string {
  const groups: Array<[number, number]> = [];
  for (const line of lines) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0] === line) last[1] += 1;
    else groups.push([line, 1]);
  }
  const shown = groups
    .slice(0, max)
    .map(([line, count]) => (count === 1 ? String(line) : `${line} (${count}×)`))
    .join(", ");
  if (groups.length <= max) return shown;
  const rest = groups.slice(max).reduce((sum, [, count]) => sum + count, 0);
  return `${shown} and ${rest} more`;
}

/** How many distinct lines {@link listLines} lists (for "line" / "lines"). */
export function distinctLineCount(lines: readonly number[]): number {
  return new Set(lines).size;
}

/** read_file's line-number prefix (`%6d\t`), or the `N→` form of other toolsets. */
const LINE_NUMBER_PREFIX = /^ *(\d+)(?:\t|→)/;

/** What {@link analyzeLinePrefixes} found in a text the model sent. */
export interface LinePrefixes {
  /** Lines (without a final empty one) that start with a line-number prefix. */
  prefixed: number;
  /** Lines in all (without a final empty one). */
  lines: number;
  /** Whether every line has a prefix and the numbers count up by one. */
  consecutive: boolean;
  /** The first prefix's number. */
  firstNumber: number | undefined;
  /** The first prefix as sent, e.g. `"    12\t"`. */
  firstPrefix: string | undefined;
  /** The text with every prefix removed. */
  stripped: string;
}

/**
 * Looks for read_file's line-number prefixes (`    12\t`) at the start of each line of a text.
 *
 * @internal
 */
export function analyzeLinePrefixes(text: string): LinePrefixes {
  const lines = text.split("\n");
  const last = lines.length - 1;
  const counted = lines[last] === "" && last > 0 ? last : lines.length;
  let prefixed = 0;
  let consecutive = true;
  let firstNumber: number | undefined;
  let firstPrefix: string | undefined;
  let expected: number | undefined;
  const stripped = lines.map((line, index) => {
    const match = index < counted ? LINE_NUMBER_PREFIX.exec(line) : null;
    if (match === null) {
      if (index < counted) consecutive = false;
      return line;
    }
    const number = Number(match[1]);
    prefixed += 1;
    if (firstNumber === undefined) {
      firstNumber = number;
      firstPrefix = match[0];
    } else if (number !== expected) consecutive = false;
    expected = number + 1;
    return line.slice(match[0].length);
  });
  return {
    prefixed,
    lines: counted,
    consecutive: consecutive && prefixed === counted && prefixed > 0,
    firstNumber,
    firstPrefix,
    stripped: stripped.join("\n"),
  };
}

function lineOfPosition(text: string, position: number): number {
  return countNewlines(text, position) + 1;
}

/**
 * Applies one literal replacement with str_replace semantics: `oldText` must occur exactly once
 * (or `replaceAll`); when it does not occur exactly, a unique match that differs only in line
 * endings, then only in trailing whitespace, is accepted and reported through `matchKind`. When
 * `oldText` carries read_file's line-number prefixes on every line (consecutive numbers) and the
 * text without them matches one place (or one place at the line the first prefix names), the
 * prefixes are removed — from `newText` too when it carries them — and `strippedLineNumbers`
 * says so. A text not found is explained: line-number prefixes, indentation or whitespace that
 * differ, or the closest region.
 *
 * @internal
 */
export function applyTextEdit(
  text: string,
  edit: TextEdit,
  options: ApplyEditOptions,
): { ok: true; value: AppliedEdit } | { ok: false; error: EditFailure } {
  const label = options.label ?? "";
  const display = options.display;
  const invalid = invalidEdit(edit, label);
  if (invalid !== undefined) return { ok: false, error: invalid };
  let { ranges, matchKind } = findRanges(text, edit.oldText);
  let newText = edit.newText;
  let strippedLineNumbers = false;
  if (ranges.length === 0) {
    const retried = matchWithoutPrefixes(text, edit, label, display, options.maxListedLines ?? 50);
    if (retried.kind === "failed") return { ok: false, error: retried.error };
    if (retried.kind === "not-found") {
      return {
        ok: false,
        error: explainNotFound(text, retried.needle, { label, display, note: retried.note }),
      };
    }
    ({ ranges, matchKind, newText } = retried);
    strippedLineNumbers = true;
  }
  const lines = occurrenceLines(text, ranges);
  const maxListed = options.maxListedLines ?? 50;
  if (ranges.length > 1 && edit.replaceAll !== true) {
    return {
      ok: false,
      error: {
        code: "PATTERN_NOT_UNIQUE",
        message: `${label}old_text occurs ${ranges.length} times in ${display}${matchKind === "exact" ? "" : " (ignoring line-ending and trailing-whitespace differences)"}, at lines ${listLines(lines, maxListed)}.`,
        hint: "Add surrounding lines to old_text so it matches exactly one place, or set replace_all: true to replace every occurrence.",
      },
    };
  }
  const { result, splices } = spliceRanges(text, ranges, newText, matchKind);
  return {
    ok: true,
    value: {
      text: result,
      replacements: ranges.length,
      matchKind,
      strippedLineNumbers,
      lines,
      splices,
    },
  };
}

/** The refusal of an edit that cannot change anything (empty or identical texts). */
function invalidEdit(edit: TextEdit, label: string): EditFailure | undefined {
  if (edit.oldText.length === 0) {
    return {
      code: "INVALID_INPUT",
      message: `${label}old_text is empty; it must be the exact text to replace.`,
      hint: "Copy the text to change from read_file's output into old_text; to create or overwrite a whole file use write_file.",
    };
  }
  if (edit.oldText === edit.newText) {
    return {
      code: "INVALID_INPUT",
      message: `${label}old_text and new_text are identical; the edit would change nothing.`,
      hint: "Put the changed text in new_text.",
    };
  }
  return undefined;
}

/** What matching an `old_text` that was not found as sent came to, once prefixes were looked at. */
type PrefixRetry =
  | { kind: "matched"; ranges: Range[]; matchKind: MatchKind; newText: string }
  | { kind: "failed"; error: EditFailure }
  | { kind: "not-found"; needle: string; note: string };

/**
 * Tries `old_text` without read_file's line-number prefixes (when every line carries one,
 * counting up by one), or notes the prefixes a few lines carry, for the not-found message.
 */
function matchWithoutPrefixes(
  text: string,
  edit: TextEdit,
  label: string,
  display: string,
  maxListed: number,
): PrefixRetry {
  const prefixes = analyzeLinePrefixes(edit.oldText);
  if (!prefixes.consecutive) {
    const note =
      prefixes.prefixed > 0
        ? ` ${prefixes.prefixed === 1 ? "A line" : `${prefixes.prefixed} lines`} of old_text start${prefixes.prefixed === 1 ? "s" : ""} with what looks like read_file's line-number prefix (${JSON.stringify(prefixes.firstPrefix)}), which is not part of the file.`
        : "";
    return { kind: "not-found", needle: edit.oldText, note };
  }
  const newPrefixes = analyzeLinePrefixes(edit.newText);
  const strippedNew =
    newPrefixes.prefixed === 0
      ? edit.newText
      : newPrefixes.prefixed === newPrefixes.lines
        ? newPrefixes.stripped
        : undefined;
  const found = findRanges(text, prefixes.stripped);
  let candidates = found.ranges;
  if (candidates.length > 1 && prefixes.firstNumber !== undefined) {
    const atLine = candidates.filter(
      (range) => lineOfPosition(text, range.start) === prefixes.firstNumber,
    );
    if (atLine.length === 1) candidates = atLine;
  }
  const sent = JSON.stringify(prefixes.firstPrefix);
  if (candidates.length === 1 && strippedNew !== undefined && strippedNew !== prefixes.stripped) {
    return {
      kind: "matched",
      ranges: candidates,
      matchKind: found.matchKind,
      newText: strippedNew,
    };
  }
  if (candidates.length > 1) {
    const lines = candidates.map((range) => lineOfPosition(text, range.start));
    return {
      kind: "failed",
      error: {
        code: "PATTERN_NOT_UNIQUE",
        message: `${label}old_text carries read_file's line-number prefixes (${sent} on its first line), which are not part of the file; without them it occurs ${candidates.length} times in ${display}, at lines ${listLines(lines, maxListed)}.`,
        hint: "Send old_text without the line-number prefixes, with enough surrounding lines to match one place.",
      },
    };
  }
  if (candidates.length === 1) {
    return {
      kind: "failed",
      error: {
        code: "INVALID_INPUT",
        message:
          strippedNew === undefined
            ? `${label}old_text carries read_file's line-number prefixes (${sent} on its first line), and new_text carries them on only some lines; they are not part of the file.`
            : `${label}old_text carries read_file's line-number prefixes (${sent} on its first line); without them old_text and new_text are identical, so the edit would change nothing.`,
        hint: "Send old_text and new_text without the line-number prefixes.",
      },
    };
  }
  return {
    kind: "not-found",
    needle: prefixes.stripped,
    note: ` old_text carries read_file's line-number prefixes (${sent} on its first line), which are not part of the file; even without them it is not in the file.`,
  };
}

/** The 1-based line where each range starts (ranges ascending). */
function occurrenceLines(text: string, ranges: readonly Range[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  for (const range of ranges) {
    line += countNewlines(text, range.start, counted);
    counted = range.start;
    lines.push(line);
  }
  return lines;
}

/** The text with every range replaced, and the splices made. */
function spliceRanges(
  text: string,
  ranges: readonly Range[],
  newText: string,
  matchKind: MatchKind,
): { result: string; splices: Splice[] } {
  // Concatenation (rope strings in V8) is far cheaper here than building an array and joining it.
  let result = "";
  let cursor = 0;
  const splices: Splice[] = [];
  for (const range of ranges) {
    const matched = text.slice(range.start, range.end);
    // A tolerant match in a mixed-ending file: give the new text the matched region's CRLF.
    const replacement =
      matchKind !== "exact" && matched.includes("\r\n") && !newText.includes("\r\n")
        ? newText.replace(/\n/g, "\r\n")
        : newText;
    result += text.slice(cursor, range.start) + replacement;
    splices.push({ start: range.start, end: range.end, replacement });
    cursor = range.end;
  }
  result += text.slice(cursor);
  return { result, splices };
}
