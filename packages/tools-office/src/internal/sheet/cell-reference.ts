/**
 * A1-style cell references: parsing with Excel's bounds (columns A–XFD, rows 1–1,048,576), and
 * the column arithmetic the sheet editor needs.
 *
 * @internal
 */

/** Excel's last column (XFD). */
export const MAX_COLUMNS = 16_384;

/** Excel's last row. */
export const MAX_ROWS = 1_048_576;

/** A parsed cell reference. */
export interface CellReference {
  /** Column number, 1-based (A = 1). */
  column: number;
  /** Row number, 1-based. */
  row: number;
  /** Canonical spelling (`B2`: upper case, no `$`). */
  name: string;
}

/**
 * The letters of a column number.
 *
 * @param column - 1-based column
 * @returns `A`, `Z`, `AA`, …
 */
export function columnLetters(column: number): string {
  let letters = "";
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/**
 * Parses a reference (`B2`, `$B$2`, `b2`).
 *
 * @param text - the reference
 * @returns the cell, or `undefined` when it is not a single cell inside Excel's grid
 */
export function parseCellReference(text: string): CellReference | undefined {
  const match = /^\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})$/.exec(text.trim());
  if (match === null) return undefined;
  const letters = (match[1] as string).toUpperCase();
  let column = 0;
  for (const letter of letters) column = column * 26 + (letter.charCodeAt(0) - 64);
  const row = Number(match[2]);
  if (column > MAX_COLUMNS || row > MAX_ROWS) return undefined;
  return { column, row, name: `${letters}${row}` };
}

/**
 * Parses a range (`A1:C5`) or a single cell as a one-cell range.
 *
 * @param text - the range
 * @returns its corners, or `undefined`
 */
export function parseRange(text: string): { from: CellReference; to: CellReference } | undefined {
  const parts = text.split(":");
  if (parts.length > 2) return undefined;
  const [first, second] = parts;
  const from = first === undefined ? undefined : parseCellReference(first);
  const to = second === undefined ? from : parseCellReference(second);
  return from === undefined || to === undefined ? undefined : { from, to };
}

/** A rectangular cell range (1-based, inclusive). */
export interface CellRange {
  /** Its left column. */
  firstColumn: number;
  /** Its top row. */
  firstRow: number;
  /** Its right column. */
  lastColumn: number;
  /** Its bottom row. */
  lastRow: number;
}

/**
 * Parses a range given in either corner order (`B2:D40`, `D40:B2`) or one cell (`C7`) into a
 * normalised rectangle.
 *
 * @param text - the range
 * @returns the rectangle, or `undefined` when it is not a range inside Excel's grid
 */
export function parseCellRange(text: string): CellRange | undefined {
  const corners = parseRange(text);
  if (corners === undefined) return undefined;
  const { from, to } = corners;
  return {
    firstColumn: Math.min(from.column, to.column),
    firstRow: Math.min(from.row, to.row),
    lastColumn: Math.max(from.column, to.column),
    lastRow: Math.max(from.row, to.row),
  };
}

/**
 * Writes a range back.
 *
 * @param range - the rectangle
 * @returns `B2:D40`
 */
export function formatCellRange(range: CellRange): string {
  return `${columnLetters(range.firstColumn)}${range.firstRow}:${columnLetters(range.lastColumn)}${range.lastRow}`;
}
