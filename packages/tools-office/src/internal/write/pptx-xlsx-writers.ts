import ExcelJS from "exceljs";
import type { Token, Tokens } from "marked";
import PptxModule from "pptxgenjs";
import type { ImageLoader } from "./docx-writer.js";
import { inlineSpans, type Span, spansText } from "./inline-spans.js";

/**
 * Markdown → .pptx with `pptxgenjs` (one slide per `#` heading or `---` rule: the heading is the
 * slide's title; paragraphs, nested bullets and code in one text box; tables as real tables;
 * images from the workspace), and rows or Markdown tables → .xlsx with `exceljs` (types kept:
 * numbers, booleans, ISO dates as dates, `=` formulas).
 *
 * @internal
 */

// pptxgenjs's types describe an ES default export; Node loads its ESM build whose default is
// the class itself, while TypeScript (reading the package as CommonJS) sees it under `.default`.
const PptxGenJS = ((PptxModule as unknown as { default?: unknown }).default ??
  PptxModule) as unknown as typeof PptxModule.default;

interface TextProps {
  text: string;
  options?: Record<string, unknown>;
}

function textRuns(spans: readonly Span[], base: Record<string, unknown> = {}): TextProps[] {
  return spans.map((span) => ({
    text: span.lineBreak ? "\n" : span.text,
    options: {
      ...base,
      ...(span.bold ? { bold: true } : {}),
      ...(span.italic ? { italic: true } : {}),
      ...(span.strike ? { strike: "sngStrike" as const } : {}),
      ...(span.code ? { fontFace: "Courier New" } : {}),
      ...(span.link !== undefined ? { hyperlink: { url: span.link } } : {}),
    },
  }));
}

interface SlideDraft {
  title: string;
  body: TextProps[];
  tables: Tokens.Table[];
  images: string[];
}

function endLine(body: TextProps[]): void {
  const last = body[body.length - 1];
  if (last !== undefined) last.options = { ...last.options, breakLine: true };
}

function addBlock(draft: SlideDraft, token: Token, level: number): void {
  switch (token.type) {
    case "heading":
      draft.body.push(...textRuns(inlineSpans((token as Tokens.Heading).tokens), { bold: true }));
      endLine(draft.body);
      return;
    case "paragraph":
    case "text": {
      const spans = inlineSpans((token as Tokens.Paragraph).tokens);
      draft.images.push(
        ...spans.filter((span) => span.image !== undefined).map((span) => span.image as string),
      );
      const bullet = level > 0 ? { bullet: true, indentLevel: level - 1 } : {};
      draft.body.push(
        ...textRuns(
          spans.filter((span) => span.image === undefined),
          bullet,
        ),
      );
      endLine(draft.body);
      return;
    }
    case "list":
      for (const item of (token as Tokens.List).items) {
        for (const child of item.tokens)
          addBlock(draft, child, child.type === "list" ? level : level + 1);
      }
      return;
    case "code":
      draft.body.push({
        text: (token as Tokens.Code).text,
        options: { fontFace: "Courier New", fontSize: 14, breakLine: true },
      });
      return;
    case "blockquote":
      for (const child of (token as Tokens.Blockquote).tokens) addBlock(draft, child, level);
      return;
    case "table":
      draft.tables.push(token as Tokens.Table);
      return;
    default:
      return;
  }
}

/**
 * Splits Markdown into slides: a new slide at each level-1 heading (its title) and each rule.
 *
 * @param tokens - `marked.lexer(markdown)`
 * @returns the slides' drafts
 */
export function slideDrafts(tokens: readonly Token[]): SlideDraft[] {
  const drafts: SlideDraft[] = [];
  let current: SlideDraft | undefined;
  const fresh = (title: string) => {
    current = { title, body: [], tables: [], images: [] };
    drafts.push(current);
    return current;
  };
  for (const token of tokens) {
    if (token.type === "heading" && (token as Tokens.Heading).depth === 1) {
      fresh(spansText(inlineSpans((token as Tokens.Heading).tokens)));
    } else if (token.type === "hr") {
      fresh("");
    } else if (token.type !== "space") {
      addBlock(current ?? fresh(""), token, 0);
    }
  }
  return drafts.filter(
    (draft) =>
      draft.title !== "" || draft.body.length + draft.tables.length + draft.images.length > 0,
  );
}

/**
 * Builds a .pptx from Markdown tokens (16:9).
 *
 * @param tokens - `marked.lexer(markdown)`
 * @param images - loads the images the Markdown names
 * @param title - the presentation's title property
 * @returns the file's bytes and the number of slides
 */
