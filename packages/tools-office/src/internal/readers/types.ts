import type { Yielder } from "../container/yielder.js";

/**
 * The shapes readers hand the `read_document` tool.
 *
 * @internal
 */

/** What the model asked for, as the reader sees it. */
export interface ReadRequest {
  offset?: number;
  limit?: number;
  sheet?: string;
  range?: string;
  pages?: string;
}

/** What every reader gets. */
export interface ReaderInput {
  /** The whole file. */
  bytes: Uint8Array;
  /** Its display path, for messages. */
  label: string;
  /** Lower-case extension without the dot (`docx`). */
  extension: string;
  /** Yields to the event loop; checks the abort signal. */
  yielder: Yielder;
  /** The call's abort signal (a reader running in a worker thread terminates it on abort). */
  signal?: AbortSignal;
  /** Paging and selection. */
  request: ReadRequest;
  /** Default page size in the reader's unit. */
  defaultLimit: number;
  /** Most characters of Markdown one page holds. */
  maxPageChars: number;
  /** Most bytes a reader in a worker thread may grow the process by (PDF); it is ended past it. */
  maxMemoryBytes?: number;
}

/** An image that travels to the model as an image block (notebook outputs). */
export interface DocumentImage {
  /** Where it comes from (`cell 4, output 1`). */
  source: string;
  /** `image/png`, `image/jpeg`… */
  mime_type: string;
  /** Base64 bytes. */
  data: string;
}

/** A document converted whole to Markdown, paged by lines afterwards. */
export interface TextDocument {
  kind: "text";
  markdown: string;
  notes: string[];
  title?: string;
}

/** A document converted to a list of items (slides, notebook cells), paged by items. */
export interface ItemsDocument {
  kind: "items";
  unit: "slides" | "cells";
  items: { markdown: string; images: DocumentImage[] }[];
  notes: string[];
  title?: string;
}

/** One sheet of a workbook. */
export interface SheetInfo {
  /** The sheet's name. */
  name: string;
  /** Rows in its used range (0 when empty; from the file's dimension where it states one). */
  rows: number;
  /** Columns in its used range. */
  columns: number;
  /** Whether the workbook hides it. */
  hidden: boolean;
}

/** A page the reader cut itself (sheet rows streamed, PDF pages and slides converted on demand). */
export interface PagedDocument {
  kind: "paged";
  unit: "rows" | "pages" | "slides";
  markdown: string;
  offset: number;
  total: number;
  next_offset?: number;
  truncated: boolean;
  notes: string[];
  sheets?: SheetInfo[];
  sheet?: string;
  range?: string;
  title?: string;
}

/** What a reader returns. */
export type ReaderOutput = TextDocument | ItemsDocument | PagedDocument;

/** A reader of one family of formats. */
export type DocumentReader = (input: ReaderInput) => Promise<ReaderOutput>;
