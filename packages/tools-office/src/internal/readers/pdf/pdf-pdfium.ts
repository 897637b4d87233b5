import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { PdfTextItem } from "./pdf-layout.js";

/**
 * PDFium (the `@embedpdf/pdfium` WebAssembly build) as the PDF text engine: a document opened from
 * bytes, its pages' characters grouped into the text items `pdf-layout.ts` takes — a run of one
 * text object (one font and size) on one line, placed at its first character's origin — with the
 * fonts whose descriptor says fixed-pitch (or whose name says mono/Courier) as monospace.
 *
 * @internal
 */

/** The module's functions this reader calls (numbers in, numbers out). */
interface PdfiumModule {
  pdfium: {
    wasmExports: { malloc: (size: number) => number; free: (pointer: number) => void };
    HEAPU8: Uint8Array;
    HEAPU16: Uint16Array;
    HEAPF64: Float64Array;
    HEAP32: Int32Array;
  };
  PDFiumExt_Init: () => void;
  FPDF_LoadMemDocument: (pointer: number, size: number, password: string) => number;
  FPDF_GetLastError: () => number;
  FPDF_GetPageCount: (document: number) => number;
  FPDF_CloseDocument: (document: number) => void;
  FPDF_GetMetaText: (document: number, tag: string, buffer: number, length: number) => number;
  FPDF_LoadPage: (document: number, index: number) => number;
  FPDF_ClosePage: (page: number) => void;
  FPDFText_LoadPage: (page: number) => number;
  FPDFText_ClosePage: (text: number) => void;
  FPDFText_CountChars: (text: number) => number;
  FPDFText_GetText: (text: number, start: number, count: number, buffer: number) => number;
  FPDFText_GetUnicode: (text: number, index: number) => number;
  FPDFText_GetTextObject: (text: number, index: number) => number;
  FPDFText_GetFontSize: (text: number, index: number) => number;
  FPDFText_GetCharOrigin: (text: number, index: number, x: number, y: number) => boolean;
  FPDFTextObj_GetFont: (object: number) => number;
  FPDFFont_GetBaseFontName: (font: number, buffer: number, length: number) => number;
  FPDFFont_GetFlags: (font: number) => number;
}

/** PDFium's error code for a document that needs a password. */
const PASSWORD_ERROR = 4;

/** The font descriptor's FixedPitch flag. */
const FIXED_PITCH = 1;

let loading: Promise<PdfiumModule> | undefined;

/** The PDFium module of this thread, instantiated once. */
function pdfium(): Promise<PdfiumModule> {
  loading ??= (async () => {
    const { init } = await import("@embedpdf/pdfium");
    const require = createRequire(import.meta.url);
    const wasmBinary = await readFile(require.resolve("@embedpdf/pdfium/pdfium.wasm"));
    const module = (await init({ wasmBinary })) as unknown as PdfiumModule;
    module.PDFiumExt_Init();
    return module;
  })();
  return loading;
}

/**
 * Runs PDFium code; a WebAssembly trap (out of memory, an abort) leaves the module unusable, so the
 * next document gets a fresh one.
 */
function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof Error && error.name === "RuntimeError") loading = undefined;
    throw error;
  }
}

/** One page's items and the names of its monospace fonts. */
export interface PdfiumPage {
  items: PdfTextItem[];
  monospace: Set<string>;
}

/** An open PDF. */
export interface PdfiumDocument {
  pageCount: number;
  /** The 1-based page's text items. */
  page(number: number): PdfiumPage;
  /** The Info dictionary's title, or "". */
  title(): string;
  close(): void;
}

/** Thrown for a PDF that needs a password. */
export class PdfiumPasswordError extends Error {
  override name = "PasswordException";
}

/**
 * Opens a PDF with PDFium.
 *
 * @param bytes - the file
 * @returns the document (close it)
 */
