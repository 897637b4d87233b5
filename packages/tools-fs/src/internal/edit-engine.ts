/**
 * The str_replace engine shared by `edit_file` and `multi_edit`: loading a text file for editing
 * (encoding, BOM, line endings, sha and `expected_sha` check), applying one literal replacement
 * with the exact-then-tolerant matching rules, and writing the result back in the file's own
 * encoding and line endings.
 *
 * @internal
 */

import { z } from "zod";
import { type FileStat, type FileSystem, FileSystemError } from "../file-system.js";
import type { ResolvedPath } from "../workspace.js";
import {
  decodeText,
  encodeText,
  encodingLabel,
  type LineEnding,
  SHORT_SHA_LENGTH,
  sha256Hex,
  type TextEncodingName,
} from "./text-codec.js";
import { countNewlines } from "./unified-diff.js";

/** How `expected_sha` must look: 12 to 64 hex characters (a prefix of the sha-256). */
export const EXPECTED_SHA_PATTERN: RegExp = /^[0-9a-fA-F]{12,64}$/;

/**
 * The `expected_sha` input field shared by the write tools.
 *
 * @param readTool - the mounted tool whose header shows the sha (`read_file`), if any
 * @returns the zod field
 * @internal
 */
export function createExpectedShaField(readTool: string | undefined) {
  const source = readTool === undefined ? "the file's sha" : `the sha from ${readTool}'s header`;
  return z
    .string()
    .regex(EXPECTED_SHA_PATTERN, `expected 12 to 64 hex characters (${source})`)
    .optional()
    .describe(
      `Optional: ${source}, or the sha your last edit of the file returned (12+ hex characters). The call fails with CONFLICT if the file changed since.`,
    );
}

/** The `expected_sha` input field, naming read_file. */
export const expectedShaField = createExpectedShaField("read_file");

/**
 * Whether a file's sha-256 starts with what the model sent.
 *
 * @internal
 */
export function shaMatches(expected: string, actual: string): boolean {
  return actual.startsWith(expected.toLowerCase());
}

/** The last write a write tool made to one file: its sha and the tool. */
export interface RecordedWrite {
  /** sha-256 of what was written. */
  sha: string;
  /** The tool that wrote it (`edit_file`, `multi_edit`, `write_file`…). */
  tool: string;
}

const MAX_RECORDED_WRITES = 512;
const recordedWrites = new WeakMap<object, Map<string, RecordedWrite>>();

/**
 * Remembers the sha a write tool returned for a file (per file system, the last 512 files), so a
 * later `CONFLICT` can tell the model that the file is exactly as its own edit left it.
 *
 * @internal
 */
export function recordWrite(fileSystem: object, realPath: string, write: RecordedWrite): void {
  let writes = recordedWrites.get(fileSystem);
  if (writes === undefined) {
    writes = new Map();
    recordedWrites.set(fileSystem, writes);
  }
  writes.delete(realPath);
  writes.set(realPath, write);
  if (writes.size > MAX_RECORDED_WRITES) {
    writes.delete(writes.keys().next().value as string);
  }
}

/**
 * The last write a write tool made to a file, if it is remembered.
 *
 * @internal
 */
export function lastRecordedWrite(fileSystem: object, realPath: string): RecordedWrite | undefined {
  return recordedWrites.get(fileSystem)?.get(realPath);
}

/**
 * The failure for an `expected_sha` that no longer matches. The message always carries the
 * current sha; when the current content is what one of the write tools last returned for this
 * file (`last`), the hint says so and offers that sha instead of a re-read.
 *
 * @param display - the path as shown to the model
 * @param actualSha - the file's current sha (`undefined`: the file is gone)
 * @param last - the last write a write tool recorded for the file
 * @internal
 */
export function conflictError(
  display: string,
  actualSha: string | undefined,
  last?: RecordedWrite,
): FileSystemError {
  if (actualSha === undefined) {
    return new FileSystemError(
      "CONFLICT",
      `${display} was deleted since you read it (expected_sha no longer matches).`,
      "Check whether it was moved (list_directory, glob_search), or create it again without expected_sha.",
    );
  }
  const short = actualSha.slice(0, SHORT_SHA_LENGTH);
  const message = `${display} changed since the sha you sent: its sha is now ${short}.`;
  if (last !== undefined && last.sha === actualSha) {
    return new FileSystemError(
      "CONFLICT",
      `${message} That is the sha your last ${last.tool} call on ${display} returned: nothing changed it since.`,
      `If you sent the sha from before that ${last.tool} call, call again with expected_sha="${short}" — no need to re-read.`,
    );
  }
  return new FileSystemError(
    "CONFLICT",
    message,
    `If you made that change yourself, call again with expected_sha="${short}". Otherwise re-read ${display} with read_file, redo your change on the current content, and pass its sha as expected_sha.`,
  );
}

