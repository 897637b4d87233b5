import { ToolFailureError } from "@agentool/contract";
import { decodeXmlText, encodeXmlText } from "../run-text/scan-paragraphs.js";
import {
  type CellReference,
  columnLetters,
  parseCellReference,
  parseRange,
} from "./cell-reference.js";
import type { DateStyles } from "./date-styles.js";

/**
 * Writing cells into a worksheet's XML in place: each written cell keeps its style index (`s`)
 * and its other attributes, its value typed (number, boolean, inline string, date serial with a
 * date format) or its formula written without a cached value so the application recalculates;
 * missing rows and cells are inserted in order; every other row and cell keeps its bytes.
 *
 * @internal
 */

/** A value a model writes into a cell. */
export type CellInput = string | number | boolean | null;

/** How a value is stored. */
export type CellKind = "number" | "text" | "boolean" | "date" | "formula" | "empty";

/** A value, classified. */
export interface ClassifiedValue {
  /** Its kind. */
  kind: CellKind;
  /** The `t` attribute it needs (`b`, `inlineStr`), if any. */
  type?: string;
  /** The cell's content XML (`<v>…</v>`, `<f>…</f>`, `<is>…</is>`), empty for a cleared cell. */
  inner: string;
  /** For a date: whether it has a time of day. */
  withTime?: boolean;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function dateSerial(text: string, date1904: boolean): number | undefined {
  const match = ISO_DATE.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const time = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
  const check = new Date(time);
  if (check.getUTCMonth() !== (month as number) - 1 || check.getUTCDate() !== day) return undefined;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  return (time - epoch) / 86_400_000;
}

/**
 * Classifies a model's value: `null` or `""` clears; booleans (and `TRUE` / `FALSE`) and numbers as they are; a string starting
 * with `=` is a formula, `'` forces text, a plain number literal is a number, an ISO date
 * (`2024-05-01`, `2024-05-01T09:30`) a date; anything else text.
 *
 * @param value - the model's value
 * @param date1904 - whether the workbook counts dates from 1904
 * @returns how to store it
 */
export function classifyValue(value: CellInput, date1904: boolean): ClassifiedValue {
  if (value === null || value === "") return { kind: "empty", inner: "" };
  if (value === "TRUE" || value === "FALSE") return classifyValue(value === "TRUE", date1904);
  if (typeof value === "boolean")
    return { kind: "boolean", type: "b", inner: `<v>${value ? 1 : 0}</v>` };
  if (typeof value === "number") return { kind: "number", inner: `<v>${value}</v>` };
  if (value.startsWith("=") && value.length > 1) {
    return { kind: "formula", inner: `<f>${encodeXmlText(value.slice(1))}</f>` };
  }
  const text = value.startsWith("'") ? value.slice(1) : value;
  if (text === value) {
    if (NUMBER.test(value.trim()))
      return { kind: "number", inner: `<v>${Number(value.trim())}</v>` };
    const serial = dateSerial(value.trim(), date1904);
    if (serial !== undefined) {
      return {
        kind: "date",
        inner: `<v>${serial}</v>`,
        withTime: ISO_DATE.exec(value.trim())?.[4] !== undefined,
      };
    }
  }
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
  return {
    kind: "text",
    type: "inlineStr",
    inner: `<is><t${space}>${encodeXmlText(text)}</t></is>`,
  };
}

/** One cell to write. */
export interface CellWrite {
  /** Where. */
  reference: CellReference;
  /** What. */
  value: ClassifiedValue;
}

/** What a cell held before it was written. */
export interface PreviousCell {
  /** `t` attribute (`s` shared string, `b`, `str`, `inlineStr`, `e`…), if any. */
  type: string | undefined;
  /** The raw `<v>` content. */
  value: string | undefined;
  /** The formula (without `=`), if any. */
  formula: string | undefined;
  /** An inline string's text. */
  inline: string | undefined;
}

/** The result of {@link writeCells}. */
export interface SheetEdit {
  /** The sheet's new XML. */
  xml: string;
  /** Each written cell's previous content (absent: the cell did not exist). */
  previous: Map<string, PreviousCell>;
  /** Rows that did not exist and were added. */
  rowsAdded: number;
  /** Whether a formula was written or overwritten (the calculation chain is then stale). */
  formulasTouched: boolean;
}

const ROW = /<(?:\w+:)?row\b[^>]*?(?:\/>|>[\s\S]*?<\/(?:\w+:)?row>)/g;
const CELL = /<(?:\w+:)?c\b[^>]*?(?:\/>|>[\s\S]*?<\/(?:\w+:)?c>)/g;

function attributes(openTag: string): Array<[string, string]> {
  return [...openTag.matchAll(/\s([\w:]+)\s*=\s*"([^"]*)"/g)].map((match) => [
    match[1] as string,
    match[2] as string,
  ]);
}

