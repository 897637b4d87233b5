import {
  type ContentBlock,
  defineTool,
  formatCount,
  formatPageMarker,
  givenCallArguments,
  joinSentences,
  type MountedTools,
  ok,
  pagingInputShape,
  singularUnit,
  type Tool,
  type ToolContent,
  ToolFailureError,
} from "@agentool/contract";
import { z } from "zod";
import { createYielder } from "./internal/container/yielder.js";
import { prepareOfficeTool } from "./internal/office-tool.js";
import {
  checkDocumentFile,
  DEFAULT_MAX_PDF_MEMORY_BYTES,
  DEFAULT_MAX_READ_BYTES,
  extensionOf,
  type OfficeReadToolOptions,
  officeReadOptionsShape,
} from "./internal/read-support.js";
import { ConversionCache } from "./internal/readers/conversion-cache.js";
import { DOCUMENT_EXTENSIONS, DOCUMENT_FORMATS } from "./internal/readers/formats.js";
import {
  type DocumentPage,
  pageItemsOf,
  pageLines,
  parseSpan,
} from "./internal/readers/page-document.js";
import type { DocumentImage, SheetInfo } from "./internal/readers/types.js";

export { DEFAULT_MAX_PDF_MEMORY_BYTES } from "./internal/read-support.js";
export type { DocumentImage, SheetInfo } from "./internal/readers/types.js";

/** The default name of the document reader. */
export const READ_DOCUMENT_TOOL_NAME = "read_document";

/** Default page size per unit. */
export const DEFAULT_DOCUMENT_LIMITS: Readonly<Record<ReadDocumentUnit, number>> = {
  lines: 1_000,
  rows: 200,
  pages: 20,
  slides: 20,
  cells: 40,
};

/** Largest `limit` accepted (in any unit). */
export const MAX_DOCUMENT_LIMIT = 5_000;

/** Default cap on the characters of Markdown one page holds (the page ends early past it). */
export const DEFAULT_MAX_PAGE_CHARS = 60_000;

/** What `offset` and `limit` count, per format. */
export type ReadDocumentUnit = "lines" | "rows" | "pages" | "slides" | "cells";

/** Options of {@link createReadDocumentTool}. */
export interface ReadDocumentToolOptions extends OfficeReadToolOptions {
  /** Most characters of Markdown on one page. Default {@link DEFAULT_MAX_PAGE_CHARS}. */
  maxPageChars?: number;
  /**
   * Most bytes reading one PDF may grow the process's resident memory by (sampled every 10 ms
   * while PDFium works in its worker thread); past it the thread is ended and the call fails with `TOO_LARGE`. Concurrent PDF reads share it. Default
   * {@link DEFAULT_MAX_PDF_MEMORY_BYTES} (512 MB).
   */
  maxPdfMemoryBytes?: number;
}

/** What `read_document` returns. */
export interface ReadDocumentToolData {
  /** The file, relative to the root. */
  path: string;
  /** Its format, by extension (`docx`, `xlsx`, `pdf`…). */
  format: string;
  /** The format's display name (`Word document`). */
  format_name: string;
  /** What `offset`, `limit`, `total` count: `lines` of the Markdown (text documents), `rows` (sheets), `pages` (PDF), `slides`, `cells` (notebooks). */
  unit: ReadDocumentUnit;
  /** This page, as Markdown. */
  markdown: string;
  /** 1-based position of the page's first unit (within `pages`/`range` when given). */
  offset: number;
  /** Units in all (exact; within `pages`/`range` when given). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether units after this page were left out. */
  truncated: boolean;
  /** The call's arguments besides offset (the next-page marker repeats them). */
  call_arguments: Record<string, string | number>;
  /** Facts about the reading: macros never run, tracked-change marks, merged cells, cut cells. */
  notes: string[];
  /** Images on this page shown to the model (notebook outputs): source, mime type, base64 data. */
  images: DocumentImage[];
  /** Spreadsheets: every sheet with its size. */
  sheets?: SheetInfo[];
  /** Spreadsheets: the sheet read. */
  sheet?: string;
  /** Spreadsheets: the cell range read (`A1:F200`). */
  range?: string;
  /** The document's title, when it states one. */
  title?: string;
  /** Why the page is empty, when it is. */
  empty_reason?: string;
}

