import { formatCount } from "./authoring/text.js";
/** What a truncation cut away, handed to the `next` callback so it can say how to get the rest. */
export interface TruncationCut {
  /** Lines kept (a partially kept last line counts as kept). */
  shownLines: number;
  /** Lines in the whole text. */
  totalLines: number;
  /** Whole lines dropped after the kept part. */
  omittedLines: number;
  /** Characters (UTF-16 code units) dropped. */
  omittedCharacters: number;
  /** Which limit cut the text. */
  limit: "lines" | "characters" | "bytes";
}

/** Limits for {@link truncateText}. Each is optional; the tightest one wins. */
export interface TruncateTextOptions {
  /** Keep at most this many lines. */
  maxLines?: number;
  /** Keep at most this many characters (UTF-16 code units; never splits a surrogate pair). */
  maxCharacters?: number;
  /** Keep at most this many UTF-8 bytes (never splits a character). */
  maxBytes?: number;
  /**
   * How the model gets the rest, e.g. `"call again with offset=201"`.
   * A function receives what was cut. Without it the marker says to narrow the request.
   */
  next?: string | ((cut: TruncationCut) => string);
}

/** The result of {@link truncateText}. */
export interface TruncatedText {
  /** The kept text, followed by the marker when anything was cut. */
  text: string;
  /** Whether anything was cut. */
  truncated: boolean;
  /** Details of the cut, when there was one. */
  cut?: TruncationCut;
}

/** What {@link formatTruncationMarker} needs. */
export interface TruncationMarkerOptions {
  /** How many units were left out. */
  omitted: number;
  /** The unit, plural: `"lines"`, `"characters"`, `"bytes"`, `"entries"`, `"matches"`… */
  unit: string;
  /** How to get the rest, e.g. `"call read_file again with offset=201"`. */
  next?: string;
  /** `omitted` is a lower bound: the marker says "at least". */
  atLeast?: boolean;
}

/**
 * The singular of a plural unit (`"entries"` → `"entry"`, `"matches"` → `"match"`,
 * `"patch lines"` → `"patch line"`), for counts of exactly one.
 *
 * @param units - a plural unit
 * @returns its singular
 * @example
 * singularUnit("entries"); // "entry"
 */
export function singularUnit(units: string): string {
  if (/ies$/.test(units)) return units.replace(/ies$/, "y");
  if (/(?:ch|sh|x|ss|z)es$/.test(units)) return units.replace(/es$/, "");
  if (/[^s]s$/.test(units)) return units.slice(0, -1);
  return units;
}

/** Recognises the standard truncation marker in model-facing text. */
export const TRUNCATION_MARKER_PATTERN: RegExp =
  /…\[truncated: (?:at least )?[\d,]+ more [a-z -]+(?: — (?:[^\]"[]|"(?:[^"\\]|\\.)*"|\[(?:"(?:[^"\\]|\\.)*"|[^\]"])*\])+)?\]/;

/**
 * Writes the one standard truncation marker every tool uses.
 *
 * @param options - how much was left out and how to get it
 * @returns e.g. `…[truncated: 1,204 more lines — call again with offset=201]`
 * @example
 * formatTruncationMarker({ omitted: 1204, unit: "lines", next: "call again with offset=201" });
 */
export function formatTruncationMarker(options: TruncationMarkerOptions): string {
  const next = options.next ?? "narrow the request to see the rest";
  const count = `${options.atLeast === true ? "at least " : ""}${formatCount(options.omitted)}`;
  const unit = options.omitted === 1 ? singularUnit(options.unit) : options.unit;
  return `…[truncated: ${count} more ${unit} — ${next}]`;
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  let index = text.indexOf("\n");
  while (index !== -1) {
    if (index < text.length - 1) lines += 1;
    index = text.indexOf("\n", index + 1);
  }
  return lines;
}

function lineEndIndex(text: string, maxLines: number): number {
  let seen = 0;
  let index = -1;
  while (seen < maxLines) {
    index = text.indexOf("\n", index + 1);
    if (index === -1) return text.length;
    seen += 1;
  }
  return index;
}

