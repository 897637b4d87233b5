import { redactPrivateKeys } from "@agentool/contract";
import type { SgNode } from "@ast-grep/napi";
import type { Metavariable } from "./pattern.js";

/** What one metavariable captured in one match. */
export interface AstCapture {
  /** The metavariable's name without dollars (`ARGS`). */
  name: string;
  /** Whether it is a list metavariable (`$$$ARGS`). */
  multiple: boolean;
  /**
   * The captured source text (a list: from its first node to its last, separators included;
   * `""` for an empty list), cut to the cap (see `cut`).
   */
  text: string;
  /** 1-based line where the capture starts (absent for an empty list). */
  line?: number;
  /** Characters cut from the end of `text`, when it was longer than the cap. */
  cut?: number;
}

/** One match of a structural search. */
export interface AstMatch {
  /** 1-based line where the match starts. */
  start_line: number;
  /** 1-based line where it ends. */
  end_line: number;
  /** 1-based column (UTF-16 characters) where it starts. */
  start_column: number;
  /** 1-based column just past its end. */
  end_column: number;
  /**
   * The source lines the match spans (whole lines, line breaks `\n`), at most the cap's number
   * of lines; a line longer than the line cap is shown as a window around the match (its first
   * line from just before the match's start, its last line up to the match's end), with `…`
   * where text was left out. Private keys redacted.
   */
  text: string;
  /** Lines of the match left out after `text` (0 when it is whole). */
  omitted_lines: number;
  /** What each capturing metavariable of the pattern matched, in pattern order. */
  captures: AstCapture[];
}

/** The caps of a match record. */
export interface MatchCaps {
  /** Most lines of a match shown. */
  maxMatchLines: number;
  /** Longest line shown. */
  maxLineCharacters: number;
  /** Longest capture shown. */
  maxCaptureCharacters: number;
}

/** Characters shown before the match's start in a line cut to a window. */
const WINDOW_LEAD = 40;

/**
 * A window of a long line with `…` where text was cut: from a little before `from` (0-based)
 * when given, else ending at `to`, else the line's start.
 */
function windowOf(line: string, max: number, anchor: { from?: number; to?: number }): string {
  if (line.length <= max) return line;
  let start = 0;
  if (anchor.from !== undefined) start = Math.max(0, anchor.from - WINDOW_LEAD);
  else if (anchor.to !== undefined) start = Math.max(0, anchor.to - max + WINDOW_LEAD);
  start = Math.min(start, line.length - max);
  const end = start + max;
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

/** Start offsets of every line of a text (for cutting whole lines out of it). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
    starts.push(index + 1);
  return starts;
}

function lineAt(text: string, starts: readonly number[], line: number): string {
  const start = starts[line] ?? text.length;
  const next = starts[line + 1];
  const end = next === undefined ? text.length : next - 1;
  return text.slice(start, end).replace(/\r$/, "");
}

/** The text of a capture: one node's, or a list's from its first node to its last. */
export function captureText(
  node: SgNode,
  metavariable: Metavariable,
  text: string,
): { text: string; node?: SgNode } | undefined {
  if (!metavariable.multiple) {
    const captured = node.getMatch(metavariable.name);
    return captured === null ? undefined : { text: captured.text(), node: captured };
  }
  const list = node.getMultipleMatches(metavariable.name);
  const first = list[0];
  const last = list[list.length - 1];
  if (first === undefined || last === undefined) return { text: "" };
  return { text: text.slice(first.range().start.index, last.range().end.index), node: first };
}

/**
 * Builds the record of one match: its position, the lines it spans (capped) and its captures.
 *
 * @param node - the matched node
 * @param text - the file's text
 * @param starts - {@link lineStarts} of the text
 * @param metavariables - the pattern's capturing metavariables
 * @param caps - the caps
 * @returns the record
 */
export function matchRecord(
  node: SgNode,
  text: string,
  starts: readonly number[],
  metavariables: readonly Metavariable[],
  caps: MatchCaps,
): AstMatch {
  const range = node.range();
  const shownEnd = Math.min(range.end.line, range.start.line + caps.maxMatchLines - 1);
  const lines: string[] = [];
  for (let line = range.start.line; line <= shownEnd; line += 1) {
    const anchor =
      line === range.start.line
        ? { from: range.start.column }
        : line === range.end.line
          ? { to: range.end.column }
          : {};
    lines.push(windowOf(lineAt(text, starts, line), caps.maxLineCharacters, anchor));
  }
  const captures: AstCapture[] = [];
  for (const metavariable of metavariables) {
    const captured = captureText(node, metavariable, text);
    if (captured === undefined) continue;
    const capture: AstCapture = {
      name: metavariable.name,
      multiple: metavariable.multiple,
      text: redactPrivateKeys(captured.text.slice(0, caps.maxCaptureCharacters)),
    };
    if (captured.node !== undefined) capture.line = captured.node.range().start.line + 1;
    if (captured.text.length > caps.maxCaptureCharacters)
      capture.cut = captured.text.length - caps.maxCaptureCharacters;
    captures.push(capture);
  }
  return {
    start_line: range.start.line + 1,
    end_line: range.end.line + 1,
    start_column: range.start.column + 1,
    end_column: range.end.column + 1,
    text: redactPrivateKeys(lines.join("\n")),
    omitted_lines: range.end.line - shownEnd,
    captures,
  };
}
