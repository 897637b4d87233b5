/**
 * A compact unified diff (`--- a/… +++ b/… @@ -l,s +l,s @@`) between two texts, for the edit
 * tools' results. Only the changed middle is diffed line by line: the common prefix and suffix
 * are found with fast chunked comparisons first, so a one-line change in a 10 MB file costs a
 * few milliseconds. The line diff is Myers' O(ND) algorithm, bounded by an edit distance; past
 * it the middle is shown as removed-then-added (still a correct diff, just not minimal). Every
 * line of a private-key block (BEGIN through END, on either side) is shown as
 * `[private key redacted]` with its diff prefix, so counts and line numbers stay true.
 *
 * @internal
 */

import {
  containsPrivateKey,
  createPrivateKeyLineScanner,
  PRIVATE_KEY_REDACTION,
} from "@agentool/contract";

/** Default context lines around each change. */
export const DEFAULT_DIFF_CONTEXT_LINES = 3;

/** Default cap on the lines of a diff shown to the model. */
export const DEFAULT_MAX_DIFF_LINES = 200;

/** Default cap on the characters of a diff shown to the model. */
export const DEFAULT_MAX_DIFF_CHARACTERS = 20_000;

/** Longest edit distance (changed lines) the minimal line diff is searched for. */
const MAX_EDIT_DISTANCE = 1_000;

const COMPARE_CHUNK = 4_096;

/** Options of {@link createUnifiedDiff}. */
export interface UnifiedDiffOptions {
  /** The path shown in the `---`/`+++` lines. */
  path: string;
  /** The `---` line's path when it differs from `path` (a move); `null`: `/dev/null` (a new file). */
  fromPath?: string | null;
  /** The `+++` line's path when it differs from `path`; `null`: `/dev/null` (a deleted file). */
  toPath?: string | null;
  /** Context lines around each change. Default {@link DEFAULT_DIFF_CONTEXT_LINES}. */
  context?: number;
  /** Most lines kept; the rest are left out (and counted). Default {@link DEFAULT_MAX_DIFF_LINES}. */
  maxLines?: number;
  /** Most characters kept (whole lines, except a first line longer than this). Default {@link DEFAULT_MAX_DIFF_CHARACTERS}. */
  maxCharacters?: number;
  /** The line number of the first line of both texts (when they are windows of a file). Default 1. */
  firstLine?: number;
  /**
   * The file's text before both texts (when they are windows of a file, see `firstLine`): read
   * only to tell whether a private-key block opened before the window runs into it.
   */
  preceding?: string;
}

/** A diff between two texts. */
export interface UnifiedDiff {
  /**
   * The unified diff (empty when the texts are equal): its first lines when it is longer than
   * the caps. No marker: the tools' render says what was left out.
   */
  text: string;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Hunks in the full diff. */
  hunks: number;
  /** Whether lines of the diff were left out. */
  truncated: boolean;
  /** Lines of the full diff (header included). */
  totalLines: number;
  /** Lines of the diff left out after `text`. */
  omittedLines: number;
}

/**
 * Keeps the first lines of a diff within a line and a character budget (whole lines, except a
 * first line longer than the character budget, which is cut).
 */
function cutLines(
  lines: readonly string[],
  maxLines: number,
  maxCharacters: number,
): { text: string; kept: number } {
  let characters = 0;
  let kept = 0;
  while (kept < lines.length && kept < maxLines) {
    const length = (lines[kept] as string).length + (kept === 0 ? 0 : 1);
    if (characters + length > maxCharacters) break;
    characters += length;
    kept += 1;
  }
  if (kept === 0 && lines.length > 0) {
    return { text: (lines[0] as string).slice(0, maxCharacters), kept: 1 };
  }
  return { text: lines.slice(0, kept).join("\n"), kept };
}

