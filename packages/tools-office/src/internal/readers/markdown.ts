/**
 * Markdown building blocks every reader shares: inline runs with formatting merged and wrapped,
 * GFM tables, list markers, escaping, spreadsheet column letters.
 *
 * @internal
 */

/** A run of inline text with its formatting. */
export interface InlineSegment {
  /** The text (already Markdown where `raw`, plain otherwise). */
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  /** The text is ready Markdown (a link, an image, a marker): never escaped or wrapped. */
  raw?: boolean;
}

/** Any character {@link escapeInline} may escape (most runs of text hold none: returned as they are). */
const MAY_NEED_ESCAPE = /[\\`*[\]|<_]/;

/**
 * Escapes characters that would start Markdown inline syntax in plain text. A `|` is escaped
 * too (as pandoc's GFM writer does): GFM's table extension reads pipes in any paragraph, and
 * pandoc's reader, seeing one in a list item, nests the item's later siblings a level deeper.
 */
export function escapeInline(text: string): string {
  if (!MAY_NEED_ESCAPE.test(text)) return text;
  return text
    .replace(/[\\`*[\]|]/g, "\\$&")
    .replace(/<(?=[A-Za-z/!?])/g, "\\<")
    .replace(/_/g, (underscore, at: number, whole: string) =>
      /\w/.test(whole[at - 1] ?? "") && /\w/.test(whole[at + 1] ?? "") ? underscore : "\\_",
    );
}

function sameFormat(a: InlineSegment, b: InlineSegment): boolean {
  return (
    !a.raw &&
    !b.raw &&
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.strike === !!b.strike &&
    !!a.code === !!b.code
  );
}

function wrap(segment: InlineSegment): string {
  if (segment.raw) return segment.text;
  if (segment.code) {
    const ticks = segment.text.includes("`") ? "``" : "`";
    return segment.text.trim() === "" ? segment.text : `${ticks}${segment.text}${ticks}`;
  }
  const escaped = escapeInline(segment.text);
  if (!segment.bold && !segment.italic && !segment.strike) return escaped;
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(escaped);
  const [lead, core, trail] = [match?.[1] ?? "", match?.[2] ?? "", match?.[3] ?? ""];
  if (core === "") return escaped;
  let marked = core;
  if (segment.strike) marked = `~~${marked}~~`;
  if (segment.italic) marked = `*${marked}*`;
  if (segment.bold) marked = `**${marked}**`;
  return `${lead}${marked}${trail}`;
}

/**
 * Joins inline segments into Markdown: neighbours with the same formatting are merged first, so
 * `**Hello world**` comes out whole however many runs the document split it into.
 *
 * @param segments - the runs in order
 * @returns one line (or several, where the runs hold line breaks)
 */
export function renderInline(segments: readonly InlineSegment[]): string {
  const merged: InlineSegment[] = [];
  for (const segment of segments) {
    if (segment.text === "") continue;
    const last = merged[merged.length - 1];
    if (last !== undefined && sameFormat(last, segment)) last.text += segment.text;
    else merged.push({ ...segment });
  }
  return merged.map(wrap).join("");
}

/**
 * A Markdown link: `[text](target)`, or the autolink `<target>` when the text is the address
 * itself (so no parser finds the address twice).
 *
 * @param text - the link's text, already Markdown
 * @param target - the address
 * @returns the link
 */
export function markdownLink(text: string, target: string): string {
  const plain = text.replace(/\\([!-/:-@[-`{-~])/g, "$1");
  if (ABSOLUTE_URI.test(target)) {
    if (plain === "" || plain === target || plain === decodedUri(target)) return `<${target}>`;
    if (`mailto:${plain}` === target && EMAIL.test(plain)) return `<${plain}>`;
  }
  return `[${text === "" ? target : text}](${target.replace(/[()\s]/g, encodeURIComponent)})`;
}

/** CommonMark's absolute URI (what an autolink `<…>` may hold): a scheme, `:`, no spaces or `<>`. */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*$/;

/** CommonMark's email autolink (`<name@host>`). */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** A URI with its percent-escapes decoded (itself where one is malformed). */
function decodedUri(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** Escapes a paragraph's start where it would read as a block marker (`# `, `- `, `1. `, `> `). */
export function escapeBlockStart(line: string): string {
  return line.replace(/^(\s*)(#{1,6}\s|[-+]\s|>|\d+[.)]\s)/, "$1\\$2");
}

/** Makes cell text fit one table cell: pipes escaped, line breaks as `<br>`, capped. */
export function tableCell(text: string, maxChars = 2_000): string {
  return capCell(text.replace(/\r?\n/g, "<br>").replace(/\|/g, "\\|").trim(), maxChars);
}

/**
 * Makes inline Markdown (from {@link renderInline}, whose text has its pipes escaped already)
 * fit one table cell: the pipes still bare (in code spans, link texts) escaped, line breaks as
 * `<br>`, capped.
 *
 * @param markdown - the cell's Markdown
 * @param maxChars - the cap
 * @returns the cell
 */
export function markdownTableCell(markdown: string, maxChars = 2_000): string {
  const cell = markdown
    .replace(/\r?\n/g, "<br>")
    .replace(/(\\*)\|/g, (pipe, slashes: string) =>
      slashes.length % 2 === 1 ? pipe : `${slashes}\\|`,
    )
    .trim();
  return capCell(cell, maxChars);
}

function capCell(cell: string, maxChars: number): string {
  return cell.length > maxChars ? `${cell.slice(0, maxChars)}…` : cell;
}

/**
 * A GFM table: the first row is the header (GFM needs one); rows are padded to one width.
 *
 * @param rows - cell texts (already cell-safe: see {@link tableCell})
 * @returns the table's lines
 */
export function markdownTable(rows: readonly (readonly string[])[]): string[] {
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (row: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, index) => row[index] ?? "").join(" | ")} |`;
  const [header, ...body] = rows;
  return [line(header ?? []), `|${" --- |".repeat(width)}`, ...body.map(line)];
}

/** Caps a text at `maxChars`, saying how much was cut. */
export function capText(text: string, maxChars: number, what = "characters"): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n…[${text.length - maxChars} more ${what} of this output left out]`;
}