function safeCharacterCut(text: string, maxCharacters: number): number {
  if (maxCharacters >= text.length) return text.length;
  const code = text.charCodeAt(maxCharacters - 1);
  // Do not leave a lone high surrogate at the end.
  return code >= 0xd800 && code <= 0xdbff ? maxCharacters - 1 : maxCharacters;
}

function safeByteCut(text: string, maxBytes: number): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    let size: number;
    let width = 1;
    if (code < 0x80) size = 1;
    else if (code < 0x800) size = 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      size = 4;
      width = 2;
    } else size = 3;
    if (bytes + size > maxBytes) return index;
    bytes += size;
    index += width - 1;
  }
  return text.length;
}

function checkLimit(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw new RangeError(`truncateText: ${name} must be a whole number ≥ 0, got ${value}`);
  }
}

/**
 * Cuts text to a line, character and byte budget and appends the standard marker that tells
 * the model how to get the rest.
 *
 * @param text - the full text
 * @param options - limits and the `next` instruction for the marker
 * @returns the kept text (plus marker) and what was cut
 * @example
 * truncateText(log, { maxLines: 200, maxBytes: 50_000, next: (cut) => `call again with offset=${cut.shownLines + 1}` });
 */
export function truncateText(text: string, options: TruncateTextOptions): TruncatedText {
  checkLimit("maxLines", options.maxLines);
  checkLimit("maxCharacters", options.maxCharacters);
  checkLimit("maxBytes", options.maxBytes);
  let end = text.length;
  let limit: TruncationCut["limit"] | undefined;
  if (options.maxLines !== undefined) {
    const lineEnd = lineEndIndex(text, options.maxLines);
    if (lineEnd < end && text.slice(lineEnd).replace(/^\n/, "").length > 0) {
      end = lineEnd;
      limit = "lines";
    }
  }
  if (options.maxCharacters !== undefined && options.maxCharacters < end) {
    end = safeCharacterCut(text, options.maxCharacters);
    limit = "characters";
  }
  if (options.maxBytes !== undefined && options.maxBytes < end * 3) {
    const byteEnd = safeByteCut(text.slice(0, end), options.maxBytes);
    if (byteEnd < end) {
      end = byteEnd;
      limit = "bytes";
    }
  }
  if (limit === undefined) return { text, truncated: false };
  const kept = text.slice(0, end);
  const totalLines = countLines(text);
  const shownLines = countLines(kept);
  const omittedLines = Math.max(0, totalLines - shownLines);
  const cut: TruncationCut = {
    shownLines,
    totalLines,
    omittedLines,
    omittedCharacters: text.length - end,
    limit,
  };
  const next = typeof options.next === "function" ? options.next(cut) : options.next;
  const marker =
    limit === "lines"
      ? formatTruncationMarker({ omitted: omittedLines, unit: "lines", next })
      : formatTruncationMarker({ omitted: cut.omittedCharacters, unit: "characters", next });
  const separator = kept.endsWith("\n") ? "" : "\n";
  return { text: `${kept}${separator}${marker}`, truncated: true, cut };
}

/** The result of {@link truncateList}. */
export interface TruncatedList<T> {
  /** The kept items. */
  items: T[];
  /** How many were dropped. */
  omitted: number;
  /** The marker to show after the items, or `undefined` when nothing was dropped. */
  marker: string | undefined;
}

/**
 * Keeps the first `maxItems` entries of a list and writes the standard marker for the rest.
 *
 * @param items - the full list
 * @param maxItems - how many to keep
 * @param options - the unit (default `"entries"`) and how to get the rest
 * @returns the kept items, the count dropped and the marker
 * @example
 * const { items, marker } = truncateList(matches, 100, { unit: "matches", next: "narrow the glob" });
 */
export function truncateList<T>(
  items: readonly T[],
  maxItems: number,
  options: { unit?: string; next?: string } = {},
): TruncatedList<T> {
  checkLimit("maxItems", maxItems);
  if (items.length <= maxItems) return { items: [...items], omitted: 0, marker: undefined };
  const omitted = items.length - maxItems;
  return {
    items: items.slice(0, maxItems),
    omitted,
    marker: formatTruncationMarker({
      omitted,
      unit: options.unit ?? "entries",
      next: options.next,
    }),
  };
}
