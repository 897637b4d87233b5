import type { FetchedDocument, WebFetchToolData } from "./fetched-document.js";

/** One page of a document, and how the call asked for it. */
export interface PageOfDocument {
  /** The page's text. */
  content: string;
  /** 0-based index after the page's last character. */
  end: number;
  /** 1-based first character. */
  offset: number;
  /** The page size asked for. */
  limit: number;
  /** Whether `raw` was asked. */
  raw: boolean;
  /** Whether the document came from the cache. */
  cached: boolean;
  /** The feed entries this call lists (feeds only). */
  maxEntries: number;
}

/**
 * The data of one `web_fetch` page: the document's facts, the page and its paging fields.
 *
 * @param document - the document this call reads
 * @param page - the page and the call's choices
 * @returns the tool's data (snake_case keys; optional ones only when they apply)
 */
export function pageData(document: FetchedDocument, page: PageOfDocument): WebFetchToolData {
  const total = document.text.length;
  const data: WebFetchToolData = {
    url: document.url,
    final_url: document.final_url,
    title: document.title,
    content_type: document.content_type,
    kind: document.kind,
    raw: page.raw,
    content: page.content,
    offset: page.offset,
    limit: page.limit,
    total,
    truncated: page.end < total,
    main_content: document.main_content,
    body_truncated: document.body_truncated,
    cached: page.cached,
    fetched: document.fetched,
  };
  if (page.end < total) data.next_offset = page.end + 1;
  if (document.entries !== undefined) {
    data.entries = document.entries;
    data.max_entries = page.maxEntries;
  }
  if (document.entries_total !== undefined) data.entries_total = document.entries_total;
  if (document.pages !== undefined) data.pages = document.pages;
  if (document.rendered !== undefined) data.rendered = document.rendered;
  return data;
}
