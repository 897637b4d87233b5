import { isOffsetPastEnd, offsetPastEnd, ToolFailureError } from "@agentool/contract";
import type { DocumentImage, ItemsDocument, PagedDocument } from "./types.js";

/**
 * Paging of documents: Markdown by lines, slides and notebook cells by item (converted whole, or
 * one item at a time as the page reaches it) — each page also held under a character cap (it ends early past it, never mid-line; a single
 * line or item over the cap is cut with a marker).
 *
 * @internal
 */

/** A page cut out of a converted document. */
export interface DocumentPage {
  markdown: string;
  offset: number;
  total: number;
  next_offset?: number;
  truncated: boolean;
  images: DocumentImage[];
}

/** Parses `"3"`, `"3-7"`, `"3-"` into a 1-based inclusive span within `total`. */
export function parseSpan(
  text: string,
  total: number,
  unit: string,
): { first: number; last: number } {
  const match = /^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$/.exec(text);
  const first = Number(match?.[1] ?? Number.NaN);
  const last = match?.[2] === undefined ? first : Number(match?.[3] ?? total);
  if (match === null || first < 1 || last < first) {
    throw new ToolFailureError(
      "INVALID_INPUT",
      `pages=${JSON.stringify(text)} is not a ${unit} span: write "4", "10-25" or "10-".`,
    );
  }
  if (first > total) {
    throw new ToolFailureError(
      "INVALID_INPUT",
      `pages=${JSON.stringify(text)} starts past the end: the document has ${total} ${unit}.`,
      { hint: `Ask for ${unit} between 1 and ${total}.` },
    );
  }
  return { first, last: Math.min(last, total) };
}

/**
 * Refuses an `offset` past the end with the contract's one failure for it.
 *
 * @param offset - the 1-based offset asked for
 * @param total - how many items there are
 * @param unit - the unit, plural (`"lines"`, `"rows"`, `"pages"`)
 * @throws ToolFailureError `INVALID_INPUT` naming the last valid offset
 */
export function refuseOffsetPastEnd(offset: number, total: number, unit: string): void {
  if (isOffsetPastEnd(offset, total)) {
    throw ToolFailureError.fromFailure(
      offsetPastEnd({ tool: "read_document", offset, total, unit }),
    );
  }
}

/**
 * Cuts a page of lines.
 *
 * @param markdown - the whole document
 * @param offset - 1-based first line
 * @param limit - most lines
 * @param maxChars - most characters on the page
 * @returns the page
 */
export function pageLines(
  markdown: string,
  offset: number,
  limit: number,
  maxChars: number,
): DocumentPage {
  const lines = markdown === "" ? [] : markdown.split("\n");
  refuseOffsetPastEnd(offset, lines.length, "lines");
  const out: string[] = [];
  let chars = 0;
  let index = offset - 1;
  for (; index < lines.length && out.length < limit; index += 1) {
    let line = lines[index] ?? "";
    if (out.length === 0 && line.length > maxChars) {
      line = `${line.slice(0, maxChars)}…[line cut at ${maxChars} characters]`;
    } else if (chars + line.length + 1 > maxChars && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
  }
  const page: DocumentPage = {
    markdown: out.join("\n"),
    offset,
    total: lines.length,
    truncated: index < lines.length,
    images: [],
  };
  if (index < lines.length) page.next_offset = index + 1;
  return page;
}

/** One item of a paged document: its Markdown and the images shown with it. */
export interface DocumentItem {
  markdown: string;
  images: DocumentImage[];
}

/** Items a page is cut from, each converted only when the page reaches it. */
export interface ItemSource {
  /** Items in all. */
  count: number;
  /** What they are (`slides`, `cells`), for messages. */
  unit: string;
  /** The item at a 0-based index (converted on demand). */
  item(index: number): DocumentItem | undefined | Promise<DocumentItem | undefined>;
}

/**
 * Cuts a page of items (slides, cells), each item whole unless one alone passes the cap. Only
 * the items on the page are asked for (and the first one past a full page).
 *
 * @param source - the items, converted on demand
 * @param span - the selected items (1-based inclusive), or all
 * @param offset - 1-based position within the selection
 * @param limit - most items
 * @param maxChars - most characters on the page
 * @returns the page (positions relative to the selection)
 */
export async function pageItems(
  source: ItemSource,
  span: { first: number; last: number } | undefined,
  offset: number,
  limit: number,
  maxChars: number,
): Promise<DocumentPage> {
  const first = span?.first ?? 1;
  const last = span?.last ?? source.count;
  const total = Math.max(0, last - first + 1);
  refuseOffsetPastEnd(offset, total, source.unit);
  const parts: string[] = [];
  const images: DocumentImage[] = [];
  let chars = 0;
  let position = offset;
  for (; position <= total && parts.length < limit; position += 1) {
    const item = await source.item(first + position - 2);
    if (item === undefined) break;
    let text = item.markdown;
    if (parts.length === 0 && text.length > maxChars) {
      text = `${text.slice(0, maxChars)}\n…[cut at ${maxChars} characters]`;
    } else if (chars + text.length > maxChars && parts.length > 0) break;
    parts.push(text);
    images.push(...item.images);
    chars += text.length + 2;
  }
  const page: DocumentPage = {
    markdown: parts.join("\n\n"),
    offset,
    total,
    truncated: position <= total,
    images,
  };
  if (position <= total) page.next_offset = position;
  return page;
}

/**
 * Cuts a page of items from a document converted whole (see {@link pageItems}).
 *
 * @param document - the items
 * @param span - the selected items (1-based inclusive), or all
 * @param offset - 1-based position within the selection
 * @param limit - most items
 * @param maxChars - most characters on the page
 * @returns the page (positions relative to the selection)
 */
export function pageItemsOf(
  document: ItemsDocument,
  span: { first: number; last: number } | undefined,
  offset: number,
  limit: number,
  maxChars: number,
): Promise<DocumentPage> {
  const source: ItemSource = {
    count: document.items.length,
    unit: document.unit,
    item: (index) => document.items[index],
  };
  return pageItems(source, span, offset, limit, maxChars);
}

/**
 * A page of items as a reader's paged result (the page's images are not part of it).
 *
 * @param page - the page cut by {@link pageItems}
 * @param unit - what the items are
 * @param notes - the reader's notes
 * @returns the paged result, `next_offset` only on a cut page
 */
export function pagedDocument(
  page: DocumentPage,
  unit: PagedDocument["unit"],
  notes: string[],
): PagedDocument {
  const document: PagedDocument = {
    kind: "paged",
    unit,
    markdown: page.markdown,
    offset: page.offset,
    total: page.total,
    truncated: page.truncated,
    notes,
  };
  if (page.next_offset !== undefined) document.next_offset = page.next_offset;
  return document;
}
