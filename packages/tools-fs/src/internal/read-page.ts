import { formatTruncationMarker, PRIVATE_KEY_REDACTION } from "@agentool/contract";
import { numberLine } from "./line-index.js";
import type { LineEnding, TextEncodingName } from "./text-codec.js";

/** A line of the page that was too long to show whole. */
export interface ReadFileCutLine {
  /** The line's number (1-based). */
  line: number;
  /** How much of it was left out. */
  omitted: number;
  /** The unit of `omitted`: characters, or bytes for a giant line of a streamed file (read only in part). */
  unit: "characters" | "bytes";
}

/**
 * A line to add to a page; `key` marks a line of a private key (shown as the redaction note).
 *
 * @internal
 */
export interface PageLine {
  /** The line without its line break. */
  text: string;
  /** Its line break as in the file (`""`, `"\n"` or `"\r\n"`). */
  ending: string;
  /** Bytes of a giant line that were not read (0 when it was read whole). */
  cutBytes: number;
  /** Whether the line belongs to a private key. */
  key?: boolean | undefined;
}

/**
 * What a page reports about its file besides its lines. `more` tells whether lines follow the
 * page (default: the page ends before `total`); without an exact `total`, `total_at_least` is the
 * lower bound.
 *
 * @internal
 */
export interface PageFacts {
  total?: number;
  total_at_least?: number;
  encoding: TextEncodingName;
  line_ending: LineEnding;
  sha?: string | undefined;
  bytes: number;
  invalid_bytes: boolean;
  streamed: boolean;
  more?: boolean;
}

/**
 * What reading a page came to: the page with its facts, or why there is none (the tool words
 * the failure).
 *
 * @internal
 */
export type PageOutcome =
  | { kind: "page"; page: PageCollector; offset: number; facts: PageFacts }
  | { kind: "binary" }
  | { kind: "utf-16" }
  | { kind: "changed" }
  | { kind: "past-end"; offset: number; total: number };

/**
 * The caps a page honours and what its cut-line notes may name.
 *
 * @internal
 */
export interface PageLimits {
  /** Most characters in one rendered page. */
  maxPageCharacters: number;
  /** Most characters shown of one line. */
  maxLineCharacters: number;
  /** Whether `grep_search` is mounted (named in the note of a cut line). */
  grepSearch: boolean;
}

/**
 * The standard marker at the end of a line cut for length.
 *
 * @param cut - the cut line
 * @param grepSearch - whether the note may name grep_search
 * @returns the marker
 * @internal
 */
export function cutLineMarker(cut: ReadFileCutLine, grepSearch: boolean): string {
  return formatTruncationMarker({
    omitted: cut.omitted,
    unit: cut.unit,
    next: `line ${cut.line} is too long to show whole${grepSearch ? "; grep_search finds text inside it" : ""}`,
  });
}

/**
 * The UTF-8 length of a string in bytes.
 *
 * @internal
 */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Collects a page from decoded lines, honouring the line, page and line-length caps.
 *
 * @internal
 */
export class PageCollector {
  /** The page's text so far, lines with their own endings. */
  content = "";
  /** Lines on the page. */
  shown = 0;
  /** Whether a line of a private key was replaced by the note. */
  redacted = false;
  /** The lines cut for length, in order. */
  readonly cutLines: ReadFileCutLine[] = [];
  /** Rendered characters so far (number, tab, text, marker and line break of each line). */
  #characters = 0;
  readonly #first: number;
  readonly #limit: number;
  readonly #limits: PageLimits;

  /**
   * @param first - the number of the page's first line
   * @param limit - the most lines on the page
   * @param limits - the character caps
   */
  constructor(first: number, limit: number, limits: PageLimits) {
    this.#first = first;
    this.#limit = limit;
    this.#limits = limits;
  }

  /** Adds a line; `false` when the page is full (the line was not added). */
  add(line: PageLine): boolean {
    if (this.shown >= this.#limit) return false;
    const number = this.#first + this.shown;
    if (line.key === true) {
      this.redacted = true;
      line = { text: PRIVATE_KEY_REDACTION, ending: line.ending, cutBytes: 0 };
    }
    const maxLineCharacters = this.#limits.maxLineCharacters;
    let text = line.text;
    let cut: ReadFileCutLine | undefined;
    if (text.length > maxLineCharacters) {
      let end = maxLineCharacters;
      const code = text.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end -= 1;
      cut = { line: number, omitted: text.length - end, unit: "characters" };
      text = text.slice(0, end);
    }
    if (line.cutBytes > 0) {
      // Only the first bytes of a giant line were read: count the rest in bytes.
      const dropped = cut === undefined ? 0 : utf8Length(line.text.slice(text.length));
      cut = { line: number, omitted: line.cutBytes + dropped, unit: "bytes" };
    }
    // The page cap counts the rendered line: number, tab, text and a cut line's marker.
    const rendered =
      numberLine(number, text).length +
      (cut === undefined ? 0 : cutLineMarker(cut, this.#limits.grepSearch).length + 1);
    if (this.shown > 0 && this.#characters + rendered + 1 > this.#limits.maxPageCharacters)
      return false;
    this.content += text + line.ending;
    if (cut !== undefined) this.cutLines.push(cut);
    this.shown += 1;
    this.#characters += rendered + 1;
    return true;
  }
}