/** Length of the common prefix of two strings, compared in chunks (native comparisons). */
export function commonPrefixLength(first: string, second: string): number {
  const limit = Math.min(first.length, second.length);
  let index = 0;
  while (
    index + COMPARE_CHUNK <= limit &&
    first.slice(index, index + COMPARE_CHUNK) === second.slice(index, index + COMPARE_CHUNK)
  ) {
    index += COMPARE_CHUNK;
  }
  while (index < limit && first.charCodeAt(index) === second.charCodeAt(index)) index += 1;
  return index;
}

/** Length of the common suffix of two strings, at most `limit`. */
export function commonSuffixLength(first: string, second: string, limit: number): number {
  let length = 0;
  while (
    length + COMPARE_CHUNK <= limit &&
    first.slice(first.length - length - COMPARE_CHUNK, first.length - length) ===
      second.slice(second.length - length - COMPARE_CHUNK, second.length - length)
  ) {
    length += COMPARE_CHUNK;
  }
  while (
    length < limit &&
    first.charCodeAt(first.length - length - 1) === second.charCodeAt(second.length - length - 1)
  ) {
    length += 1;
  }
  return length;
}

/** Counts `\n` in `text` before `end`. */
export function countNewlines(text: string, end = text.length, start = 0): number {
  let count = 0;
  let index = text.indexOf("\n", start);
  while (index !== -1 && index < end) {
    count += 1;
    index = text.indexOf("\n", index + 1);
  }
  return count;
}

type Operation = {
  kind: " " | "-" | "+";
  text: string;
  /** The last line of the old text, without a newline (for `-` and context lines). */
  finalBefore: boolean;
  /** The last line of the new text, without a newline (for `+` and context lines). */
  finalAfter: boolean;
  /** The line belongs to a private-key block (on the side it comes from): shown redacted. */
  key: boolean;
};

/**
 * The 0-based numbers of the lines of `text` that belong to a private-key block, after the lines
 * of `preceding` (the text before it, ending at a line start); `undefined` when neither holds a
 * key (the common case: two `indexOf` scans, nothing allocated).
 */
