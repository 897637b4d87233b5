import { ToolFailureError } from "@agentool/contract";
import { createYielder } from "../../container/yielder.js";
import { parseSpan, refuseOffsetPastEnd } from "../page-document.js";
import type { PagedDocument, ReaderInput } from "../types.js";
import { measureTypography, type PdfLine, pageLines, pageMarkdown } from "./pdf-layout.js";
import { openPdfium, type PdfiumDocument } from "./pdf-pdfium.js";

/**
 * Reads a PDF's text by page with PDFium (`pdf-pdfium.ts`): only the requested pages (and a few
 * from the start, to measure the body type) are extracted, with a yield between pages; each page
 * comes as `<!-- Page N -->` and Markdown rebuilt from its layout (headings by type size, lists,
 * code, paragraphs: see `pdf-layout.ts`).
 * Encrypted PDFs are refused with `UNSUPPORTED`; pages without text (scans) say so. PDFium runs
 * no JavaScript of the file (no form environment is made) and the document is closed after each
 * call.
 *
 * @internal
 */

/** Pages from the start measured with the requested ones for the body type and heading sizes. */
const SAMPLE_PAGES = 6;

function failure(error: unknown, label: string): ToolFailureError {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "PasswordException" || /password/i.test(message)) {
    return new ToolFailureError(
      "UNSUPPORTED",
      `${label} is encrypted (password-protected PDF) — encrypted documents are not read.`,
      {
        hint: "Ask the user for an unprotected copy.",
      },
    );
  }
  return new ToolFailureError("UNSUPPORTED", `${label} could not be read as a PDF (${message}).`, {
    hint: "The file may be damaged or not a PDF.",
  });
}

/** What one PDF extraction needs (it crosses to the worker thread: plain data only). */
export type PdfJob = Pick<
  ReaderInput,
  "bytes" | "label" | "request" | "defaultLimit" | "maxPageChars"
> & {
  /** The process's memory growth past which the worker is ended (watched by the main thread). */
  maxMemoryBytes: number;
};

/**
 * Extracts the requested pages of a PDF (in the PDF worker thread, or in-process as a fallback).
 *
 * @param input - the file and request (`pages` selects, `offset`/`limit` page within)
 * @returns the page of pages
 */
export async function extractPdf(input: PdfJob): Promise<PagedDocument> {
  const { label, request } = input;
  const yielder = createYielder();
  let document: PdfiumDocument;
  try {
    document = await openPdfium(input.bytes);
  } catch (error) {
    throw failure(error, label);
  }
  try {
    const pageCount = document.pageCount;
    const span =
      request.pages === undefined
        ? { first: 1, last: pageCount }
        : parseSpan(request.pages, pageCount, "pages");
    const total = span.last - span.first + 1;
    const offset = request.offset ?? 1;
    refuseOffsetPastEnd(offset, total, "pages");
    const limit = request.limit ?? input.defaultLimit;
    const lines = new Map<number, PdfLine[]>();
    const linesOf = async (number: number): Promise<PdfLine[]> => {
      const known = lines.get(number);
      if (known !== undefined) return known;
      const page = document.page(number);
      const found = pageLines(page.items, page.monospace);
      lines.set(number, found);
      await yielder.tick();
      return found;
    };
    const last = Math.min(total, offset + limit - 1);
    const wanted: number[] = [];
    for (let position = offset; position <= last; position += 1)
      wanted.push(span.first + position - 1);
    const sample = [
      ...new Set([
        ...Array.from({ length: Math.min(SAMPLE_PAGES, pageCount) }, (_, index) => index + 1),
        ...wanted.slice(0, SAMPLE_PAGES),
      ]),
    ];
    const typography = measureTypography(await Promise.all(sample.map(linesOf)));
    const parts: string[] = [];
    let chars = 0;
    let position = offset;
    for (; position <= last; position += 1) {
      const number = span.first + position - 1;
      const text = pageMarkdown(await linesOf(number), typography);
      lines.delete(number);
      const block = `<!-- Page ${number} -->\n\n${text === "" ? "(no text on this page — it may be a scanned image)" : text}`;
      if (chars + block.length > input.maxPageChars && parts.length > 0) break;
      parts.push(
        block.length > input.maxPageChars
          ? `${block.slice(0, input.maxPageChars)}\n…[page cut at ${input.maxPageChars} characters]`
          : block,
      );
      chars += block.length;
    }
    const title = document.title().trim() || undefined;
    const result: PagedDocument = {
      kind: "paged",
      unit: "pages",
      markdown: parts.join("\n\n"),
      offset,
      total,
      truncated: position <= total,
      notes:
        request.pages === undefined
          ? []
          : [
              `Pages ${span.first}–${span.last} of ${pageCount} selected; offset counts within them.`,
            ],
    };
    if (position <= total) result.next_offset = position;
    if (title !== undefined) result.title = title;
    return result;
  } catch (error) {
    if (error instanceof ToolFailureError) throw error;
    throw failure(error, label);
  } finally {
    document.close();
  }
}
