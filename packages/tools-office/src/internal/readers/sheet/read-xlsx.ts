import { ToolFailureError } from "@agentool/contract";
import { containerKind, oleFailure } from "../../container/detect.js";
import {
  attribute,
  childElement,
  childElements,
  localName,
  prefixedAttribute,
} from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { openZip, type ZipArchive } from "../../container/zip.js";
import { parseCellRange, parseCellReference } from "../../sheet/cell-reference.js";
import {
  hasMacros,
  MACRO_NOTE,
  mainPartName,
  readPart,
  readRelationships,
} from "../ooxml-package.js";
import type { PagedDocument, ReaderInput, SheetInfo } from "../types.js";
import { pickSheet, SheetPage, serialDate } from "./sheet-page.js";
import {
  type NumberKind,
  numberKinds,
  readSharedStrings,
  shiftFormula,
  streamPart,
} from "./xlsx-parts.js";

/**
 * Reads one sheet of an .xlsx/.xlsm as a Markdown table, streaming the sheet's XML row by row
 * (SAX over a sliced inflate): memory holds the file, the shared strings and one page of cells,
 * never the sheet as objects. Formulas are shown beside their cached values (shared formulas
 * translated), dates by their number format, merged ranges listed.
 *
 * @internal
 */

interface SheetEntry extends SheetInfo {
  part: string | undefined;
}

async function sheetDimension(archive: ZipArchive, part: string, yielder: Yielder) {
  const control = { stopped: false };
  let size = { rows: 0, columns: 0 };
  await streamPart(
    archive,
    part,
    {
      open: (name, attributes) => {
        const local = localName(name);
        if (local === "dimension") {
          const range = parseCellRange(attributes.ref ?? "");
          if (range !== undefined) size = { rows: range.lastRow, columns: range.lastColumn };
          control.stopped = true;
        } else if (local === "sheetData") control.stopped = true;
      },
    },
    yielder,
    control,
  );
  return size;
}

interface CellState {
  row: number;
  column: number;
  type: string;
  style: number;
  value: string;
  formula: string;
  sharedIndex: string | undefined;
  capture: "v" | "f" | "t" | undefined;
}

function display(
  cell: CellState,
  strings: string[],
  kinds: NumberKind[],
  date1904: boolean,
): string {
  let value = cell.value;
  switch (cell.type) {
    case "s":
      value = strings[Number(cell.value)] ?? "";
      break;
    case "b":
      value = cell.value === "1" ? "TRUE" : cell.value === "0" ? "FALSE" : cell.value;
      break;
    case "n":
    case "": {
      const number = Number(cell.value);
      if (cell.value === "" || !Number.isFinite(number)) break;
      const kind = kinds[cell.style] ?? "number";
      if (kind === "date" || kind === "datetime" || kind === "time")
        value = serialDate(number, date1904, kind !== "date");
      else if (kind === "percent") value = `${Number((number * 100).toPrecision(12))}%`;
      break;
    }
    default:
      break;
  }
  if (cell.formula === "") return value;
  return value === "" ? `=${cell.formula}` : `=${cell.formula} → ${value}`;
}