function privateKeyLines(text: string, preceding: string | undefined): Set<number> | undefined {
  const before = preceding !== undefined && containsPrivateKey(preceding);
  if (!before && !containsPrivateKey(text)) return undefined;
  const isKeyLine = createPrivateKeyLineScanner();
  if (before && preceding !== undefined) {
    for (const line of splitSegment(preceding)) isKeyLine(line);
  }
  const lines = new Set<number>();
  let start = 0;
  for (let number = 0; start <= text.length; number += 1) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (isKeyLine(text.slice(start, end))) lines.add(number);
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

/** Which lines of the two windows belong to a private key (indexes into the windows). */
interface KeyLines {
  before: (index: number) => boolean;
  after: (index: number) => boolean;
}

const NO_KEY_LINES: KeyLines = { before: () => false, after: () => false };

/** Myers' diff of two id arrays: the edit script, or `undefined` past `maxDistance`. */
function myersDiff(
  first: Int32Array,
  second: Int32Array,
  maxDistance: number,
): Array<" " | "-" | "+"> | undefined {
  const n = first.length;
  const m = second.length;
  const max = Math.min(n + m, maxDistance);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let distance = 0; distance <= max; distance += 1) {
    trace.push(v.slice(offset - distance - 1, offset + distance + 2));
    for (let k = -distance; k <= distance; k += 2) {
      let x: number;
      if (
        k === -distance ||
        (k !== distance && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
      ) {
        x = v[offset + k + 1] as number;
      } else {
        x = (v[offset + k - 1] as number) + 1;
      }
      let y = x - k;
      while (x < n && y < m && first[x] === second[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = distance;
        break;
      }
    }
    if (found !== -1) break;
  }
  if (found === -1) return undefined;
  // Backtrack through the saved frontiers (trace[d] holds v before round d, window d+1 wide).
  const script: Array<" " | "-" | "+"> = [];
  let x = n;
  let y = m;
  for (let distance = found; distance > 0; distance -= 1) {
    const saved = trace[distance] as Int32Array;
    const at = (k: number) => saved[k + distance + 1] as number;
    const k = x - y;
    const previousK = k === -distance || (k !== distance && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      script.push(" ");
      x -= 1;
      y -= 1;
    }
    script.push(x === previousX ? "+" : "-");
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    script.push(" ");
    x -= 1;
    y -= 1;
  }
  return script.reverse();
}

function splitSegment(segment: string): string[] {
  if (segment.length === 0) return [];
  const lines = segment.split("\n");
  if (segment.endsWith("\n")) lines.pop();
  return lines;
}

function lineStartAfter(text: string, position: number, linesBack: number): number {
  let start = position;
  for (let line = 0; line < linesBack && start > 0; line += 1) {
    start = start < 2 ? 0 : text.lastIndexOf("\n", start - 2) + 1;
  }
  return start;
}

function lineEndAfter(text: string, position: number, linesForward: number): number {
  let end = position;
  for (let line = 0; line < linesForward && end < text.length; line += 1) {
    const next = text.indexOf("\n", end);
    end = next === -1 ? text.length : next + 1;
  }
  return end;
}

/**
 * Writes a compact unified diff of `before` → `after`.
 *
 * @param before - the old text (LF or CRLF; `\r` is not shown)
 * @param after - the new text
 * @param options - the path, context lines and output caps
 * @returns the diff text, counts and whether the text was cut
 * @example
 * createUnifiedDiff("a\nb\n", "a\nc\n", { path: "x.txt" }).text;
 * // "--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c"
 */
export function createUnifiedDiff(
  before: string,
  after: string,
  options: UnifiedDiffOptions,
): UnifiedDiff {
  if (before === after)
    return {
      text: "",
      added: 0,
      removed: 0,
      hunks: 0,
      truncated: false,
      totalLines: 0,
      omittedLines: 0,
    };
  const context = options.context ?? DEFAULT_DIFF_CONTEXT_LINES;
  const { start, beforeStop, afterStop } = changedWindow(before, after, context);
  const firstLine = countNewlines(before, start) + (options.firstLine ?? 1);
  const beforeLines = splitSegment(before.slice(start, beforeStop));
  const afterLines = splitSegment(after.slice(start, afterStop));
  const beforeFinal = beforeStop === before.length && !before.endsWith("\n");
  const afterFinal = afterStop === after.length && !after.endsWith("\n");
  const offset = firstLine - (options.firstLine ?? 1);
  const beforeKeys = privateKeyLines(before, options.preceding);
  const afterKeys = privateKeyLines(after, options.preceding);
  const keys: KeyLines =
    beforeKeys === undefined && afterKeys === undefined
      ? NO_KEY_LINES
      : {
          before: (index) => beforeKeys?.has(offset + index) === true,
          after: (index) => afterKeys?.has(offset + index) === true,
        };
  const operations = lineOperations(beforeLines, afterLines, beforeFinal, afterFinal, keys);
  const { output, added, removed, hunks } = writeHunks(operations, firstLine, context, [
    headerLine("---", "a", options.fromPath, options.path),
    headerLine("+++", "b", options.toPath, options.path),
  ]);
  const cut = cutLines(
    output,
    options.maxLines ?? DEFAULT_MAX_DIFF_LINES,
    options.maxCharacters ?? DEFAULT_MAX_DIFF_CHARACTERS,
  );
  return {
    text: cut.text,
    added,
    removed,
    hunks,
    truncated: cut.kept < output.length,
    totalLines: output.length,
    omittedLines: output.length - cut.kept,
  };
}

/**
 * The changed middle of `before` → `after` on whole lines, widened by `context` lines: where it
 * starts (the same offset in both) and where it stops in each.
 */
function changedWindow(
  before: string,
  after: string,
  context: number,
): { start: number; beforeStop: number; afterStop: number } {
  let prefix = commonPrefixLength(before, after);
  prefix = prefix === 0 ? 0 : before.lastIndexOf("\n", prefix - 1) + 1;
  const suffixLimit = Math.min(before.length, after.length) - prefix;
  const suffix = commonSuffixLength(before, after, suffixLimit);
  let beforeEnd = before.length - suffix;
  const atLineStart = (text: string, position: number) =>
    position === 0 || text.charCodeAt(position - 1) === 10;
  if (
    beforeEnd < before.length &&
    (!atLineStart(before, beforeEnd) || !atLineStart(after, after.length - suffix))
  ) {
    // Move the end of the changed middle forward, inside the common suffix, to a line start.
    const newline = before.indexOf("\n", beforeEnd);
    beforeEnd = newline === -1 ? before.length : newline + 1;
  }
  const afterEnd = after.length - (before.length - beforeEnd);
  const start = lineStartAfter(before, prefix, context);
  const beforeStop = lineEndAfter(before, beforeEnd, context);
  const afterStop = afterEnd + (beforeStop - beforeEnd);

  return { start, beforeStop, afterStop };
}

/** The line-by-line edit script of two windows, a newline added or removed at the end a change. */
function lineOperations(
  beforeLines: string[],
  afterLines: string[],
  beforeFinal: boolean,
  afterFinal: boolean,
  keys: KeyLines,
): Operation[] {
  const ids = new Map<string, number>();
  const toIds = (lines: string[]) => {
    const result = new Int32Array(lines.length);
    lines.forEach((line, index) => {
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      result[index] = id;
    });
    return result;
  };
  const script = myersDiff(toIds(beforeLines), toIds(afterLines), MAX_EDIT_DISTANCE) ?? [
    ...beforeLines.map(() => "-" as const),
    ...afterLines.map(() => "+" as const),
  ];

  const operations: Operation[] = [];
  let beforeIndex = 0;
  let afterIndex = 0;
  const isFinalBefore = () => beforeFinal && beforeIndex === beforeLines.length - 1;
  const isFinalAfter = () => afterFinal && afterIndex === afterLines.length - 1;
  for (const kind of script) {
    if (kind === " ") {
      const finalBefore = isFinalBefore();
      const finalAfter = isFinalAfter();
      const text = beforeLines[beforeIndex] as string;
      const keyBefore = keys.before(beforeIndex);
      const keyAfter = keys.after(afterIndex);
      if (finalBefore === finalAfter) {
        operations.push({ kind, text, finalBefore, finalAfter, key: keyBefore || keyAfter });
      } else {
        // Same text, but a newline was added or removed at the end of the file: a change.
        operations.push({ kind: "-", text, finalBefore, finalAfter: false, key: keyBefore });
        operations.push({ kind: "+", text, finalBefore: false, finalAfter, key: keyAfter });
      }
      beforeIndex += 1;
      afterIndex += 1;
    } else if (kind === "-") {
      operations.push({
        kind,
        text: beforeLines[beforeIndex] as string,
        finalBefore: isFinalBefore(),
        finalAfter: false,
        key: keys.before(beforeIndex),
      });
      beforeIndex += 1;
    } else {
      operations.push({
        kind,
        text: afterLines[afterIndex] as string,
        finalBefore: false,
        finalAfter: isFinalAfter(),
        key: keys.after(afterIndex),
      });
      afterIndex += 1;
    }
  }

  return operations;
}

/** A `---`/`+++` line: `a/<path>` (or `b/…`), or `/dev/null` for a side that does not exist. */
function headerLine(
  marker: "---" | "+++",
  side: "a" | "b",
  given: string | null | undefined,
  path: string,
): string {
  if (given === null) return `${marker} /dev/null`;
  return `${marker} ${side}/${given ?? path}`;
}

/** The diff's lines: the header, then hunks of changes with `context` lines around them. */
function writeHunks(
  operations: readonly Operation[],
  firstLine: number,
  context: number,
  header: readonly [string, string],
): { output: string[]; added: number; removed: number; hunks: number } {
  // Group the changes into hunks with `context` lines around them.
  const changed: number[] = [];
  operations.forEach((operation, index) => {
    if (operation.kind !== " ") changed.push(index);
  });
  const output: string[] = [...header];
  let added = 0;
  let removed = 0;
  let hunks = 0;
  let cursor = 0;
  // Line numbers at operations[0].
  let beforeLine = firstLine;
  let afterLine = firstLine;
  let position = 0;
  const advanceTo = (target: number) => {
    while (position < target) {
      const kind = (operations[position] as Operation).kind;
      if (kind !== "+") beforeLine += 1;
      if (kind !== "-") afterLine += 1;
      position += 1;
    }
  };
  while (cursor < changed.length) {
    const firstChange = changed[cursor] as number;
    let lastChange = firstChange;
    while (
      cursor + 1 < changed.length &&
      (changed[cursor + 1] as number) - lastChange <= 2 * context + 1
    ) {
      cursor += 1;
      lastChange = changed[cursor] as number;
    }
    cursor += 1;
    const hunkStart = Math.max(0, firstChange - context);
    const hunkEnd = Math.min(operations.length, lastChange + context + 1);
    advanceTo(hunkStart);
    const body: string[] = [];
    let beforeCount = 0;
    let afterCount = 0;
    for (let index = hunkStart; index < hunkEnd; index += 1) {
      const operation = operations[index] as Operation;
      const shown = operation.key ? PRIVATE_KEY_REDACTION : operation.text.replace(/\r$/, "");
      body.push(`${operation.kind}${shown}`);
      if (operation.finalBefore || operation.finalAfter) body.push("\\ No newline at end of file");
      if (operation.kind !== "+") beforeCount += 1;
      if (operation.kind !== "-") afterCount += 1;
      if (operation.kind === "+") added += 1;
      if (operation.kind === "-") removed += 1;
    }
    const beforeStart = beforeCount === 0 ? beforeLine - 1 : beforeLine;
    const afterStart = afterCount === 0 ? afterLine - 1 : afterLine;
    output.push(`@@ -${beforeStart},${beforeCount} +${afterStart},${afterCount} @@`, ...body);
    hunks += 1;
  }
  return { output, added, removed, hunks };
}

/**
 * The diff of one replacement (`before[start, end)` → `replacement`), computed on a window of
 * whole lines around it: the new text is never built or scanned whole.
 *
 * @param before - the old text
 * @param splice - the replaced range and its replacement
 * @param options - as for {@link createUnifiedDiff}
 * @returns the same diff {@link createUnifiedDiff} gives for the whole texts
 * @example
 * createSpliceDiff("a\nb\nc\n", { start: 2, end: 3, replacement: "B" }, { path: "x" });
 */
export function createSpliceDiff(
  before: string,
  splice: { start: number; end: number; replacement: string },
  options: UnifiedDiffOptions,
): UnifiedDiff {
  const context = options.context ?? DEFAULT_DIFF_CONTEXT_LINES;
  const lineStart = splice.start === 0 ? 0 : before.lastIndexOf("\n", splice.start - 1) + 1;
  const windowStart = lineStartAfter(before, lineStart, context);
  // The line holding the end (or the next one, when the end is at a line start) and the context.
  const windowEnd = lineEndAfter(before, splice.end, context + 1);
  return createUnifiedDiff(
    before.slice(windowStart, windowEnd),
    before.slice(windowStart, splice.start) +
      splice.replacement +
      before.slice(splice.end, windowEnd),
    {
      ...options,
      firstLine: countNewlines(before, windowStart) + 1,
      preceding: before.slice(0, windowStart),
    },
  );
}
