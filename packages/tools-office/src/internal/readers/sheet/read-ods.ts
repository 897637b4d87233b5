import { ToolFailureError } from "@agentool/contract";
import { localName } from "../../container/xml.js";
import { columnLetters } from "../../sheet/cell-reference.js";
import { openOdf } from "../odf/odf-package.js";
import type { PagedDocument, ReaderInput, SheetInfo } from "../types.js";
import { SheetPage } from "./sheet-page.js";
import { streamPart } from "./xlsx-parts.js";

/**
 * Reads one sheet of an .ods, streaming content.xml (all sheets live in it) with SAX: repeated
 * rows and columns are counted, never expanded (a sheet that repeats an empty row a million
 * times costs nothing); only the page's cells are kept; every sheet's used size is measured in
 * the same pass. Formulas (`of:=SUM([.B3:.B4])`) are shown as `=SUM(B3:B4) → value`.
 *
 * @internal
 */

/** Most cells one repeated cell may fill (a hostile repeat count is clamped). */
const MAX_REPEATED_CELLS = 100_000;

function formula(text: string): string {
  return text
    .replace(/^of:/, "")
    .replace(
      /\[\$?'?([^.\]']*)'?\.([^\]]+)\]/g,
      (_match, sheet: string, reference: string) =>
        `${sheet === "" ? "" : `${sheet}!`}${reference.replace(/:\./g, ":")}`,
    )
    .replace(/^=?/, "=");
}

function duration(text: string): string {
  const match = /^-?PT(\d+)H(\d+)M(\d+(?:\.\d+)?)S$/.exec(text);
  if (match === null) return text;
  return `${match[1]?.padStart(2, "0")}:${match[2]?.padStart(2, "0")}:${String(Math.round(Number(match[3]))).padStart(2, "0")}`;
}

interface Cell {
  attributes: Record<string, string>;
  paragraphs: string[];
}

function display(cell: Cell): string {
  const a = cell.attributes;
  const type = a["office:value-type"];
  let value = cell.paragraphs.join("\n");
  if (type === "float" || type === "currency") value = a["office:value"] ?? value;
  else if (type === "percentage")
    value = `${Number((Number(a["office:value"]) * 100).toPrecision(12))}%`;
  else if (type === "date")
    value = (a["office:date-value"] ?? value).replace(/T00:00:00(\.0+)?$/, "").replace("T", " ");
  else if (type === "time") value = duration(a["office:time-value"] ?? value);
  else if (type === "boolean") value = a["office:boolean-value"] === "true" ? "TRUE" : "FALSE";
  const expression = a["table:formula"];
  if (expression === undefined) return value;
  return value === "" ? formula(expression) : `${formula(expression)} → ${value}`;
}

/**
 * Reads the requested sheet page of an .ods.
 *
 * @param input - the file and request
 * @returns the page, with every sheet's size
 */
export async function readOds(input: ReaderInput): Promise<PagedDocument> {
  const { request, yielder } = input;
  const odf = await openOdf(input.bytes, input.label, yielder, false);
  const page = new SheetPage(
    request.range,
    request.offset ?? 1,
    request.limit ?? input.defaultLimit,
    input.maxPageChars,
  );
  const sheets: SheetInfo[] = [];
  let chosen: string | undefined;
  let tableName = "";
  let active = false;
  let size = { rows: 0, columns: 0 };
  let row = 1;
  let rowRepeat = 1;
  let column = 1;
  let cell: Cell | undefined;
  let paragraph: string | undefined;
  const wanted = request.sheet?.trim().toLowerCase();
  const closeCell = () => {
    if (cell === undefined) return;
    const a = cell.attributes;
    const columns = Math.min(1_024, Number(a["table:number-columns-repeated"] ?? 1));
    const text = display(cell);
    if (text !== "") {
      const rows = Math.min(rowRepeat, Math.max(1, Math.floor(MAX_REPEATED_CELLS / columns)));
      for (let r = row; r < row + rows; r += 1) {
        for (let c = column; c < column + columns; c += 1) {
          if (active) page.add(r, c, text);
          size = { rows: Math.max(size.rows, r), columns: Math.max(size.columns, c) };
        }
      }
      const spanColumns = Number(a["table:number-columns-spanned"] ?? 1);
      const spanRows = Number(a["table:number-rows-spanned"] ?? 1);
      if (active && (spanColumns > 1 || spanRows > 1)) {
        page.merges.push(
          `${columnLetters(column)}${row}:${columnLetters(column + spanColumns - 1)}${row + spanRows - 1}`,
        );
      }
    }
    column += Number(a["table:number-columns-repeated"] ?? 1);
    cell = undefined;
  };
  await streamPart(
    odf.archive,
    "content.xml",
    {
      open: (name, attributes) => {
        switch (localName(name)) {
          case "table": {
            if (cell !== undefined) break;
            tableName = attributes["table:name"] ?? `Sheet${sheets.length + 1}`;
            active =
              chosen === undefined && (wanted === undefined || tableName.toLowerCase() === wanted);
            if (active) chosen = tableName;
            size = { rows: 0, columns: 0 };
            row = 1;
            break;
          }
          case "table-row":
            rowRepeat = Number(attributes["table:number-rows-repeated"] ?? 1);
            column = 1;
            break;
          case "table-cell":
          case "covered-table-cell":
            if (cell === undefined) cell = { attributes, paragraphs: [] };
            break;
          case "p":
            if (cell !== undefined) paragraph = "";
            break;
          case "s":
            if (paragraph !== undefined)
              paragraph += " ".repeat(Math.min(100, Number(attributes["text:c"] ?? 1)));
            break;
          case "line-break":
            if (paragraph !== undefined) paragraph += "\n";
            break;
        }
      },
      text: (text) => {
        if (paragraph !== undefined) paragraph += text;
      },
      close: (name) => {
        switch (localName(name)) {
          case "p":
            if (cell !== undefined && paragraph !== undefined) cell.paragraphs.push(paragraph);
            paragraph = undefined;
            break;
          case "table-cell":
          case "covered-table-cell":
            closeCell();
            break;
          case "table-row":
            row += rowRepeat;
            rowRepeat = 1;
            break;
          case "table":
            if (cell !== undefined) break;
            sheets.push({ name: tableName, rows: size.rows, columns: size.columns, hidden: false });
            active = false;
            break;
        }
      },
    },
    yielder,
  );
  if (chosen === undefined) {
    throw new ToolFailureError(
      "INVALID_INPUT",
      `${input.label} has no sheet named ${JSON.stringify(request.sheet ?? "")}.`,
      {
        hint: `Its sheets: ${sheets.map((sheet) => JSON.stringify(sheet.name)).join(", ")}.`,
      },
    );
  }
  const result = page.finish({ sheets, sheet: chosen, notes: odf.notes });
  if (result.markdown.includes("| ="))
    result.notes.push("Formulas are shown as =FORMULA → cached value.");
  return result;
}
