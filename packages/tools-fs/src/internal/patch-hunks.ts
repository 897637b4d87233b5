/**
 * Applies a file's hunks to its working text: each hunk located by its context and `-` lines
 * with edit_file's tolerance (exact, then line endings, then trailing whitespace), after the
 * previous hunk and after its `@@ anchor` line; a unified diff's line numbers are a hint that
 * settles a tie. Failures are explained as edit_file explains them (closest region, indentation,
 * read_file's line-number prefixes).
 *
 * @internal
 */

import type { FileEditResult } from "./change-set-plan.js";
import { explainNotFound } from "./edit-diagnosis.js";
import { analyzeLinePrefixes, listLines, type MatchKind } from "./edit-match.js";
import type { HunkLine, PatchHunk } from "./patch-parse.js";

/** What applying one file's hunks found, for the result. */
export interface HunkOutcome {
  /** Hunks applied. */
  hunks: number;
  /** Hunks that matched only with a tolerance (line endings or trailing whitespace). */
  tolerant: Array<{ hunk: number; matchKind: MatchKind }>;
  /** Hunks whose lines carried read_file's line-number prefixes (removed before matching). */
  strippedLineNumbers: number[];
}

const LEVELS: Array<[MatchKind, (line: string) => string]> = [
  ["exact", (line) => line],
  ["line-endings", (line) => line.replace(/\r$/, "")],
  ["trailing-whitespace", (line) => line.replace(/[ \t\r]+$/, "")],
];

/** Positions ≥ `from` where `wanted` matches `lines`, at the first tolerance level with any. */
function findBlock(
  lines: readonly string[],
  wanted: readonly string[],
  from: number,
): { positions: number[]; matchKind: MatchKind } {
  for (const [matchKind, normalize] of LEVELS) {
    const target = wanted.map(normalize);
    const positions: number[] = [];
    for (let start = from; start + target.length <= lines.length; start += 1) {
      let index = 0;
      while (index < target.length && normalize(lines[start + index] as string) === target[index]) {
        index += 1;
      }
      if (index === target.length) positions.push(start);
    }
    if (positions.length > 0) return { positions, matchKind };
  }
  return { positions: [], matchKind: "exact" };
}

function findAnchor(lines: readonly string[], anchor: string, from: number): number {
  const wanted = anchor.trim();
  for (let index = from; index < lines.length; index += 1) {
    if ((lines[index] as string).trim() === wanted) return index;
  }
  for (let index = from; index < lines.length; index += 1) {
    if ((lines[index] as string).includes(wanted)) return index;
  }
  return -1;
}

interface FileState {
  lines: string[];
  finalNewline: boolean;
  /** Lines added minus removed so far (original line = current index − delta). */
  delta: number;
  cursor: number;
}

type HunkFailure = Exclude<FileEditResult, string>;

function failure(code: HunkFailure["code"], error: string, hint: string): HunkFailure {
  return { code, error, hint };
}

/** The hunk's lines, old and new sides, without read_file's prefixes when `strip`. */
function sides(
  hunk: PatchHunk,
  strip: boolean,
): { lines: HunkLine[]; old: string[]; new: string[] } {
  const lines = strip
    ? hunk.lines.map((line) => ({ ...line, text: line.text.replace(/^ *\d+(?:\t|→)/, "") }))
    : hunk.lines;
  return {
    lines,
    old: lines.filter((line) => line.kind !== "+").map((line) => line.text),
    new: lines.filter((line) => line.kind !== "-").map((line) => line.text),
  };
}

/**
 * The lines replacing a match: context lines as the file has them (a tolerant match keeps the
 * file's whitespace), added lines as sent — with a CR when the matched lines all end with one.
 */
function replacementLines(
  lines: readonly HunkLine[],
  matched: readonly string[],
  carriage: boolean,
): string[] {
  const result: string[] = [];
  let old = 0;
  for (const line of lines) {
    if (line.kind === " ") result.push(matched[old] ?? line.text);
    if (line.kind === "+") result.push(carriage ? `${line.text}\r` : line.text);
    if (line.kind !== "+") old += 1;
  }
  return result;
}

/** Where a hunk goes: its position, or the failure. */
function locate(
  state: FileState,
  hunk: PatchHunk,
  old: readonly string[],
  label: string,
): { position: number; matchKind: MatchKind } | { positions: number[] } | HunkFailure {
  let from = state.cursor;
  if (hunk.anchor !== undefined) {
    const anchor = findAnchor(state.lines, hunk.anchor, from);
    if (anchor === -1) {
      return failure(
        "PATTERN_NOT_FOUND",
        `${label}its '@@ ${hunk.anchor}' line is not in the file${from > 0 ? ` after line ${from - state.delta}` : ""}.`,
        "Use a line copied from the file after '@@' (or a bare '@@'), hunks in file order.",
      );
    }
    from = anchor + 1;
  }
  if (old.length === 0) {
    const hinted = hunk.oldStart === undefined ? undefined : hunk.oldStart + state.delta;
    const position = hinted ?? (hunk.anchor === undefined ? state.lines.length : from);
    return {
      position: Math.max(state.cursor, Math.min(position, state.lines.length)),
      matchKind: "exact",
    };
  }
  const found = findBlock(state.lines, old, from);
  let positions = found.positions;
  if (hunk.endOfFile && positions.length > 0) {
    const atEnd = positions.filter((position) => position + old.length === state.lines.length);
    if (atEnd.length > 0) positions = atEnd;
  }
  const oldStart = hunk.oldStart;
  if (positions.length > 1 && oldStart !== undefined) {
    const hinted = positions.filter((position) => position === oldStart - 1 + state.delta);
    if (hinted.length === 1) positions = hinted;
  }
  if (positions.length > 1 && hunk.anchor !== undefined) positions = positions.slice(0, 1);
  if (positions.length === 1)
    return { position: positions[0] as number, matchKind: found.matchKind };
  return { positions };
}