const CELL_RANGE = /^\$?[A-Za-z]{1,3}\$?\d{1,7}(?::\$?[A-Za-z]{1,3}\$?\d{1,7})?$/;

function createInputSchema() {
  return z.object({
    path: z.string().min(1).describe("The document, relative to the workspace root."),
    ...pagingInputShape({
      unit: "unit",
      defaultLimit: DEFAULT_DOCUMENT_LIMITS.lines,
      maxLimit: MAX_DOCUMENT_LIMIT,
      offsetDescription:
        "1-based first unit to return (default 1): a line of the Markdown for text documents, a row for sheets, a page for PDFs, a slide, a notebook cell. A cut result ends with a marker naming the next call's offset.",
      limitDescription:
        "Most units to return (defaults: 1,000 lines, 200 rows, 20 pages, 20 slides, 40 cells).",
    }),
    sheet: z
      .string()
      .min(1)
      .max(300)
      .optional()
      .describe("Spreadsheets only: the sheet to read, by name (default the first)."),
    range: z
      .string()
      .regex(CELL_RANGE)
      .optional()
      .describe(
        "Spreadsheets only: a cell range such as B2:D40; offset then counts rows within it.",
      ),
    pages: z
      .string()
      .regex(/^\s*\d+\s*(?:-\s*\d*)?\s*$/)
      .optional()
      .describe(
        'PDFs and slides only: the pages or slides to read, e.g. "5" or "10-25"; offset then counts within them.',
      ),
  });
}

/** The document reader's input schema. */
export const readDocumentInputSchema = createInputSchema();

/** The document reader's type. */
export type ReadDocumentTool = Tool<typeof readDocumentInputSchema, ReadDocumentToolData>;

/** Field aliases `read_document` accepts silently (alias → field). */
export const READ_DOCUMENT_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  file: "path",
  sheet_name: "sheet",
  page_range: "pages",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Read an office document, PDF or notebook as Markdown: .docx/.odt/.rtf/.epub (headings, nested lists, tables, links, footnotes, comments and tracked changes marked, images named), .xlsx/.ods/.csv (one sheet as a table with row numbers and column letters, formulas beside values, every sheet listed with its size), .pptx/.odp (slides with titles, bullet levels, tables, speaker notes), .pdf (text by page), .ipynb (cells with outputs, image outputs shown).",
    mounted.when(
      "read_file",
      "Use it instead of read_file for these binary formats; read_file stays right for plain text, Markdown and code.",
    ),
    "Long results are paged: text documents by line, sheets by row (or give range, e.g. B2:D40), PDFs by page and slides by slide (or give pages, e.g. 10-25), notebooks by cell.",
    "Macros in .docm/.xlsm are never run; encrypted files are refused.",
    mounted.when("read_image", "For a picture file use read_image."),
  ]);
}

/** Options of {@link formatReadDocument}. */
export interface ReadDocumentFormatOptions {
  /** The tool's name, for the next-page marker. Default `read_document`. */
  toolName?: string;
}

function header(data: ReadDocumentToolData): string {
  const count = `${formatCount(data.total)} ${data.total === 1 ? singularUnit(data.unit) : data.unit}`;
  const what = data.unit === "lines" ? `${count} of Markdown` : count;
  const scope =
    data.sheet === undefined
      ? ""
      : ` — sheet ${JSON.stringify(data.sheet)}${data.range === undefined ? "" : ` ${data.range}`}`;
  const shown =
    data.offset > 1 || data.truncated
      ? `; ${data.unit} ${formatCount(data.offset)}–${formatCount((data.next_offset ?? data.total + 1) - 1)} shown`
      : "";
  return `${data.path} — ${data.format_name}${scope}, ${what}${shown}`;
}

