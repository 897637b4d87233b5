import { OPTIONAL_END, VOID_ELEMENTS } from "./html-scan.js";

/** Documents above this size are converted in pieces (each piece parses and walks apart). */
const SPLIT_THRESHOLD = 128 * 1024;
/** Target size of one piece. */
const PIECE_SIZE = 32 * 1024;
/** Containers whose children can be converted apart without changing the Markdown. */
const NEUTRAL_CONTAINERS = new Set([
  "html",
  "body",
  "main",
  "article",
  "section",
  "div",
  "span",
  "center",
  "font",
]);

/**
 * Cuts a large document into sibling pieces at one nesting level whose container is neutral
 * (body, main, article, section, div), so each piece converts alone to the same Markdown.
 * Gives the whole document back when no safe level is found.
 *
 * @param html - the document
 * @returns the pieces, in order
 */
export function splitLargeHtml(html: string): string[] {
  if (html.length <= SPLIT_THRESHOLD) return [html];
  const tag = /<(\/?)([a-zA-Z!][\w:-]*)[^>]*?(\/?)>/g;
  const stack: string[] = [];
  const boundaries = new Map<number, number[]>();
  let trusted = true;
  // no tag ends after the last `>`: scanning past it would retry every `<` to the end
  const scanned = html.slice(0, html.lastIndexOf(">") + 1);
  for (const match of scanned.matchAll(tag)) {
    const name = (match[2] ?? "").toLowerCase();
    if (VOID_ELEMENTS.has(name) || match[3] === "/" || name.startsWith("!")) continue;
    if (OPTIONAL_END.has(name)) continue;
    if (match[1] === "/") {
      if (stack.at(-1) !== name) {
        trusted = false;
        break;
      }
      stack.pop();
      const container = stack.at(-1);
      if (container !== undefined && NEUTRAL_CONTAINERS.has(container)) {
        const end = (match.index ?? 0) + match[0].length;
        const list = boundaries.get(stack.length) ?? [];
        list.push(end);
        boundaries.set(stack.length, list);
      }
    } else stack.push(name);
  }
  if (!trusted) return [html];
  let best: number[] = [];
  for (const list of boundaries.values()) if (list.length > best.length) best = list;
  if (best.length < 2) return [html];
  const pieces: string[] = [];
  let start = 0;
  for (const end of best) {
    if (end - start >= PIECE_SIZE) {
      pieces.push(html.slice(start, end));
      start = end;
    }
  }
  pieces.push(html.slice(start));
  return pieces;
}

/** Tables above this size are converted in row chunks. */
const LARGE_TABLE_THRESHOLD = 32 * 1024;
/** Rows per chunk of a large table. */
const TABLE_CHUNK_ROWS = 100;
const TABLE_OPENER = /<table\b/gi;
const TABLE_CLOSER = /<\/table>/gi;
const ROW_OPENER = /<tr\b/gi;
const ROW_CLOSER = /<\/tr>/gi;

/** Where the last match of a global expression starts in `text` (-1 when none). */
function lastStart(expression: RegExp, text: string): number {
  expression.lastIndex = 0;
  let last = -1;
  for (let match = expression.exec(text); match !== null; match = expression.exec(text)) {
    last = match.index;
  }
  return last;
}

/**
 * Calls `replace(whole, inner)` for every match of `/<table\b[^>]*>([\s\S]*?)<\/table>/gi` and
 * splices in what it returns, in linear time (an opener with no `>` or `</table>` after it
 * matches nothing, as in the expression).
 */
function replaceTables(html: string, replace: (whole: string, inner: string) => string): string {
  const lastCloser = lastStart(TABLE_CLOSER, html);
  const out: string[] = [];
  let copied = 0;
  TABLE_OPENER.lastIndex = 0;
  for (let match = TABLE_OPENER.exec(html); match !== null; match = TABLE_OPENER.exec(html)) {
    const openEnd = html.indexOf(">", TABLE_OPENER.lastIndex);
    if (openEnd === -1) break;
    if (lastCloser <= openEnd) break;
    TABLE_CLOSER.lastIndex = openEnd + 1;
    const closer = TABLE_CLOSER.exec(html) as RegExpExecArray;
    const end = closer.index + closer[0].length;
    out.push(html.slice(copied, match.index));
    out.push(replace(html.slice(match.index, end), html.slice(openEnd + 1, closer.index)));
    copied = end;
    TABLE_OPENER.lastIndex = end;
  }
  if (copied === 0) return html;
  out.push(html.slice(copied));
  return out.join("");
}

/**
 * The rows of a table's inner HTML as `inner.match(/<tr\b[^>]*>[\s\S]*?<\/tr>/gi)` gives them,
 * or `undefined` when some `<tr` opens no such row (then the table is not chunked), in linear time.
 */
function tableRows(inner: string): string[] | undefined {
  const lastOpener = lastStart(ROW_OPENER, inner);
  if (lastOpener === -1) return undefined;
  // every `<tr` matches only when the last one does: it needs a `>` and a `</tr>` after it
  const lastOpenEnd = inner.indexOf(">", lastOpener);
  if (lastOpenEnd === -1 || lastStart(ROW_CLOSER, inner) <= lastOpenEnd) return undefined;
  const rows = inner.match(/<tr\b[^>]*>[\s\S]*?<\/tr>/gi) ?? [];
  const openRows = inner.match(/<tr\b/gi)?.length ?? 0;
  return openRows === rows.length ? rows : undefined;
}

/**
 * Converts each large, non-nested `<table>` chunk by chunk (the header row repeated for every
 * chunk, then dropped from all but the first chunk's Markdown) and leaves a unique placeholder
 * paragraph in its place. Tables whose rows cannot be told apart safely are left alone.
 *
 * @param html - the document
 * @param translate - converts one chunk of HTML to Markdown
 * @returns the document with placeholders, and each placeholder's Markdown
 */
export function convertLargeTables(
  html: string,
  translate: (piece: string) => string,
): { html: string; tables: Map<string, string> } {
  const tables = new Map<string, string>();
  if (html.length <= LARGE_TABLE_THRESHOLD) return { html, tables };
  const token = `agentooltable${Math.random().toString(36).slice(2)}x`;
  const rewritten = replaceTables(html, (whole, inner) => {
    if (whole.length <= LARGE_TABLE_THRESHOLD || /<table\b/i.test(inner)) return whole;
    const rows = tableRows(inner);
    if (rows === undefined || rows.length < TABLE_CHUNK_ROWS * 2) return whole;
    const [header, ...body] = rows as [string, ...string[]];
    const parts: string[] = [];
    for (let start = 0; start < body.length; start += TABLE_CHUNK_ROWS) {
      const chunk = body.slice(start, start + TABLE_CHUNK_ROWS).join("");
      const markdown = translate(
        `<table><thead>${header}</thead><tbody>${chunk}</tbody></table>`,
      ).trim();
      const lines = markdown.split("\n");
      parts.push((start === 0 ? lines : lines.slice(2)).join("\n"));
    }
    const key = `${token}${tables.size}`;
    tables.set(key, parts.join("\n"));
    return `<p>${key}</p>`;
  });
  return { html: rewritten, tables };
}
