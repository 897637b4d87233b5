import { importOptionalPeer } from "./optional-import.js";

/** Text pulled out of a PDF. */
export interface PdfText {
  /** The text of every page, pages separated by a blank line. */
  text: string;
  /** How many pages the document has. */
  pages: number;
  /** The document's title from its metadata, when it has one. */
  title?: string;
}

/** Turns PDF bytes into text. The default uses `unpdf` (an optional peer). */
export type PdfTextExtractor = (bytes: Uint8Array, signal: AbortSignal) => Promise<PdfText>;

interface UnpdfModule {
  getDocumentProxy(data: Uint8Array): Promise<{ numPages: number; destroy?: () => Promise<void> }>;
  extractText(
    document: unknown,
    options: { mergePages: false },
  ): Promise<{ totalPages: number; text: string[] }>;
  getMeta?(document: unknown): Promise<{ info?: Record<string, unknown> }>;
}

/**
 * The default PDF text extractor: `unpdf` (pdf.js), imported on first use. When `unpdf` is not
 * installed it fails with `DEPENDENCY_MISSING` and an install hint.
 *
 * @param bytes - the PDF
 * @returns its text, page count and title
 */
export const extractPdfWithUnpdf: PdfTextExtractor = async (bytes) => {
  const unpdf = await importOptionalPeer<UnpdfModule>("unpdf", "Reading PDF files");
  // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
  const document = await unpdf.getDocumentProxy(new Uint8Array(bytes));
  try {
    const { totalPages, text } = await unpdf.extractText(document, { mergePages: false });
    let title: string | undefined;
    try {
      const meta = await unpdf.getMeta?.(document);
      const raw = meta?.info?.Title;
      if (typeof raw === "string" && raw.trim().length > 0) title = raw.trim();
    } catch {
      // metadata is optional
    }
    const pages = text.map((page) => page.replace(/[ \t]+\n/g, "\n").trim());
    return {
      text: pages.join("\n\n"),
      pages: totalPages,
      ...(title === undefined ? {} : { title }),
    };
  } finally {
    await document.destroy?.().catch(() => {});
  }
};