/** A text file loaded for editing. */
export interface EditableFile {
  /** The file's bytes as read. */
  bytes: Uint8Array;
  /** sha-256 of `bytes`, lower-case hex. */
  sha: string;
  /** The file's encoding (kept on write). */
  encoding: TextEncodingName;
  /** The file's line endings. */
  lineEnding: LineEnding;
  /** Whether the file is CRLF throughout: the working text is then LF and CRLF is restored on write. */
  crlf: boolean;
  /** The text edits work on (LF when `crlf`). */
  working: string;
  /** The stat when read. */
  stat: FileStat;
}

/** Options of {@link loadEditableFile}. */
export interface LoadEditableOptions {
  /** Files larger than this are refused with `TOO_LARGE`. */
  maxBytes: number;
  /** The model's `expected_sha`, when given. */
  expectedSha: string | undefined;
}

/**
 * Reads and decodes a text file for editing; throws {@link FileSystemError} with `FILE_NOT_FOUND`,
 * `CONFLICT`, `UNSUPPORTED` (directory, binary, invalid bytes) or `TOO_LARGE`.
 *
 * @internal
 */
export async function loadEditableFile(
  fileSystem: FileSystem,
  resolved: ResolvedPath,
  options: LoadEditableOptions,
): Promise<EditableFile> {
  const display = resolved.display;
  const stat = await fileSystem.stat(resolved.real);
  if (stat === undefined) {
    if (options.expectedSha !== undefined) throw conflictError(display, undefined);
    throw new FileSystemError(
      "FILE_NOT_FOUND",
      `${display} does not exist.`,
      "Check the path with list_directory or glob_search; to create a new file use write_file.",
    );
  }
  if (stat.type === "directory") {
    throw new FileSystemError(
      "INVALID_PATH",
      `${display} is a directory, not a file; only files can be edited.`,
      "List it with list_directory and pick a file inside it.",
    );
  }
  if (stat.size > options.maxBytes) {
    throw new FileSystemError(
      "TOO_LARGE",
      `${display} is ${stat.size} bytes; the edit tools load at most ${options.maxBytes} bytes.`,
      "Edit a smaller file, or ask the user to change this one another way.",
    );
  }
  const bytes = await fileSystem.readFile(resolved.real);
  // Web Crypto hashes off the main thread: decode meanwhile.
  const hashing = sha256Hex(bytes);
  const decoded = decodeText(bytes);
  const sha = await hashing;
  if (options.expectedSha !== undefined && !shaMatches(options.expectedSha, sha)) {
    throw conflictError(display, sha, lastRecordedWrite(fileSystem, resolved.real));
  }
  if (decoded === undefined) {
    throw new FileSystemError(
      "UNSUPPORTED",
      `${display} looks like a binary file; the edit tools change text files only.`,
      "Call file_stats to inspect it.",
    );
  }
  if (decoded.invalidBytes) {
    throw new FileSystemError(
      "UNSUPPORTED",
      `${display} contains bytes that are not valid ${encodingLabel(decoded.encoding)}; editing would corrupt them.`,
      "Leave this file alone, or replace its whole content with write_file if that is really intended.",
    );
  }
  const crlf = decoded.lineEnding === "crlf";
  return {
    bytes,
    sha,
    encoding: decoded.encoding,
    lineEnding: decoded.lineEnding,
    crlf,
    working: crlf ? decoded.text.replace(/\r\n/g, "\n") : decoded.text,
    stat,
  };
}

/**
 * Brings the model's text into the working form of a file (LF for a CRLF file).
 *
 * @internal
 */
export function toWorkingForm(text: string, file: Pick<EditableFile, "crlf">): string {
  return file.crlf ? text.replace(/\r\n/g, "\n") : text;
}

/**
 * Encodes edited working text in the file's encoding and line endings.
 *
 * @internal
 */
export function encodeEditedText(
  working: string,
  file: Pick<EditableFile, "crlf" | "encoding">,
): Uint8Array {
  const text = file.crlf ? working.replace(/\n/g, "\r\n") : working;
  return encodeText(text, file.encoding);
}