function openTagOf(element: string): string {
  return element.slice(0, element.indexOf(">") + 1);
}

function previousOf(cell: string): PreviousCell {
  const tag = openTagOf(cell);
  const formula = /<(?:\w+:)?f\b[^>]*>([\s\S]*?)<\/(?:\w+:)?f>/.exec(cell)?.[1];
  const inline = /<(?:\w+:)?is>([\s\S]*?)<\/(?:\w+:)?is>/.exec(cell)?.[1];
  return {
    type: attributes(tag).find(([name]) => name === "t")?.[1],
    value: /<(?:\w+:)?v>([\s\S]*?)<\/(?:\w+:)?v>/.exec(cell)?.[1],
    formula: formula === undefined ? undefined : decodeXmlText(formula),
    inline: inline === undefined ? undefined : decodeXmlText(inline.replace(/<[^>]+>/g, "")),
  };
}

function buildCell(
  existing: string | undefined,
  write: CellWrite,
  styles: DateStyles,
  prefix: string,
): string {
  const kept =
    existing === undefined
      ? [["r", write.reference.name] as [string, string]]
      : attributes(openTagOf(existing));
  const rest = kept.filter(([name]) => name !== "t" && name !== "vm" && name !== "cm");
  if (write.value.kind === "date") {
    const style = rest.find(([name]) => name === "s");
    const index = styles.dateStyle(
      style === undefined ? undefined : Number(style[1]),
      write.value.withTime === true,
    );
    if (index !== undefined && index !== 0) {
      if (style !== undefined) style[1] = String(index);
      else rest.splice(1, 0, ["s", String(index)]);
    }
  }
  if (write.value.type !== undefined) rest.push(["t", write.value.type]);
  const open = `<${prefix}c${rest.map(([name, value]) => ` ${name}="${value}"`).join("")}`;
  return write.value.inner === "" ? `${open}/>` : `${open}>${write.value.inner}</${prefix}c>`;
}

