import { tokenize } from "../engine/tokenize.js";

/** A run of whole lines (1-based, inclusive). */
export interface LineSpan {
  start: number;
  end: number;
}

/**
 * The lines of `span` to show within `budget` characters (lines joined by `\n`): the run of
 * whole lines where the query's terms are densest — most distinct terms, then most occurrences,
 * then the one nearest `anchor` (the hit's first line) — so the excerpt shows why the hit matched
 * instead of the start of a long passage. Terms are the family tokenizer's (stemmed, stop words
 * dropped), as the index matched them. A span that fits is returned whole; with no term in any
 * line, the run starting at `anchor`.
 *
 * @param lines - the file's lines (0-based array; spans are 1-based)
 * @param span - the passage's lines
 * @param queryTerms - the query's terms (`tokenize(query, { mode: "query" })`)
 * @param budget - characters the excerpt may hold
 * @param anchor - the hit chunk's first line, inside `span`
 * @returns the lines to show (at least one line)
 */
export function densestLines(
  lines: readonly string[],
  span: LineSpan,
  queryTerms: ReadonlySet<string>,
  budget: number,
  anchor: number,
): LineSpan {
  const length = (line: number) => (lines[line - 1] ?? "").length + 1;
  let total = -1;
  for (let line = span.start; line <= span.end; line += 1) total += length(line);
  if (total <= budget) return span;
  // Each line's matched terms.
  const matched: string[][] = [];
  for (let line = span.start; line <= span.end; line += 1) {
    const text = lines[line - 1] ?? "";
    matched.push(
      queryTerms.size === 0 ? [] : tokenize(text).filter((term) => queryTerms.has(term)),
    );
  }
  const counts = new Map<string, number>();
  let distinct = 0;
  let occurrences = 0;
  let best = { start: anchor, end: anchor, distinct: -1, occurrences: -1, distance: Infinity };
  let characters = -1;
  let left = span.start;
  for (let right = span.start; right <= span.end; right += 1) {
    characters += length(right);
    for (const term of matched[right - span.start] as string[]) {
      const count = counts.get(term) ?? 0;
      if (count === 0) distinct += 1;
      counts.set(term, count + 1);
      occurrences += 1;
    }
    while (left < right && characters > budget) {
      characters -= length(left);
      for (const term of matched[left - span.start] as string[]) {
        const count = (counts.get(term) ?? 1) - 1;
        if (count === 0) distinct -= 1;
        counts.set(term, count);
        occurrences -= 1;
      }
      left += 1;
    }
    const distance =
      left <= anchor && anchor <= right
        ? 0
        : Math.min(Math.abs(left - anchor), Math.abs(right - anchor));
    if (
      distinct > best.distinct ||
      (distinct === best.distinct && occurrences > best.occurrences) ||
      (distinct === best.distinct && occurrences === best.occurrences && distance < best.distance)
    ) {
      best = { start: left, end: right, distinct, occurrences, distance };
    }
  }
  return { start: best.start, end: best.end };
}

/** An excerpt fitted to a cap, and the lines it shows. */
export interface FocusedExcerpt {
  excerpt: string;
  /** Whether the passage held more: lines left out (the reference names the lines shown) or a line cut. */
  truncated: boolean;
  start_line: number;
  end_line: number;
  reference: string;
}

/**
 * Fits a hit's excerpt to `max` characters around the match: when it is longer, the excerpt
 * becomes the run of whole lines where the query's terms are densest ({@link densestLines}) and
 * the hit's lines and reference (`file.md:12-40`) name exactly that run. An excerpt whose lines
 * are not the hit's span line for line (a piece of one long line, a redacted key) is cut at the
 * cap from its start, its span kept.
 *
 * @param hit - the excerpt, its lines and its reference (`…:start-end`)
 * @param queryTerms - the query's terms (`tokenize(query, { mode: "query" })`)
 * @param max - characters the excerpt may hold
 * @returns the excerpt to show and its lines
 */
export function focusExcerpt(
  hit: { excerpt: string; start_line: number; end_line: number; reference: string },
  queryTerms: ReadonlySet<string>,
  max: number,
): FocusedExcerpt {
  const { excerpt, start_line, end_line, reference } = hit;
  if (excerpt.length <= max) return { excerpt, truncated: false, start_line, end_line, reference };
  const lines = excerpt.split("\n");
  const suffix = `:${start_line}-${end_line}`;
  if (lines.length !== end_line - start_line + 1 || !reference.endsWith(suffix)) {
    return { excerpt: cutAt(excerpt, max), truncated: true, start_line, end_line, reference };
  }
  const shown = densestLines(lines, { start: 1, end: lines.length }, queryTerms, max, 1);
  const text = lines.slice(shown.start - 1, shown.end).join("\n");
  const start = start_line + shown.start - 1;
  const end = start_line + shown.end - 1;
  return {
    excerpt: text.length > max ? cutAt(text, max) : text,
    truncated: text.length > max || shown.start > 1 || shown.end < lines.length,
    start_line: start,
    end_line: end,
    reference: `${reference.slice(0, -suffix.length)}:${start}-${end}`,
  };
}

/** Cuts text to `max` characters, at a line end when one falls in the last third, never inside a surrogate pair. */
function cutAt(text: string, max: number): string {
  let end = max;
  const lineEnd = text.lastIndexOf("\n", max);
  if (lineEnd >= Math.floor((max * 2) / 3)) end = lineEnd;
  else {
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  }
  return text.slice(0, end);
}