export async function markdownToPptx(
  tokens: readonly Token[],
  images: ImageLoader,
  title: string,
): Promise<{ bytes: Uint8Array; slides: number }> {
  const presentation = new PptxGenJS();
  presentation.layout = "LAYOUT_16x9";
  presentation.title = title;
  presentation.author = "agentool";
  const drafts = slideDrafts(tokens);
  if (drafts.length === 0) drafts.push({ title, body: [], tables: [], images: [] });
  for (const draft of drafts) {
    const slide = presentation.addSlide();
    let top = 0.3;
    if (draft.title !== "") {
      slide.addText(draft.title, {
        x: 0.5,
        y: top,
        w: 9,
        h: 0.8,
        fontSize: 30,
        bold: true,
        valign: "middle",
      });
      top += 0.9;
    }
    const tableRows = draft.tables.reduce((sum, table) => sum + table.rows.length + 1, 0);
    const textHeight =
      draft.body.length === 0 ? 0 : tableRows > 0 || draft.images.length > 0 ? 1.6 : 5.4 - top;
    if (draft.body.length > 0) {
      slide.addText(draft.body as never, {
        x: 0.5,
        y: top,
        w: 9,
        h: textHeight,
        fontSize: 18,
        valign: "top",
        fit: "shrink",
      });
      top += textHeight + 0.1;
    }
    for (const table of draft.tables) {
      const row = (cells: readonly Tokens.TableCell[], header: boolean) =>
        cells.map((cell) => ({
          text: spansText(inlineSpans(cell.tokens)),
          options: header ? { bold: true, fill: { color: "E7E6E6" } } : {},
        }));
      slide.addTable([row(table.header, true), ...table.rows.map((cells) => row(cells, false))], {
        x: 0.5,
        y: top,
        w: 9,
        fontSize: 14,
        border: { type: "solid", pt: 0.5, color: "999999" },
      });
      top += 0.4 * (table.rows.length + 1) + 0.2;
    }
    for (const href of draft.images) {
      const image = await images(href);
      if (image === undefined) continue;
      const height = Math.max(0.5, 5.4 - top);
      const width = Math.min(9, (height * image.width) / Math.max(1, image.height));
      const mime = image.type === "jpg" ? "jpeg" : image.type;
      slide.addImage({
        data: `image/${mime};base64,${Buffer.from(image.data).toString("base64")}`,
        x: 0.5,
        y: top,
        w: width,
        h: (width * image.height) / Math.max(1, image.width),
      });
      top += height;
    }
  }
  const output = (await presentation.write({ outputType: "uint8array" })) as Uint8Array;
  return { bytes: new Uint8Array(output), slides: drafts.length };
}

/** A value of a sheet cell as a model sends it. */
export type SheetValue = string | number | boolean | null;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function cellValue(value: SheetValue): { value: ExcelJS.CellValue; format?: string } {
  if (value === null || typeof value === "number" || typeof value === "boolean") return { value };
  if (value === "TRUE" || value === "FALSE") return { value: value === "TRUE" };
  const text = value.trim();
  if (value.startsWith("'")) return { value: value.slice(1) };
  if (text.startsWith("=") && text.length > 1)
    return { value: { formula: text.slice(1) } as ExcelJS.CellFormulaValue };
  if (NUMBER.test(text)) return { value: Number(text) };
  const date = ISO_DATE.exec(text);
  if (date !== null) {
    const [year, month, day, hour, minute, second] = date.slice(1).map((part) => Number(part ?? 0));
    const parsed = new Date(
      Date.UTC(year as number, (month as number) - 1, day, hour, minute, second),
    );
    if (parsed.getUTCDate() === day)
      return { value: parsed, format: date[4] === undefined ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm" };
  }
  return { value };
}

/** One sheet to write. */
export interface SheetDraft {
  /** The tab's name. */
  name: string;
  /** Rows of values. */
  rows: SheetValue[][];
  /** Whether the first row is a header (bold, frozen). */
  header: boolean;
}

/**
 * The sheets of Markdown: one per table, named after the heading above it.
 *
 * @param tokens - `marked.lexer(markdown)`
 * @returns the sheets (none when the Markdown has no table)
 */
export function markdownSheets(tokens: readonly Token[]): SheetDraft[] {
  const sheets: SheetDraft[] = [];
  let heading = "";
  for (const token of tokens) {
    if (token.type === "heading")
      heading = spansText(inlineSpans((token as Tokens.Heading).tokens));
    if (token.type !== "table") continue;
    const table = token as Tokens.Table;
    const text = (cell: Tokens.TableCell) => spansText(inlineSpans(cell.tokens));
    sheets.push({
      name: heading,
      rows: [table.header.map(text), ...table.rows.map((row) => row.map(text))],
      header: true,
    });
  }
  return sheets;
}

function sheetName(wanted: string, index: number, taken: Set<string>): string {
  let name =
    wanted
      .replace(/[[\]:*?/\\]/g, " ")
      .trim()
      .slice(0, 31) || `Sheet${index + 1}`;
  for (let suffix = 2; taken.has(name.toLowerCase()); suffix += 1)
    name = `${name.slice(0, 27)} (${suffix})`;
  taken.add(name.toLowerCase());
  return name;
}

/**
 * Builds an .xlsx.
 *
 * @param sheets - the sheets
 * @returns the file's bytes and the cells written
 */
export async function sheetsToXlsx(
  sheets: readonly SheetDraft[],
): Promise<{ bytes: Uint8Array; cells: number }> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "agentool";
  const taken = new Set<string>();
  let cells = 0;
  sheets.forEach((draft, index) => {
    const sheet = workbook.addWorksheet(sheetName(draft.name, index, taken));
    const widths: number[] = [];
    draft.rows.forEach((values, rowIndex) => {
      const row = sheet.getRow(rowIndex + 1);
      values.forEach((value, columnIndex) => {
        if (value === null || value === "") return;
        const cell = row.getCell(columnIndex + 1);
        const converted = cellValue(value);
        cell.value = converted.value;
        if (converted.format !== undefined) cell.numFmt = converted.format;
        if (draft.header && rowIndex === 0) cell.font = { bold: true };
        widths[columnIndex] = Math.max(
          widths[columnIndex] ?? 8,
          Math.min(60, String(value).length + 2),
        );
        cells += 1;
      });
    });
    widths.forEach((width, column) => {
      sheet.getColumn(column + 1).width = width;
    });
    if (draft.header && draft.rows.length > 1) sheet.views = [{ state: "frozen", ySplit: 1 }];
  });
  return { bytes: new Uint8Array(await workbook.xlsx.writeBuffer()), cells };
}
