/**
 * Applies a file's hunks to its working text: each hunk located by its context and `-` lines
 * with edit_file's tolerance (exact, then line endings, then trailing whitespace), after the
 * previous hunk and after its `@@ anchor` line; a unified diff's line numbers are a hint that
 * settles a tie. Failures are explained as edit_file explains them (closest region, indentation,
 * read_file's line-number prefixes). The search is linear in the file and the hunk at every
 * tolerance level (Knuth–Morris–Pratt over lines, each file line normalised once per level) and
 * lets the event loop turn every 20 ms or so, checking the abort signal.
 *
 * @internal
 */

import { ToolFailureError } from "@agentool/contract";
import type { FileEditResult } from "./change-set-plan.js";
import { explainNotFoundInSteps } from "./edit-diagnosis.js";
import { analyzeLinePrefixes, listLines, type MatchKind, TOLERANCES } from "./edit-match.js";
import type { HunkLine, PatchHunk } from "./patch-parse.js";
import { SequenceMatcher } from "./sequence-matcher.js";

/** What applying one file's hunks found, for the result. */
export interface HunkOutcome {
  /** Hunks applied. */
  hunks: number;
  /** Hunks that matched only with a tolerance (line endings or trailing whitespace). */
  tolerant: Array<{ hunk: number; matchKind: MatchKind }>;
  /** Hunks whose lines carried read_file's line-number prefixes (removed before matching). */
  strippedLineNumbers: number[];
}

/** Exact first, then edit_file's tolerances in its order. */
const LEVELS: ReadonlyArray<readonly [MatchKind, (line: string) => string]> = [
  ["exact", (line) => line],
  ...TOLERANCES,
];

/** Lines searched between looks at the clock. */
const CLOCK_STRIDE = 4_096;

/** Longest stretch of searching before the event loop gets a turn (timers, the abort signal). */
const SLICE_MS = 20;

/**
 * Lets the event loop turn during a long search (so a tool's time limit can fire) and stops the
 * search once the signal is aborted.
 */
interface SearchClock {
  /** When the current stretch of work started (`performance.now()`). */
  since: number;
  /** Aborts the search (`ABORTED`). */
  signal: AbortSignal | undefined;
}

function refuseAborted(clock: SearchClock): void {
  if (clock.signal?.aborted === true) {
    throw new ToolFailureError("ABORTED", "Applying the patch was cancelled.", { retryable: true });
  }
}

/**
 * Stops once the signal is aborted, and gives the event loop a turn when the current stretch
 * has run past {@link SLICE_MS}.
 */
async function tick(clock: SearchClock): Promise<void> {
  refuseAborted(clock);
  if (performance.now() - clock.since < SLICE_MS) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  refuseAborted(clock);
  clock.since = performance.now();
}

/**
 * Every position ≥ `from` where `target` matches `lines` line for line once both are normalised:
 * Knuth–Morris–Pratt over line ids, so the search is linear in the file and the hunk (each file
 * line normalised once) however repetitive both are.
 */
async function findAll(
  lines: readonly string[],
  target: readonly string[],
  from: number,
  normalize: (line: string) => string,
  clock: SearchClock,
): Promise<number[]> {
  if (target.length === 0) return [];
  const ids = new Map<string, number>();
  const pattern = new Int32Array(target.length);
  for (const [index, line] of target.entries()) {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    pattern[index] = id;
  }
  const matcher = new SequenceMatcher(pattern);
  const positions: number[] = [];
  for (let index = from; index < lines.length; index += 1) {
    if ((index - from) % CLOCK_STRIDE === CLOCK_STRIDE - 1) await tick(clock);
    if (matcher.push(ids.get(normalize(lines[index] as string)) ?? -1)) {
      positions.push(index - pattern.length + 1);
    }
  }
  return positions;
}

/** Positions ≥ `from` where `wanted` matches `lines`, at the first tolerance level with any. */
async function findBlock(
  lines: readonly string[],
  wanted: readonly string[],
  from: number,
  clock: SearchClock,
): Promise<{ positions: number[]; matchKind: MatchKind }> {
  for (const [matchKind, normalize] of LEVELS) {
    const positions = await findAll(lines, wanted.map(normalize), from, normalize, clock);
    if (positions.length > 0) return { positions, matchKind };
  }
  return { positions: [], matchKind: "exact" };
}