/**
 * The new bytes of a file straight from its old bytes, when its text is pure ASCII in UTF-8
 * (with or without BOM) and not CRLF-normalised — then text positions are byte positions and
 * the edit needs no re-encoding of the whole file. `undefined` otherwise.
 *
 * @internal
 */
export function spliceAsciiBytes(
  file: Pick<EditableFile, "bytes" | "encoding" | "crlf" | "working">,
  splices: readonly Splice[],
): Uint8Array | undefined {
  if (file.crlf || (file.encoding !== "utf-8" && file.encoding !== "utf-8-bom")) return undefined;
  const offset = file.encoding === "utf-8-bom" ? 3 : 0;
  if (file.bytes.length - offset !== file.working.length) return undefined;
  const encoder = new TextEncoder();
  const replacements = splices.map((splice) => encoder.encode(splice.replacement));
  let length = file.bytes.length;
  splices.forEach((splice, index) => {
    length += (replacements[index] as Uint8Array).length - (splice.end - splice.start);
  });
  const bytes = new Uint8Array(length);
  let from = 0;
  let to = 0;
  splices.forEach((splice, index) => {
    const head = file.bytes.subarray(from, splice.start + offset);
    bytes.set(head, to);
    to += head.length;
    const replacement = replacements[index] as Uint8Array;
    bytes.set(replacement, to);
    to += replacement.length;
    from = splice.end + offset;
  });
  bytes.set(file.bytes.subarray(from), to);
  return bytes;
}

/**
 * Writes edited bytes and hashes them at once (both off the main thread), running `meanwhile`
 * (e.g. the diff) on the main thread in between.
 *
 * @internal
 */
export async function writeAndHash<T>(
  fileSystem: FileSystem,
  realPath: string,
  bytes: Uint8Array,
  meanwhile: () => T,
): Promise<{ sha: string; value: T }> {
  const hashing = sha256Hex(bytes);
  const writing = fileSystem.writeFile(realPath, bytes);
  let value: T;
  try {
    value = meanwhile();
  } finally {
    await Promise.all([hashing, writing]).catch(() => undefined);
  }
  await writing;
  return { sha: await hashing, value };
}

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

/**
 * Finds `needle` in `text` after removing, before every `\n` of both, either `\r` or all trailing
 * spaces, tabs and `\r`; maps the matches back to ranges of the original text.
 */