/**
 * Renders a document page for a model: a header (format, size, what is shown), the notes, the
 * list of sheets for a workbook, the Markdown, the next-page marker; image outputs follow as
 * image blocks.
 *
 * @param data - the tool's data
 * @param options - the tool's name
 * @returns model-facing text, or text and image blocks
 * @example
 * formatReadDocument(result.data); // "report.docx — Word document, 120 lines of Markdown\n\n# Quarterly report…"
 */
export function formatReadDocument(
  data: ReadDocumentToolData,
  options: ReadDocumentFormatOptions = {},
): ToolContent {
  const lines = [header(data)];
  if (data.title !== undefined) lines.push(`Title: ${data.title}`);
  for (const note of data.notes) lines.push(note);
  if (data.sheets !== undefined && data.sheets.length > 1) {
    const list = data.sheets.map(
      (sheet) =>
        `${JSON.stringify(sheet.name)} (${formatCount(sheet.rows)} rows × ${formatCount(sheet.columns)} columns${sheet.hidden ? ", hidden" : ""})`,
    );
    lines.push(`Sheets: ${list.join(", ")}`);
  }
  lines.push("");
  lines.push(data.empty_reason ?? data.markdown);
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: options.toolName ?? READ_DOCUMENT_TOOL_NAME,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: data.unit,
        args: data.call_arguments,
      }),
    );
  }
  const text = lines.join("\n");
  if (data.images.length === 0) return text;
  const blocks: ContentBlock[] = [{ type: "text", text }];
  for (const image of data.images) {
    blocks.push({ type: "text", text: `Image: ${image.source}` });
    blocks.push({ type: "image", data: image.data, mimeType: image.mime_type });
  }
  return blocks;
}

const optionsSchema = z
  .object({
    ...officeReadOptionsShape,
    maxPageChars: z.number().int().min(1_000).max(10_000_000).optional(),
    maxPdfMemoryBytes: z.number().int().min(128_000_000).max(100_000_000_000).optional(),
  })
  .strict();

function misplaced(field: string, format: string, allowed: string): ToolFailureError {
  return new ToolFailureError(
    "INVALID_INPUT",
    `${field} applies to ${allowed} only, not to a .${format} file.`,
    {
      hint: `Call again without ${field}.`,
    },
  );
}

/**
 * Creates the `read_document` tool: Word, OpenDocument, RTF, EPUB, Excel, CSV, PowerPoint, PDF
 * and Jupyter files read as Markdown, paged in the format's own unit. Read-only; paths confined
 * to the workspace, secrets refused; hostile files (zip bombs, XML entities, traversal names)
 * refused; parsing yields to the event loop.
 *
 * @param options - `root` (or a tools-fs `workspace`), caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const read = createReadDocumentTool({ root: "/work/docs" });
 * await read.run({ path: "report.docx" }); // { success: true, data: { markdown: "# Quarterly report…", … } }
 */
