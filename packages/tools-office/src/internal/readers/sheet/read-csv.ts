import type { PagedDocument, ReaderInput } from "../types.js";
import { SheetPage } from "./sheet-page.js";

/**
 * Reads a .csv/.tsv as one sheet: RFC 4180 quoting, the delimiter sniffed from the first lines
 * (comma, semicolon, tab, pipe), UTF-8 with or without BOM. Rows stream through the page
 * collector, so only the page's cells are kept.
 *
 * @internal
 */

function sniffDelimiter(text: string, extension: string): string {
  if (extension === "tsv") return "\t";
  const sample = text.slice(0, 20_000).split(/\r?\n/).slice(0, 20);
  let best = ",";
  let bestScore = 0;
  for (const candidate of [",", ";", "\t", "|"]) {
    const counts = sample
      .filter((line) => line !== "")
      .map((line) => line.split(candidate).length - 1);
    const first = counts[0] ?? 0;
    const steady = counts.filter((count) => count === first).length;
    const score = first > 0 ? steady * 10 + first : 0;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Reads the requested page of a CSV file.
 *
 * @param input - the file and request
 * @returns the page
 */
export async function readCsv(input: ReaderInput): Promise<PagedDocument> {
  const { request, yielder } = input;
  let text = new TextDecoder("utf-8").decode(input.bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const delimiter = sniffDelimiter(text, input.extension);
  const page = new SheetPage(
    request.range,
    request.offset ?? 1,
    request.limit ?? input.defaultLimit,
    input.maxPageChars,
  );
  let row = 1;
  let column = 1;
  let field = "";
  let quoted = false;
  const length = text.length;
  for (let at = 0; at < length; at += 1) {
    const character = text[at];
    if (quoted) {
      if (character === '"') {
        if (text[at + 1] === '"') {
          field += '"';
          at += 1;
        } else quoted = false;
      } else field += character;
      continue;
    }
    if (character === '"' && field === "") quoted = true;
    else if (character === delimiter) {
      page.add(row, column, field);
      field = "";
      column += 1;
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[at + 1] === "\n") at += 1;
      page.add(row, column, field);
      field = "";
      column = 1;
      row += 1;
      if ((row & 1023) === 0) await yielder.tick();
    } else field += character;
  }
  if (field !== "" || column > 1) page.add(row, column, field);
  const notes = [
    `Delimiter: ${delimiter === "\t" ? "tab" : JSON.stringify(delimiter)}; row 1 is the file's first line.`,
  ];
  // A CSV file is one table: no sheets to list.
  const {
    sheets: _sheets,
    sheet: _sheet,
    ...result
  } = page.finish({ sheets: [], sheet: "", notes });
  return result;
}