async function findAnchor(
  lines: readonly string[],
  anchor: string,
  from: number,
  clock: SearchClock,
): Promise<number> {
  const wanted = anchor.trim();
  for (let index = from; index < lines.length; index += 1) {
    if ((index - from) % CLOCK_STRIDE === CLOCK_STRIDE - 1) await tick(clock);
    if ((lines[index] as string).trim() === wanted) return index;
  }
  for (let index = from; index < lines.length; index += 1) {
    if ((index - from) % CLOCK_STRIDE === CLOCK_STRIDE - 1) await tick(clock);
    if ((lines[index] as string).includes(wanted)) return index;
  }
  return -1;
}

interface FileState {
  lines: string[];
  clock: SearchClock;
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
async function locate(
  state: FileState,
  hunk: PatchHunk,
  old: readonly string[],
  label: string,
): Promise<{ position: number; matchKind: MatchKind } | { positions: number[] } | HunkFailure> {
  let from = state.cursor;
  if (hunk.anchor !== undefined) {
    const anchor = await findAnchor(state.lines, hunk.anchor, from, state.clock);
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
  const found = await findBlock(state.lines, old, from, state.clock);
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
async function applyHunk(
  state: FileState,
  hunk: PatchHunk,
  label: string,
  display: string,
  outcome: HunkOutcome,
  index: number,
): Promise<HunkFailure | undefined> {
  let { lines: hunkLines, old } = sides(hunk, false);
  let located = await locate(state, hunk, old, label);
  if ("positions" in located && located.positions.length === 0) {
    const prefixes = analyzeLinePrefixes(`${old.join("\n")}\n`);
    if (prefixes.consecutive) {
      const stripped = sides(hunk, true);
      const retry = await locate(state, hunk, stripped.old, label);
      if (!("positions" in retry && retry.positions.length === 0)) {
        ({ lines: hunkLines, old } = stripped);
        located = retry;
        outcome.strippedLineNumbers.push(index + 1);
      }
    }
  }
  if ("error" in located) return located;
  if ("positions" in located) {
    await tick(state.clock);
    if (located.positions.length === 0) {
      const searched = state.lines.slice(state.cursor).join("\n");
      const explained = await explainNotFoundInSteps(
        searched,
        `${old.join("\n")}\n`,
        { label, display, note: "" },
        () => tick(state.clock),
      );
      const shift = state.cursor - state.delta;
      return failure(
        explained.code,
        inHunkTerms(renumber(explained.message, shift)),
        `${inHunkTerms(explained.hint)} Fix that hunk and send the whole patch again.`,
      );
    }
    // Positions are distinct and ascending: the first 20 and a count say what listLines would.
    const count = located.positions.length;
    const lines = located.positions.slice(0, 20).map((position) => position - state.delta + 1);
    const more = count > 20 ? ` and ${count - 20} more` : "";
    return failure(
      "PATTERN_NOT_UNIQUE",
      `${label}its ' ' and '-' lines occur ${count} times in ${display}, at lines ${listLines(lines, 20)}${more}.`,
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
 * @param signal - stops the search (`ABORTED`); a long search lets the event loop turn every
 *   20 ms or so, so the signal (and a tool's time limit) can fire
 * @returns the new text, or the refusal for the change set
 * @throws ToolFailureError `ABORTED` once the signal is aborted during a long search
 * @internal
 */
export async function applyHunks(
  text: string,
  hunks: readonly PatchHunk[],
  display: string,
  outcome: HunkOutcome,
  signal?: AbortSignal,
): Promise<FileEditResult> {
  const finalNewline = text.endsWith("\n");
  const lines = text.length === 0 ? [] : (finalNewline ? text.slice(0, -1) : text).split("\n");
  const state: FileState = {
    lines,
    finalNewline: finalNewline || text.length === 0,
    delta: 0,
    cursor: 0,
    clock: { since: performance.now(), signal },
  };
  for (const [index, hunk] of hunks.entries()) {
    const label = `${display}, hunk ${index + 1} (patch line ${hunk.patchLine}): `;
    const failed = await applyHunk(state, hunk, label, display, outcome, index);
    if (failed !== undefined) return failed;
  }
  if (state.lines.length === 0) return "";
  return `${state.lines.join("\n")}${state.finalNewline ? "\n" : ""}`;
}
