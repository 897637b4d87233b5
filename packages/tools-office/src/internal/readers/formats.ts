import type { DocumentReader } from "./types.js";

/**
 * The formats `read_document` reads, by extension: their display name, the unit a page counts
 * and the reader (loaded on first use, so a host that never reads a PDF never loads PDFium).
 *
 * @internal
 */

/** One readable format. */
export interface DocumentFormat {
  /** Display name (`Word document`). */
  name: string;
  /** What `offset`/`limit` count. */
  unit: "lines" | "rows" | "pages" | "slides" | "cells";
  /** Loads the reader. */
  load: () => Promise<DocumentReader>;
}

const pptx = async () => (await import("./slides/read-pptx.js")).readPptx;
const pdf = async () => (await import("./pdf/read-pdf.js")).readPdf;
const notebook = async () => (await import("./notebook/read-notebook.js")).readNotebook;
const ods = async () => (await import("./sheet/read-ods.js")).readOds;
const odf = async () => (await import("./odf/read-odf.js")).readOdf;
const odp = async () => (await import("./slides/read-odp.js")).readOdp;
const epub = async () => (await import("./epub/read-epub.js")).readEpub;
const rtf = async () => (await import("./rtf/read-rtf.js")).readRtf;
const docx = async () => (await import("./docx/read-docx.js")).readDocx;
const sheet = async () => (await import("./sheet/read-xlsx.js")).readXlsx;
const csv = async () => (await import("./sheet/read-csv.js")).readCsv;

/** Readable formats by lower-case extension. */
export const DOCUMENT_FORMATS: Readonly<Record<string, DocumentFormat>> = {
  docx: { name: "Word document", unit: "lines", load: docx },
  docm: { name: "Word document with macros", unit: "lines", load: docx },
  dotx: { name: "Word template", unit: "lines", load: docx },
  odt: { name: "OpenDocument text", unit: "lines", load: odf },
  rtf: { name: "RTF document", unit: "lines", load: rtf },
  epub: { name: "EPUB book", unit: "lines", load: epub },
  xlsx: { name: "Excel workbook", unit: "rows", load: sheet },
  xlsm: { name: "Excel workbook with macros", unit: "rows", load: sheet },
  ods: { name: "OpenDocument spreadsheet", unit: "rows", load: ods },
  csv: { name: "CSV table", unit: "rows", load: csv },
  tsv: { name: "TSV table", unit: "rows", load: csv },
  pptx: { name: "PowerPoint presentation", unit: "slides", load: pptx },
  pptm: { name: "PowerPoint presentation with macros", unit: "slides", load: pptx },
  odp: { name: "OpenDocument presentation", unit: "slides", load: odp },
  pdf: { name: "PDF document", unit: "pages", load: pdf },
  ipynb: { name: "Jupyter notebook", unit: "cells", load: notebook },
};

/** The extensions read, for messages. */
export const DOCUMENT_EXTENSIONS: readonly string[] = Object.keys(DOCUMENT_FORMATS);
