import { ToolFailureError } from "@agentool/contract";
import {
  type CellRange,
  columnLetters,
  formatCellRange,
  parseCellRange,
} from "../../sheet/cell-reference.js";
import { markdownTable, tableCell } from "../markdown.js";
import { refuseOffsetPastEnd } from "../page-document.js";
import type { PagedDocument, SheetInfo } from "../types.js";

/**
 * One page of a sheet, collected while its rows stream past: only the cells of the page's rows
 * (and the range's columns) are kept, so memory holds one page whatever the sheet's size. Rows
 * are counted within the selection (the sheet from row 1, or the range); the table shows the
 * sheet's own row numbers and column letters.
 *
 * @internal
 */

/** Most columns one page shows (wider sheets are cut; a range reaches the others). */
export const MAX_SHEET_COLUMNS = 50;

/** Most characters of one cell shown. */
export const MAX_CELL_CHARS = 500;

export class SheetPage {
  readonly range: CellRange | undefined;
  readonly #offset: number;
  readonly #limit: number;
  readonly #maxChars: number;
  readonly #rows = new Map<number, Map<number, string>>();
  /** Highest row holding a value (whole sheet). */
  lastRow = 0;
  /** Highest column holding a value (whole sheet). */
  lastColumn = 0;
  readonly merges: string[] = [];

  constructor(rangeText: string | undefined, offset: number, limit: number, maxChars: number) {
    this.range = rangeText === undefined ? undefined : parseCellRange(rangeText);
    if (rangeText !== undefined && this.range === undefined) {
      throw new ToolFailureError(
        "INVALID_INPUT",
        `range=${JSON.stringify(rangeText)} is not a cell range; write e.g. B2:D40.`,
      );
    }
    this.#offset = offset;
    this.#limit = limit;
    this.#maxChars = maxChars;
  }

  /** The first sheet row of the selection. */
  get firstRow(): number {
    return this.range?.firstRow ?? 1;
  }

  /** Whether a row's cells are wanted (inside the page's window). */
  wantsRow(row: number): boolean {
    const position = row - this.firstRow + 1;
    if (this.range !== undefined && row > this.range.lastRow) return false;
    return position >= this.#offset && position < this.#offset + this.#limit;
  }

  /** Records a cell with a value (counted for the size; kept when inside the window). */
  add(row: number, column: number, display: string): void {
    if (display === "") return;
    if (row > this.lastRow) this.lastRow = row;
    if (column > this.lastColumn) this.lastColumn = column;
    if (!this.wantsRow(row)) return;
    if (
      this.range !== undefined &&
      (column < this.range.firstColumn || column > this.range.lastColumn)
    )
      return;
    let cells = this.#rows.get(row);
    if (cells === undefined) {
      cells = new Map();
      this.#rows.set(row, cells);
    }
    cells.set(column, display);
  }

  /**
   * Renders the page.
   *
   * @param info - the sheet list and the sheet's name
   * @returns the paged document
   */
  finish(info: { sheets: SheetInfo[]; sheet: string; notes: string[] }): PagedDocument {
    const range = this.range;
    const lastRow = range === undefined ? this.lastRow : Math.min(range.lastRow, this.lastRow);
    const total = Math.max(0, lastRow - this.firstRow + 1);
    refuseOffsetPastEnd(this.#offset, total, "rows");
    const firstColumn = range?.firstColumn ?? 1;
    const wantedLast = range?.lastColumn ?? this.lastColumn;
    const lastColumn = Math.min(wantedLast, firstColumn + MAX_SHEET_COLUMNS - 1);
    const notes = [...info.notes];
    if (wantedLast > lastColumn) {
      notes.push(
        `Columns ${columnLetters(lastColumn + 1)}–${columnLetters(wantedLast)} are not shown (${MAX_SHEET_COLUMNS} at most); read them with range, e.g. ${columnLetters(lastColumn + 1)}1:${columnLetters(wantedLast)}${Math.max(1, lastRow)}.`,
      );
    }
    const letters = [""];
    for (let column = firstColumn; column <= lastColumn; column += 1)
      letters.push(columnLetters(column));
    const rows: string[][] = [letters];
    let chars = 0;
    let position = this.#offset;
    const end = Math.min(total, this.#offset + this.#limit - 1);
    for (; position <= end; position += 1) {
      const row = this.firstRow + position - 1;
      const cells = this.#rows.get(row);
      if (cells === undefined) continue;
      const line = [String(row)];
      for (let column = firstColumn; column <= lastColumn; column += 1) {
        line.push(tableCell(cells.get(column) ?? "", MAX_CELL_CHARS));
      }
      const length = line.reduce((sum, cell) => sum + cell.length + 3, 0);
      if (chars + length > this.#maxChars && rows.length > 1) break;
      chars += length;
      rows.push(line);
    }
    if (this.merges.length > 0) {
      notes.push(
        `Merged cells (the value sits in the first cell): ${this.merges.slice(0, 50).join(", ")}${this.merges.length > 50 ? ` and ${this.merges.length - 50} more` : ""}.`,
      );
    }
    const page: PagedDocument = {
      kind: "paged",
      unit: "rows",
      markdown: rows.length > 1 ? markdownTable(rows).join("\n") : "",
      offset: this.#offset,
      total,
      truncated: position <= total,
      notes,
      sheets: info.sheets,
      sheet: info.sheet,
    };
    if (position <= total) page.next_offset = position;
    if (range !== undefined) page.range = formatCellRange(range);
    return page;
  }
}

/**
 * Picks the sheet a request names (default the first visible one).
 *
 * @param sheets - the workbook's sheets
 * @param wanted - the requested name
 * @param label - the file's display path
 * @returns the sheet's index
 */
export function pickSheet(
  sheets: readonly SheetInfo[],
  wanted: string | undefined,
  label: string,
): number {
  if (sheets.length === 0) throw new ToolFailureError("UNSUPPORTED", `${label} has no sheets.`);
  if (wanted === undefined)
    return Math.max(
      0,
      sheets.findIndex((sheet) => !sheet.hidden),
    );
  const exact = sheets.findIndex((sheet) => sheet.name === wanted);
  if (exact >= 0) return exact;
  const loose = sheets.findIndex(
    (sheet) => sheet.name.toLowerCase() === wanted.trim().toLowerCase(),
  );
  if (loose >= 0) return loose;
  throw new ToolFailureError(
    "INVALID_INPUT",
    `${label} has no sheet named ${JSON.stringify(wanted)}.`,
    {
      hint: `Its sheets: ${sheets.map((sheet) => JSON.stringify(sheet.name)).join(", ")}.`,
    },
  );
}

/** A spreadsheet serial date as ISO text (1900 system, or 1904): 45292 → 2024-01-01. */
export function serialDate(serial: number, date1904: boolean, withTime: boolean): string {
  const days = serial + (date1904 ? 1462 : 0);
  // Excel's 1900 system counts a 29 Feb 1900 that never was: serials from 61 are one day ahead.
  const epoch = Date.UTC(1899, 11, days >= 61 || date1904 ? 30 : 31);
  const date = new Date(epoch + Math.round(days * 86_400_000));
  if (Number.isNaN(date.getTime())) return String(serial);
  const iso = date.toISOString();
  const time = iso.slice(11, 19);
  if (Math.floor(serial) === 0 && serial !== 0) return time;
  return withTime && time !== "00:00:00" ? `${iso.slice(0, 10)} ${time}` : iso.slice(0, 10);
}