/** Applies one hunk to the state, or explains why it cannot be applied. */
function applyHunk(
  state: FileState,
  hunk: PatchHunk,
  label: string,
  display: string,
  outcome: HunkOutcome,
  index: number,
): HunkFailure | undefined {
  let { lines: hunkLines, old } = sides(hunk, false);
  let located = locate(state, hunk, old, label);
  if ("positions" in located && located.positions.length === 0) {
    const prefixes = analyzeLinePrefixes(`${old.join("\n")}\n`);
    if (prefixes.consecutive) {
      const stripped = sides(hunk, true);
      const retry = locate(state, hunk, stripped.old, label);
      if (!("positions" in retry && retry.positions.length === 0)) {
        ({ lines: hunkLines, old } = stripped);
        located = retry;
        outcome.strippedLineNumbers.push(index + 1);
      }
    }
  }
  if ("error" in located) return located;
  if ("positions" in located) {
    const searched = state.lines.slice(state.cursor).join("\n");
    if (located.positions.length === 0) {
      const explained = explainNotFound(searched, `${old.join("\n")}\n`, {
        label,
        display,
        note: "",
      });
      const shift = state.cursor - state.delta;
      return failure(
        explained.code,
        inHunkTerms(renumber(explained.message, shift)),
        `${inHunkTerms(explained.hint)} Fix that hunk and send the whole patch again.`,
      );
    }
    const lines = located.positions.map((position) => position - state.delta + 1);
    return failure(
      "PATTERN_NOT_UNIQUE",
      `${label}its ' ' and '-' lines occur ${lines.length} times in ${display}, at lines ${listLines(lines, 20)}.`,
      "Add context lines to that hunk (or an '@@ <line of the enclosing function>' line) so it matches one place, then send the whole patch again.",
    );
  }
  const { position, matchKind } = located;
  const matched = state.lines.slice(position, position + old.length);
  // A tolerant match in a file with mixed endings keeps the matched lines' CR.
  const carriage =
    matchKind !== "exact" && matched.length > 0 && matched.every((line) => line.endsWith("\r"));
  const replacement = replacementLines(hunkLines, matched, carriage);
  if (matchKind !== "exact") outcome.tolerant.push({ hunk: index + 1, matchKind });
  state.lines.splice(position, old.length, ...replacement);
  if (position + replacement.length === state.lines.length) {
    if (hunk.newNoFinalNewline) state.finalNewline = false;
    else if (hunk.oldNoFinalNewline) state.finalNewline = true;
  }
  state.delta += replacement.length - old.length;
  state.cursor = position + replacement.length;
  outcome.hunks += 1;
  return undefined;
}

/** edit_file's diagnosis worded for a hunk (its ' ' and '-' lines are what old_text is there). */
function inHunkTerms(text: string): string {
  return text
    .replace("old_text was not found", "its ' ' and '-' lines were not found")
    .replaceAll("old_text matches", "they match")
    .replaceAll("old_text has", "the hunk has")
    .replaceAll("of old_text start", "of the hunk start")
    .replaceAll("old_text", "the hunk's ' ' and '-' lines");
}

/** Shifts the `line N` / `lines N–M` / `   N\t` numbers of a message about a slice starting at `shift`. */
function renumber(message: string, shift: number): string {
  if (shift === 0) return message;
  return message
    .replace(
      /\b(lines?) (\d+)(?:–(\d+))?/g,
      (_all, word: string, first: string, last?: string) =>
        `${word} ${Number(first) + shift}${last === undefined ? "" : `–${Number(last) + shift}`}`,
    )
    .replace(
      /^ *(\d+)\t/gm,
      (_all, number: string) => `${String(Number(number) + shift).padStart(6)}\t`,
    );
}

/**
 * Applies hunks to a file's working text (LF), in order; the result or the first failure.
 *
 * @param text - the working text
 * @param hunks - the file's hunks
 * @param display - the file as shown to the model
 * @param outcome - receives counts and notes
 * @returns the new text, or the refusal for the change set
 * @internal
 */
export function applyHunks(
  text: string,
  hunks: readonly PatchHunk[],
  display: string,
  outcome: HunkOutcome,
): FileEditResult {
  const finalNewline = text.endsWith("\n");
  const lines = text.length === 0 ? [] : (finalNewline ? text.slice(0, -1) : text).split("\n");
  const state: FileState = {
    lines,
    finalNewline: finalNewline || text.length === 0,
    delta: 0,
    cursor: 0,
  };
  for (const [index, hunk] of hunks.entries()) {
    const label = `${display}, hunk ${index + 1} (patch line ${hunk.patchLine}): `;
    const failed = applyHunk(state, hunk, label, display, outcome, index);
    if (failed !== undefined) return failed;
  }
  if (state.lines.length === 0) return "";
  return `${state.lines.join("\n")}${state.finalNewline ? "\n" : ""}`;
}