export function createReadDocumentTool(options: ReadDocumentToolOptions): ReadDocumentTool {
  const {
    options: parsed,
    workspace,
    mounted,
    maxFileBytes,
    definition,
  } = prepareOfficeTool("createReadDocumentTool", optionsSchema, options, {
    kind: "read",
    name: READ_DOCUMENT_TOOL_NAME,
    title: "Read a document",
    describe: defaultDescription,
    maxFileBytes: DEFAULT_MAX_READ_BYTES,
  });
  const maxPageChars = parsed.maxPageChars ?? DEFAULT_MAX_PAGE_CHARS;
  const maxMemoryBytes = parsed.maxPdfMemoryBytes ?? DEFAULT_MAX_PDF_MEMORY_BYTES;
  // The next page of a document converted whole is cut from the same conversion.
  const cache = new ConversionCache();
  const missingHint =
    mounted.first("glob_search", "list_directory") === undefined
      ? "Check the path (relative to the workspace root)."
      : `Find the right path with ${mounted.filter(["glob_search", "list_directory"]).join(" or ")}.`;
  return defineTool({
    ...definition,
    input: readDocumentInputSchema,
    aliases: READ_DOCUMENT_ALIASES,
    execute: async (request, context) => {
      // Confinement first: a path outside the root is refused as such, whatever its extension.
      await workspace.resolve(request.path, { argument: "path" });
      const extension = extensionOf(request.path);
      const format = DOCUMENT_FORMATS[extension];
      if (format === undefined) {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `read_document does not read .${extension || "(no extension)"} files; it reads ${DOCUMENT_EXTENSIONS.map((e) => `.${e}`).join(" ")}.`,
          {
            hint:
              mounted.when("read_file", "Read plain text, Markdown or code with read_file.") ||
              "Give a document of one of those formats.",
          },
        );
      }
      if ((request.sheet !== undefined || request.range !== undefined) && format.unit !== "rows")
        throw misplaced(
          request.sheet !== undefined ? "sheet" : "range",
          extension,
          "spreadsheets (.xlsx .ods .csv)",
        );
      if (request.pages !== undefined && format.unit !== "pages" && format.unit !== "slides")
        throw misplaced("pages", extension, "PDFs and presentations (.pdf .pptx .odp)");
      const file = await checkDocumentFile(workspace, request.path, { maxFileBytes, missingHint });
      const limit = request.limit ?? DEFAULT_DOCUMENT_LIMITS[format.unit];
      const cacheKey = ConversionCache.key(file.resolved.real, file.stat);
      // A cached conversion of this file version needs no read of its bytes.
      const output =
        cache.get(cacheKey) ??
        (await (
          await format.load()
        )({
          bytes: await workspace.fileSystem.readFile(file.resolved.real),
          label: file.resolved.display,
          extension,
          yielder: createYielder(context.signal),
          signal: context.signal,
          request: { ...request, limit },
          defaultLimit: limit,
          maxPageChars,
          maxMemoryBytes,
        }));
      if (output.kind !== "paged") cache.set(cacheKey, output);
      const offset = request.offset ?? 1;
      let page: DocumentPage;
      if (output.kind === "text") page = pageLines(output.markdown, offset, limit, maxPageChars);
      else if (output.kind === "items") {
        const span =
          request.pages === undefined
            ? undefined
            : parseSpan(request.pages, output.items.length, output.unit);
        page = await pageItemsOf(output, span, offset, limit, maxPageChars);
      } else page = { ...output, images: [] };
      const data: ReadDocumentToolData = {
        path: file.resolved.display,
        format: extension,
        format_name: format.name,
        unit: format.unit,
        markdown: page.markdown,
        offset: page.offset,
        total: page.total,
        ...(page.next_offset === undefined ? {} : { next_offset: page.next_offset }),
        truncated: page.truncated,
        call_arguments: givenCallArguments(request) as Record<string, string | number>,
        notes: output.notes,
        images: page.images,
      };
      if (output.kind === "paged") {
        if (output.sheets !== undefined) data.sheets = output.sheets;
        if (output.sheet !== undefined) data.sheet = output.sheet;
        if (output.range !== undefined) data.range = output.range;
      }
      if (output.title !== undefined) data.title = output.title;
      if (page.markdown.trim() === "" && page.images.length === 0) {
        data.empty_reason =
          page.total === 0
            ? `The ${format.name.toLowerCase()} has no ${format.unit === "lines" ? "text" : format.unit}.`
            : `This part of the ${format.name.toLowerCase()} holds no text${format.unit === "pages" ? " (scanned pages are images: text extraction finds nothing there)" : ""}.`;
      }
      return ok(data);
    },
    render: (data) => formatReadDocument(data, { toolName: definition.name }),
  });
}
