import { ToolFailureError } from "@agentool/contract";
import { parseSpan } from "../page-document.js";
import type { PagedDocument, ReaderInput } from "../types.js";

/**
 * Reads a PDF's text by page with unpdf (pdf.js): only the requested pages are extracted, one
 * at a time with a yield between them; each page comes as `## Page N` and its text lines.
 * Encrypted PDFs are refused with `UNSUPPORTED`; pages without text (scans) say so.
 *
 * @internal
 */

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

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

/**
 * Reads the requested pages of a PDF.
 *
 * @param input - the file and request (`pages` selects, `offset`/`limit` page within)
 * @returns the page of pages
 */
export async function readPdf(input: ReaderInput): Promise<PagedDocument> {
  const { label, request, yielder } = input;
  const { getDocumentProxy } = await import("unpdf");
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(input.bytes.slice(), { stopAtErrors: false });
  } catch (error) {
    throw failure(error, label);
  }
  try {
    const pageCount = document.numPages;
    const span =
      request.pages === undefined
        ? { first: 1, last: pageCount }
        : parseSpan(request.pages, pageCount, "pages");
    const total = span.last - span.first + 1;
    const offset = request.offset ?? 1;
    if (offset > 1 && offset > total) {
      throw new ToolFailureError(
        "INVALID_INPUT",
        `offset=${offset} is past the end: there are ${total} pages${request.pages === undefined ? "" : " in the selection"}.`,
        {
          hint: `Call again with an offset between 1 and ${total}.`,
        },
      );
    }
    const limit = request.limit ?? input.defaultLimit;
    const parts: string[] = [];
    let chars = 0;
    let position = offset;
    for (; position <= total && position < offset + limit; position += 1) {
      const number = span.first + position - 1;
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items as TextItem[]) {
        text += item.str ?? "";
        if (item.hasEOL) text += "\n";
      }
      text = text
        .replace(/[ \t]+\n/g, "\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
      const block = `## Page ${number}\n\n${text === "" ? "(no text on this page — it may be a scanned image)" : text}`;
      if (chars + block.length > input.maxPageChars && parts.length > 0) break;
      parts.push(
        block.length > input.maxPageChars
          ? `${block.slice(0, input.maxPageChars)}\n…[page cut at ${input.maxPageChars} characters]`
          : block,
      );
      chars += block.length;
      page.cleanup();
      await yielder.tick();
    }
    let title: string | undefined;
    try {
      const info = (await document.getMetadata()).info as Record<string, unknown>;
      if (typeof info.Title === "string" && info.Title.trim() !== "") title = info.Title.trim();
    } catch {
      // metadata is optional
    }
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
    void (document as unknown as { destroy?: () => Promise<void> }).destroy?.();
  }
}