export async function openPdfium(bytes: Uint8Array): Promise<PdfiumDocument> {
  const module = await pdfium();
  const heap = module.pdfium;
  const { malloc, free } = heap.wasmExports;
  const data = malloc(bytes.length);
  heap.HEAPU8.set(bytes, data);
  const document = guarded(() => module.FPDF_LoadMemDocument(data, bytes.length, ""));
  if (document === 0) {
    free(data);
    const code = module.FPDF_GetLastError();
    if (code === PASSWORD_ERROR) throw new PdfiumPasswordError("the PDF needs a password");
    throw new Error(`PDFium could not open it (error ${code})`);
  }
  const scratch = malloc(512);
  const fonts = new Map<number, { name: string; monospace: boolean }>();
  const fontOf = (object: number) => {
    const font = module.FPDFTextObj_GetFont(object);
    let known = fonts.get(font);
    if (known === undefined) {
      const length = module.FPDFFont_GetBaseFontName(font, scratch, 256);
      const name = length > 1 ? decodeLatin(heap.HEAPU8, scratch, length - 1) : `font${font}`;
      const monospace =
        (module.FPDFFont_GetFlags(font) & FIXED_PITCH) !== 0 || /mono|courier/i.test(name);
      known = { name, monospace };
      fonts.set(font, known);
    }
    return known;
  };
  return {
    pageCount: module.FPDF_GetPageCount(document),
    page(number) {
      const page = guarded(() => module.FPDF_LoadPage(document, number - 1));
      if (page === 0) return { items: [], monospace: new Set() };
      const text = module.FPDFText_LoadPage(page);
      try {
        return guarded(() => pageItems(module, text, scratch, fontOf));
      } finally {
        module.FPDFText_ClosePage(text);
        module.FPDF_ClosePage(page);
      }
    },
    title() {
      const length = module.FPDF_GetMetaText(document, "Title", 0, 0);
      if (length <= 2) return "";
      const buffer = malloc(length);
      module.FPDF_GetMetaText(document, "Title", buffer, length);
      const title = decodeUtf16(heap.HEAPU16, buffer >> 1, (length >> 1) - 1);
      free(buffer);
      return title;
    },
    close() {
      module.FPDF_CloseDocument(document);
      free(scratch);
      free(data);
    },
  };
}

function decodeLatin(heap: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...heap.subarray(start, start + length));
}

function decodeUtf16(heap: Uint16Array, start: number, length: number): string {
  let out = "";
  for (let at = 0; at < length; at += 4096)
    out += String.fromCharCode(...heap.subarray(start + at, start + Math.min(length, at + 4096)));
  return out;
}

/** PDFium's mark for a hyphen that broke a word at a line's end. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control character is what it finds.
const BREAK_HYPHEN = /\u0002/g;

/** Control characters and non-characters PDFium may pass through from a font's mapping. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it drops.
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** A run's text as the layout takes it: line breaks as spaces, ligatures spelled out. */
function cleanText(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(BREAK_HYPHEN, "-")
    .replace(UNPRINTABLE, "")
    .replace(/[\ufb00-\ufb06]/g, (ligature) => ligature.normalize("NFKC"));
}

function pageItems(
  module: PdfiumModule,
  text: number,
  scratch: number,
  fontOf: (object: number) => { name: string; monospace: boolean },
): PdfiumPage {
  const heap = module.pdfium;
  const count = module.FPDFText_CountChars(text);
  const items: PdfTextItem[] = [];
  const monospace = new Set<string>();
  if (count <= 0) return { items, monospace };
  const buffer = heap.wasmExports.malloc((count + 1) * 2);
  const written = module.FPDFText_GetText(text, 0, count, buffer);
  const units = decodeUtf16(heap.HEAPU16, buffer >> 1, Math.max(0, written - 1));
  heap.wasmExports.free(buffer);
  // Characters beyond the BMP take two UTF-16 units: then one string per character keeps indexes.
  const characters =
    units.length === count
      ? undefined
      : Array.from({ length: count }, (_, index) =>
          String.fromCodePoint(module.FPDFText_GetUnicode(text, index) || 32),
        );
  const slice = (from: number, to: number) =>
    characters === undefined ? units.slice(from, to) : characters.slice(from, to).join("");
  const code = (index: number) =>
    characters === undefined ? units.charCodeAt(index) : (characters[index] ?? " ").charCodeAt(0);
  let object = 0;
  let start = 0;
  const flush = (end: number) => {
    if (end > start && object !== 0) {
      const font = fontOf(object);
      if (font.monospace) monospace.add(font.name);
      const size = module.FPDFText_GetFontSize(text, start);
      module.FPDFText_GetCharOrigin(text, start, scratch, scratch + 8);
      const x = heap.HEAPF64[scratch >> 3] ?? 0;
      const y = heap.HEAPF64[(scratch >> 3) + 1] ?? 0;
      items.push({
        str: cleanText(slice(start, end)),
        height: size,
        transform: [size, 0, 0, size, x, y],
        fontName: font.name,
      });
    }
    start = end;
  };
  for (let index = 0; index < count; index += 1) {
    const unit = code(index);
    if (unit === 13 || unit === 10) {
      // A line break PDFium inferred: the item ends with a space.
      if (index + 1 < count && code(index + 1) === 10) continue;
      flush(index + 1);
      object = 0;
      continue;
    }
    const owner = module.FPDFText_GetTextObject(text, index);
    if (owner === 0 || owner === object) continue; // a generated space joins its run
    if (object === 0)
      start = index; // generated characters opening a line are dropped
    else flush(index);
    object = owner;
  }
  flush(count);
  return { items, monospace };
}
