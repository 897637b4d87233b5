import type { ToolContext } from "@agentool/contract";
import type { FeedEntry } from "../internal/feed.js";

/** How the response was treated. */
export type WebFetchKind = "html" | "json" | "feed" | "pdf" | "text";

/** A fetched document, whole (before paging). */
export interface FetchedDocument {
  /** The URL asked for (without its fragment). */
  url: string;
  /** The URL after redirects (the target URL when reads are forwarded). */
  final_url: string;
  /** The title (HTML `<title>`, the article's, the feed's or the PDF's), or `""`. */
  title: string;
  /** The Content-Type header (or `""`). */
  content_type: string;
  /** How the response was treated. */
  kind: WebFetchKind;
  /** The readable text: Markdown, pretty JSON, feed entries, PDF text or raw text. */
  text: string;
  /** Whether only the main content of the HTML page was kept (a content extractor matched). */
  main_content: boolean;
  /** Whether the body was longer than the byte cap and was cut (only its beginning was read). */
  body_truncated: boolean;
  /** When it was fetched (ISO 8601). */
  fetched: string;
  /** Feed entries kept (for `kind: "feed"`; at most the largest `max_entries` a call may send). */
  entries?: FeedEntry[];
  /** Entries in the whole feed (for `kind: "feed"`); more than `entries.length` when the host cap kept only the first ones. */
  entries_total?: number;
  /** PDF page count (for `kind: "pdf"`). */
  pages?: number;
  /** Whether the HTML is the page after its JavaScript ran (the `render` option). */
  rendered?: boolean;
}

/** What `web_fetch` returns: one page of the document (every key snake_case). */
export interface WebFetchToolData {
  /** The URL asked for. */
  url: string;
  /** The URL after redirects. */
  final_url: string;
  /** The title, or `""`. */
  title: string;
  /** The Content-Type header. */
  content_type: string;
  /** How the response was treated. */
  kind: WebFetchKind;
  /** This page of the text. */
  content: string;
  /** Whether the body is returned as received (`raw: true` was asked). */
  raw: boolean;
  /** 1-based position of this page's first character in the whole text. */
  offset: number;
  /** The page size asked for (characters). */
  limit: number;
  /** Characters in the whole text (of what was read; see `body_truncated`). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether text after this page was left out (`next_offset` gets it). */
  truncated: boolean;
  /** Whether only the main content of the page was kept. */
  main_content: boolean;
  /** Whether the body hit the byte cap and was cut (not reachable by paging). */
  body_truncated: boolean;
  /** Whether this came from the cache. */
  cached: boolean;
  /** When it was fetched (ISO 8601). */
  fetched: string;
  /** Feed entries (for feeds). */
  entries?: FeedEntry[];
  /** Entries in the whole feed (for feeds). */
  entries_total?: number;
  /** The most entries this call lists (for feeds): `max_entries`, or the host's default. */
  max_entries?: number;
  /** PDF pages (for PDFs). */
  pages?: number;
  /** Whether the page was rendered (its JavaScript ran) before it was read; present when the host configured a renderer. */
  rendered?: boolean;
  /** The saved file's name (relative to the save directory), when saving is on. */
  saved_as?: string;
  /** Why saving failed, when it did (the content is still returned). */
  save_error?: string;
}

/** Saves a fetched document and returns its file name (host hook; `./node` writes Markdown files). */
export type PageSaver = (
  document: FetchedDocument,
  context: ToolContext,
) => Promise<string> | string;
