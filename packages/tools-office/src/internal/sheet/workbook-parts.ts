import { closestNames, ToolFailureError } from "@agentool/contract";
import { decodeXmlText } from "../run-text/scan-paragraphs.js";

/**
 * The workbook-level parts `edit_sheet` reads and touches besides the sheet: the sheet list and
 * its relationships, `calcPr` (so Excel and LibreOffice recalculate on open), the calculation
 * chain (dropped when formulas change, as openpyxl does), date styles in `styles.xml` and the
 * shared-string table (read for the previous values only).
 *
 * @internal
 */

/** One sheet of the workbook. */
export interface SheetInfo {
  /** Its name as the tabs show it. */
  name: string;
  /** Its part (`xl/worksheets/sheet1.xml`). */
  part: string;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name.replace(":", "\\:")}\\s*=\\s*"([^"]*)"`).exec(tag);
  return match === null ? undefined : decodeXmlText(match[1] as string);
}

/**
 * The sheets in tab order with their parts.
 *
 * @param workbook - `xl/workbook.xml`
 * @param relations - `xl/_rels/workbook.xml.rels`
 * @returns the sheets
 */
export function listSheets(workbook: string, relations: string): SheetInfo[] {
  const targets = new Map<string, string>();
  for (const match of relations.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = attribute(match[0], "Id");
    const target = attribute(match[0], "Target");
    if (id !== undefined && target !== undefined) targets.set(id, target);
  }
  const sheets: SheetInfo[] = [];
  for (const match of workbook.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = attribute(match[0], "name");
    const id = attribute(match[0], "r:id");
    const target = id === undefined ? undefined : targets.get(id);
    if (name === undefined || target === undefined) continue;
    const part = target.startsWith("/") ? target.slice(1) : `xl/${target.replace(/^\.\//, "")}`;
    sheets.push({ name, part });
  }
  return sheets;
}

/**
 * The sheet a model named: exact, else the one name equal ignoring case; none → `INVALID_INPUT`
 * listing the sheets.
 *
 * @param sheets - the workbook's sheets
 * @param wanted - the model's sheet name, or undefined for the first
 * @returns the sheet
 */
export function pickSheet(sheets: readonly SheetInfo[], wanted: string | undefined): SheetInfo {
  const first = sheets[0];
  if (first === undefined) {
    throw new ToolFailureError("UNSUPPORTED", "The workbook lists no sheets.");
  }
  if (wanted === undefined) return first;
  const exact = sheets.find((sheet) => sheet.name === wanted);
  if (exact !== undefined) return exact;
  const folded = sheets.filter((sheet) => sheet.name.toLowerCase() === wanted.toLowerCase());
  if (folded.length === 1) return folded[0] as SheetInfo;
  const names = sheets.map((sheet) => sheet.name);
  const close = closestNames(wanted, names);
  throw new ToolFailureError(
    "INVALID_INPUT",
    `The workbook has no sheet ${JSON.stringify(wanted)}; its sheets: ${names.map((name) => JSON.stringify(name)).join(", ")}.`,
    {
      hint:
        close.length > 0 ? `Did you mean ${close.join(", ")}?` : "Name one of the sheets listed.",
    },
  );
}

/** Whether the workbook counts dates from 1904 (old Mac workbooks). */
export function usesDate1904(workbook: string): boolean {
  const tag = /<(?:\w+:)?workbookPr\b[^>]*>/.exec(workbook)?.[0];
  const value = tag === undefined ? undefined : attribute(tag, "date1904");
  return value === "1" || value === "true";
}

// CT_Workbook's children after calcPr, in schema order: calcPr goes before the first present.
const AFTER_CALC_PR = [
  "oleSize",
  "customWorkbookViews",
  "pivotCaches",
  "smartTagPr",
  "smartTagTypes",
  "webPublishing",
  "fileRecoveryPr",
  "webPublishObjects",
  "extLst",
];

/**
 * Sets `fullCalcOnLoad="1"` on the workbook's `calcPr` (adding the element where the schema
 * puts it), so every formula is recalculated when the file is next opened.
 *
 * @param workbook - `xl/workbook.xml`
 * @returns the new text
 */
export function forceFullCalculation(workbook: string): string {
  const existing = /<((?:\w+:)?)calcPr\b[^>]*?(\/?)>/.exec(workbook);
  if (existing !== null) {
    const tag = existing[0];
    const fixed = /\sfullCalcOnLoad\s*=/.test(tag)
      ? tag.replace(/\sfullCalcOnLoad\s*=\s*"[^"]*"/, ' fullCalcOnLoad="1"')
      : tag.replace(/\s*(\/?)>$/, ' fullCalcOnLoad="1"$1>');
    return workbook.replace(tag, fixed);
  }
  const prefix = /<((?:\w+:)?)workbook\b/.exec(workbook)?.[1] ?? "";
  const element = `<${prefix}calcPr fullCalcOnLoad="1"/>`;
  for (const name of AFTER_CALC_PR) {
    const at = workbook.search(new RegExp(`<${prefix}${name}\\b`));
    if (at !== -1) return `${workbook.slice(0, at)}${element}${workbook.slice(at)}`;
  }
  const close = workbook.lastIndexOf(`</${prefix}workbook>`);
  return close === -1 ? workbook : `${workbook.slice(0, close)}${element}${workbook.slice(close)}`;
}

/**
 * Removes the calculation chain's relationship and content-type override (the part itself is
 * removed from the archive by the caller): Excel rebuilds it, and a stale one makes it repair.
 *
 * @param text - `xl/_rels/workbook.xml.rels` or `[Content_Types].xml`
 * @returns the text without the calcChain entry
 */
export function dropCalcChainReference(text: string): string {
  return text
    .replace(/<Relationship\b[^>]*Target="[^"]*calcChain\.xml"[^>]*\/>/g, "")
    .replace(/<Override\b[^>]*PartName="\/xl\/calcChain\.xml"[^>]*\/>/g, "");
}

/**
 * The shared strings' texts (rich-text runs joined), for showing a cell's previous value.
 *
 * @param xml - `xl/sharedStrings.xml`
 * @returns the strings by index
 */
export function sharedStrings(xml: string): string[] {
  const strings: string[] = [];
  for (const match of xml.matchAll(/<(?:\w+:)?si>([\s\S]*?)<\/(?:\w+:)?si>|<(?:\w+:)?si\/>/g)) {
    const body = (match[1] ?? "").replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, "");
    let text = "";
    for (const t of body.matchAll(/<(?:\w+:)?t\b[^>]*>([\s\S]*?)<\/(?:\w+:)?t>/g)) {
      text += decodeXmlText(t[1] ?? "");
    }
    strings.push(text);
  }
  return strings;
}