function refuseSharedMaster(cell: string, name: string): void {
  const formula = /<(?:\w+:)?f\b[^>]*>/.exec(cell)?.[0] ?? "";
  if (/\st="shared"/.test(formula) && /\sref="/.test(formula)) {
    const range = /\sref="([^"]*)"/.exec(formula)?.[1];
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${name} holds the master formula that the cells ${range} share; writing it would break them.`,
      {
        hint: `Write the cells of ${range} other than ${name} first, or give every cell of ${range} its own value or formula in one call together with ${name}.`,
      },
    );
  }
}

/** Rewrites one row's element with its writes merged in column order. */
function writeRow(
  row: string,
  writes: readonly CellWrite[],
  styles: DateStyles,
  prefix: string,
  previous: Map<string, PreviousCell>,
): { row: string; formulas: boolean } {
  let formulas = writes.some((write) => write.value.kind === "formula");
  const selfClosing = row.endsWith("/>") && !row.includes("</");
  let open = selfClosing ? `${row.slice(0, -2).trimEnd()}>` : openTagOf(row);
  let body = selfClosing ? "" : row.slice(open.length, row.lastIndexOf("</"));
  const close = `</${prefix}row>`;
  const cells = [...body.matchAll(CELL)].map((match) => {
    const reference = parseCellReference(/\sr="([^"]*)"/.exec(openTagOf(match[0]))?.[1] ?? "");
    if (reference === undefined) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        "The sheet has cells without a reference (r); it cannot be edited in place.",
        {
          hint: "Open and re-save the workbook in an office application, then edit it again.",
        },
      );
    }
    return { text: match[0], index: match.index, reference };
  });
  const splices: Array<{ at: number; end: number; text: string; order: number }> = [];
  for (const write of writes) {
    const found = cells.find((cell) => cell.reference.column === write.reference.column);
    if (found !== undefined) {
      refuseSharedMaster(found.text, write.reference.name);
      previous.set(write.reference.name, previousOf(found.text));
      if (/<(?:\w+:)?f\b/.test(found.text)) formulas = true;
      splices.push({
        at: found.index,
        end: found.index + found.text.length,
        text: buildCell(found.text, write, styles, prefix),
        order: splices.length,
      });
      continue;
    }
    const after = cells.find((cell) => cell.reference.column > write.reference.column);
    const extension = body.search(/<(?:\w+:)?extLst\b/);
    const at = after?.index ?? (extension === -1 ? body.length : extension);
    splices.push({
      at,
      end: at,
      text: buildCell(undefined, write, styles, prefix),
      order: splices.length,
    });
  }
  splices.sort((a, b) => b.at - a.at || b.end - a.end || b.order - a.order);
  for (const splice of splices)
    body = body.slice(0, splice.at) + splice.text + body.slice(splice.end);
  const spans = /\sspans="(\d+):(\d+)"/.exec(open);
  if (spans !== null) {
    const columns = writes.map((write) => write.reference.column);
    const low = Math.min(Number(spans[1]), ...columns);
    const high = Math.max(Number(spans[2]), ...columns);
    open = open.replace(spans[0], ` spans="${low}:${high}"`);
  }
  return { row: `${open}${body}${close}`, formulas };
}

function refuseMergedInterior(xml: string, writes: readonly CellWrite[]): void {
  for (const match of xml.matchAll(/<(?:\w+:)?mergeCell\b[^>]*\sref="([^"]+)"/g)) {
    const range = parseRange(match[1] as string);
    if (range === undefined) continue;
    for (const { reference } of writes) {
      const inside =
        reference.row >= range.from.row &&
        reference.row <= range.to.row &&
        reference.column >= range.from.column &&
        reference.column <= range.to.column;
      if (inside && (reference.row !== range.from.row || reference.column !== range.from.column)) {
        throw new ToolFailureError(
          "INVALID_INPUT",
          `${reference.name} lies inside the merged cells ${match[1]}; only their first cell ${range.from.name} holds a value.`,
          {
            hint: `Write ${range.from.name} instead.`,
          },
        );
      }
    }
  }
}

function widenDimension(xml: string, writes: readonly CellWrite[]): string {
  return xml.replace(
    /(<(?:\w+:)?dimension\b[^>]*\sref=")([^"]+)(")/,
    (whole, before: string, ref: string, after: string) => {
      const range = parseRange(ref);
      if (range === undefined) return whole;
      let [top, left, bottom, right] = [
        range.from.row,
        range.from.column,
        range.to.row,
        range.to.column,
      ];
      for (const { reference, value } of writes) {
        if (value.kind === "empty") continue;
        top = Math.min(top, reference.row);
        left = Math.min(left, reference.column);
        bottom = Math.max(bottom, reference.row);
        right = Math.max(right, reference.column);
      }
      const from = `${columnLetters(left)}${top}`;
      const to = `${columnLetters(right)}${bottom}`;
      return `${before}${from === to ? from : `${from}:${to}`}${after}`;
    },
  );
}

/**
 * Writes cells into a worksheet's XML.
 *
 * @param xml - the worksheet part
 * @param writes - the cells (distinct references)
 * @param styles - the workbook's cell formats (date formats added there)
 * @returns the new XML and what each cell held
 */
export function writeCells(
  xml: string,
  writes: readonly CellWrite[],
  styles: DateStyles,
): SheetEdit {
  refuseMergedInterior(xml, writes);
  const data = /<((?:\w+:)?)sheetData\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?sheetData>)/.exec(xml);
  if (data === null)
    throw new ToolFailureError(
      "UNSUPPORTED",
      "The sheet has no cell table (sheetData); it is not a worksheet.",
    );
  const prefix = data[1] ?? "";
  let body = data[2] ?? "";
  const rows = [...body.matchAll(ROW)].map((match) => {
    const number = Number(/\sr="(\d+)"/.exec(openTagOf(match[0]))?.[1] ?? Number.NaN);
    if (Number.isNaN(number))
      throw new ToolFailureError(
        "UNSUPPORTED",
        "The sheet has rows without a number (r); it cannot be edited in place.",
      );
    return { text: match[0], index: match.index, number };
  });
  const byRow = new Map<number, CellWrite[]>();
  for (const write of writes)
    byRow.set(write.reference.row, [...(byRow.get(write.reference.row) ?? []), write]);
  const previous = new Map<string, PreviousCell>();
  const splices: Array<{ at: number; end: number; text: string; order: number }> = [];
  let rowsAdded = 0;
  let formulasTouched = false;
  for (const [number, rowWrites] of [...byRow].sort((a, b) => a[0] - b[0])) {
    const existing = rows.find((row) => row.number === number);
    const source = existing?.text ?? `<${prefix}row r="${number}"/>`;
    const { row, formulas } = writeRow(
      source,
      rowWrites.sort((a, b) => a.reference.column - b.reference.column),
      styles,
      prefix,
      previous,
    );
    formulasTouched ||= formulas;
    if (existing !== undefined) {
      splices.push({
        at: existing.index,
        end: existing.index + existing.text.length,
        text: row,
        order: splices.length,
      });
    } else {
      rowsAdded += 1;
      const at = rows.find((other) => other.number > number)?.index ?? body.length;
      splices.push({ at, end: at, text: row, order: splices.length });
    }
  }
  splices.sort((a, b) => b.at - a.at || b.end - a.end || b.order - a.order);
  for (const splice of splices)
    body = body.slice(0, splice.at) + splice.text + body.slice(splice.end);
  const sheetData = `<${prefix}sheetData>${body}</${prefix}sheetData>`;
  const next = xml.slice(0, data.index) + sheetData + xml.slice(data.index + data[0].length);
  return { xml: widenDimension(next, writes), previous, rowsAdded, formulasTouched };
}

/**
 * Drops the cached results of a sheet's formula cells (their `<v>` and its `t` type), so that an
 * application that trusts cached values (LibreOffice does for files Excel wrote, whatever
 * `fullCalcOnLoad` says) computes them again from the cells just written instead of showing
 * stale results. Cells without a formula keep their bytes.
 *
 * @param xml - the worksheet part
 * @returns the new XML and how many formula cells lost a cached value
 */
export function dropCachedResults(xml: string): { xml: string; cleared: number } {
  let cleared = 0;
  const next = xml.replace(CELL, (cell) => {
    if (!/<(?:\w+:)?f\b/.test(cell) || !/<(?:\w+:)?v>/.test(cell)) return cell;
    cleared += 1;
    const open = openTagOf(cell).replace(/\st="[^"]*"/, "");
    return (
      open + cell.slice(openTagOf(cell).length).replace(/<(?:\w+:)?v>[\s\S]*?<\/(?:\w+:)?v>/, "")
    );
  });
  return { xml: next, cleared };
}