function tolerantRanges(text: string, needle: string, trailing: RegExp): Range[] | undefined {
  const normalizedNeedle = needle
    .split("\n")
    .map((line, index, all) => (index < all.length - 1 ? line.replace(trailing, "") : line));
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
    const stripped = index < lines.length - 1 ? line.replace(trailing, "") : line;
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

function findRanges(text: string, needle: string): { ranges: Range[]; matchKind: MatchKind } {
  const ranges = exactRanges(text, needle);
  if (ranges.length > 0) return { ranges, matchKind: "exact" };
  const lineEndingRanges = tolerantRanges(text, needle, /\r$/);
  if (lineEndingRanges !== undefined && lineEndingRanges.length > 0) {
    return { ranges: lineEndingRanges, matchKind: "line-endings" };
  }
  const whitespaceRanges = tolerantRanges(text, needle, /[ \t\r]+$/);
  if (whitespaceRanges !== undefined && whitespaceRanges.length > 0) {
    return { ranges: whitespaceRanges, matchKind: "trailing-whitespace" };
  }
  return { ranges: [], matchKind: "exact" };
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

/** The lines of a needle to compare line by line (without a final empty one). */
function needleLines(needle: string): string[] {
  const lines = needle.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Finds where `needle` matches `text` line by line once each line is normalised (indentation
 * or whitespace ignored): the 1-based first lines of up to 10 matches. The first needle line
 * may be the end of a file line, the last one its start.
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
  const matches: number[] = [];
  const last = wanted.length - 1;
  for (let start = 0; start + wanted.length <= fileLines.length; start += 1) {
    let matched = true;
    for (let offset = 0; offset <= last && matched; offset += 1) {
      const line = at(start + offset);
      const want = wanted[offset] as string;
      if (last === 0) matched = line.includes(want);
      else if (offset === 0) matched = line.endsWith(want);
      else if (offset === last) matched = line.startsWith(want);
      else matched = line === want;
    }
    if (matched) {
      matches.push(start + 1);
      if (matches.length >= 10) break;
    }
  }
  return matches;
}

const ignoreIndentation = (line: string) => line.replace(/^[ \t]+/, "").replace(/[ \t\r]+$/, "");
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
function explainWhitespace(text: string, needle: string): string | undefined {
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
  if (edit.oldText.length === 0) {
    return {
      ok: false,
      error: {
        code: "INVALID_INPUT",
        message: `${label}old_text is empty; it must be the exact text to replace.`,
        hint: "Copy the text to change from read_file's output into old_text; to create or overwrite a whole file use write_file.",
      },
    };
  }
  if (edit.oldText === edit.newText) {
    return {
      ok: false,
      error: {
        code: "INVALID_INPUT",
        message: `${label}old_text and new_text are identical; the edit would change nothing.`,
        hint: "Put the changed text in new_text.",
      },
    };
  }
  let { ranges, matchKind } = findRanges(text, edit.oldText);
  let newText = edit.newText;
  let strippedLineNumbers = false;
  let needle = edit.oldText;
  let prefixNote = "";
  if (ranges.length === 0) {
    const prefixes = analyzeLinePrefixes(edit.oldText);
    if (prefixes.consecutive) {
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
      needle = prefixes.stripped;
      const sent = JSON.stringify(prefixes.firstPrefix);
      if (
        candidates.length === 1 &&
        strippedNew !== undefined &&
        strippedNew !== prefixes.stripped
      ) {
        ranges = candidates;
        matchKind = found.matchKind;
        newText = strippedNew;
        strippedLineNumbers = true;
      } else if (candidates.length > 1) {
        const lines = candidates.map((range) => lineOfPosition(text, range.start));
        return {
          ok: false,
          error: {
            code: "PATTERN_NOT_UNIQUE",
            message: `${label}old_text carries read_file's line-number prefixes (${sent} on its first line), which are not part of the file; without them it occurs ${candidates.length} times in ${display}, at lines ${listLines(lines, options.maxListedLines ?? 50)}.`,
            hint: "Send old_text without the line-number prefixes, with enough surrounding lines to match one place.",
          },
        };
      } else if (candidates.length === 1) {
        return {
          ok: false,
          error: {
            code: "INVALID_INPUT",
            message:
              strippedNew === undefined
                ? `${label}old_text carries read_file's line-number prefixes (${sent} on its first line), and new_text carries them on only some lines; they are not part of the file.`
                : `${label}old_text carries read_file's line-number prefixes (${sent} on its first line); without them old_text and new_text are identical, so the edit would change nothing.`,
            hint: "Send old_text and new_text without the line-number prefixes.",
          },
        };
      } else {
        prefixNote = ` old_text carries read_file's line-number prefixes (${sent} on its first line), which are not part of the file; even without them it is not in the file.`;
      }
    } else if (prefixes.prefixed > 0) {
      prefixNote = ` ${prefixes.prefixed === 1 ? "A line" : `${prefixes.prefixed} lines`} of old_text start${prefixes.prefixed === 1 ? "s" : ""} with what looks like read_file's line-number prefix (${JSON.stringify(prefixes.firstPrefix)}), which is not part of the file.`;
    }
  }
  if (ranges.length === 0) {
    const whitespace = explainWhitespace(text, needle);
    if (whitespace !== undefined) {
      return {
        ok: false,
        error: {
          code: "PATTERN_NOT_FOUND",
          message: `${label}old_text was not found in ${display}.${prefixNote}${whitespace}`,
          hint: `Copy old_text again with the file's exact indentation and spacing, as shown above${prefixNote.length > 0 ? ", without the line-number prefixes" : ""}.`,
        },
      };
    }
    const region = findClosestRegion(text, needle);
    const closest =
      region === undefined
        ? " Nothing in the file resembles it."
        : ` The closest region is at line${region.startLine === region.endLine ? ` ${region.startLine}` : `s ${region.startLine}–${region.endLine}`}:\n${region.excerpt}`;
    return {
      ok: false,
      error: {
        code: "PATTERN_NOT_FOUND",
        message: `${label}old_text was not found in ${display}.${prefixNote}${closest}`,
        hint: `Re-read ${display} with read_file${region === undefined ? "" : ` (offset=${Math.max(1, region.startLine - 5)})`} and copy old_text exactly as it is now, including whitespace and indentation (without the line-number prefix).`,
      },
    };
  }
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  for (const range of ranges) {
    line += countNewlines(text, range.start, counted);
    counted = range.start;
    lines.push(line);
  }
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