async function readSheet(
  archive: ZipArchive,
  part: string,
  page: SheetPage,
  lookups: { strings: string[]; kinds: NumberKind[]; date1904: boolean },
  yielder: Yielder,
): Promise<void> {
  const shared = new Map<string, { formula: string; row: number; column: number }>();
  let row = 0;
  let column = 0;
  let cell: CellState | undefined;
  let inInline = false;
  await streamPart(
    archive,
    part,
    {
      open: (name, attributes) => {
        switch (localName(name)) {
          case "row":
            row = attributes.r === undefined ? row + 1 : Number(attributes.r);
            column = 0;
            break;
          case "c": {
            const reference =
              attributes.r === undefined ? undefined : parseCellReference(attributes.r);
            column = reference?.column ?? column + 1;
            cell = {
              row,
              column,
              type: attributes.t ?? "",
              style: Number(attributes.s ?? 0),
              value: "",
              formula: "",
              sharedIndex: undefined,
              capture: undefined,
            };
            break;
          }
          case "v":
            if (cell !== undefined) cell.capture = "v";
            break;
          case "f":
            if (cell === undefined) break;
            cell.capture = "f";
            if (attributes.t === "shared" && attributes.si !== undefined)
              cell.sharedIndex = attributes.si;
            break;
          case "is":
            inInline = true;
            break;
          case "t":
            if (cell !== undefined && inInline) cell.capture = "t";
            break;
          case "mergeCell":
            if (attributes.ref !== undefined) page.merges.push(attributes.ref);
            break;
        }
      },
      text: (text) => {
        if (cell === undefined || cell.capture === undefined) return;
        if (cell.capture === "f") cell.formula += text;
        else cell.value += text;
      },
      close: (name) => {
        const local = localName(name);
        if (local === "c" && cell !== undefined) {
          if (cell.sharedIndex !== undefined) {
            const master = shared.get(cell.sharedIndex);
            if (cell.formula !== "")
              shared.set(cell.sharedIndex, {
                formula: cell.formula,
                row: cell.row,
                column: cell.column,
              });
            else if (master !== undefined)
              cell.formula = shiftFormula(
                master.formula,
                cell.row - master.row,
                cell.column - master.column,
              );
          }
          const wanted = page.wantsRow(cell.row);
          // Outside the page only the size matters: skip the string lookup and formatting.
          page.add(
            cell.row,
            cell.column,
            wanted
              ? display(cell, lookups.strings, lookups.kinds, lookups.date1904)
              : cell.value || cell.formula,
          );
          cell = undefined;
        } else if (local === "is") inInline = false;
        else if ((local === "v" || local === "f" || local === "t") && cell !== undefined)
          cell.capture = undefined;
      },
    },
    yielder,
  );
}

/**
 * Reads the requested sheet (or range) page of a workbook.
 *
 * @param input - the file and request
 * @returns the page, with the list of sheets
 */
export async function readXlsx(input: ReaderInput): Promise<PagedDocument> {
  const { bytes, label, yielder, request } = input;
  if (containerKind(bytes) === "ole") throw oleFailure(bytes, label);
  const archive = openZip(bytes, { label });
  const main = await mainPartName(archive, "xl/workbook.xml", yielder, label);
  const workbook = await readPart(archive, main, yielder);
  const relationships = await readRelationships(archive, main, yielder);
  if (workbook === undefined)
    throw new ToolFailureError("UNSUPPORTED", `${label} has no workbook part.`);
  const properties = childElement(workbook, "workbookPr");
  const date1904 =
    properties !== undefined && /^(1|true)$/.test(attribute(properties, "date1904") ?? "");
  const sheetsElement = childElement(workbook, "sheets");
  const sheets: SheetEntry[] = [];
  for (const sheet of sheetsElement === undefined ? [] : childElements(sheetsElement, "sheet")) {
    const target = relationships.get(prefixedAttribute(sheet, "id") ?? "");
    const part = target !== undefined && archive.has(target.target) ? target.target : undefined;
    const size =
      part === undefined ? { rows: 0, columns: 0 } : await sheetDimension(archive, part, yielder);
    sheets.push({
      name: attribute(sheet, "name") ?? `Sheet${sheets.length + 1}`,
      ...size,
      hidden: (attribute(sheet, "state") ?? "visible") !== "visible",
      part,
    });
  }
  const index = pickSheet(sheets, request.sheet, label);
  const chosen = sheets[index] as SheetEntry;
  const page = new SheetPage(
    request.range,
    request.offset ?? 1,
    request.limit ?? input.defaultLimit,
    input.maxPageChars,
  );
  const notes: string[] = [];
  if (hasMacros(archive)) notes.push(MACRO_NOTE);
  if (chosen.part !== undefined) {
    const byType = (suffix: string) =>
      [...relationships.values()].find((r) => r.type.endsWith(`/${suffix}`))?.target;
    const strings = await readSharedStrings(archive, byType("sharedStrings"), yielder);
    const stylesPart = byType("styles");
    const kinds = numberKinds(
      stylesPart === undefined ? undefined : await readPart(archive, stylesPart, yielder),
    );
    await readSheet(archive, chosen.part, page, { strings, kinds, date1904 }, yielder);
    chosen.rows = page.lastRow;
    chosen.columns = page.lastColumn;
  } else
    notes.push(
      `Sheet ${JSON.stringify(chosen.name)} is a chart or dialog sheet: it holds no cells.`,
    );
  const result = page.finish({
    sheets: sheets.map(({ part: _part, ...info }) => info),
    sheet: chosen.name,
    notes,
  });
  if (result.markdown.includes("| ="))
    result.notes.push("Formulas are shown as =FORMULA → cached value.");
  return result;
}
