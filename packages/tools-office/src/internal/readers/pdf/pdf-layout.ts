import { escapeBlockStart } from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";

/**
 * A PDF page's text items → Markdown with structure recovered from the layout: items grouped into
 * lines by baseline; lines into paragraphs by spacing; headings from type larger than the body's
 * (or a short line wholly in another, non-monospace face), ranked into levels by size over the
 * document's sampled pages; bullets (`•`, `◦`, `–`…) and numbered lines as list items nested by
 * indentation; runs of monospace lines as code blocks.
 *
 * @internal
 */

/** One text item as pdf.js gives it. */
export interface PdfTextItem {
  str?: string;
  height?: number;
  transform?: number[];
  fontName?: string;
  hasEOL?: boolean;
}

/** A line of a page. */
export interface PdfLine {
  text: string;
  x: number;
  y: number;
  size: number;
  font: string;
  monospace: boolean;
  /** Whether every visible item of the line is in one font. */
  oneFont: boolean;
}

/** Type sizes and faces measured over the sampled pages. */
export interface PdfTypography {
  bodySize: number;
  bodyFont: string;
  /** The face most monospace lines use (code blocks). */
  codeFont: string;
  /** Heading signature (`size|font-kind`) → level (0: the document's title, set once and centred). */
  levels: Map<string, number>;
}

/**
 * Groups a page's items into lines (top to bottom, left to right within a line).
 *
 * @param items - the page's text items
 * @param monospaceFonts - the font names whose family is monospace
 * @returns the lines
 */
export function pageLines(
  items: readonly PdfTextItem[],
  monospaceFonts: ReadonlySet<string>,
): PdfLine[] {
  const lines: { y: number; parts: PdfTextItem[] }[] = [];
  for (const item of items) {
    const y = item.transform?.[5] ?? 0;
    let line = lines[lines.length - 1];
    if (line === undefined || Math.abs(line.y - y) > Math.max(2, (item.height ?? 0) * 0.4)) {
      line = { y, parts: [] };
      lines.push(line);
    }
    line.parts.push(item);
  }
  const out: PdfLine[] = [];
  for (const line of lines) {
    const visible = line.parts.filter((item) => (item.str ?? "").trim() !== "");
    if (visible.length === 0) continue;
    const text = line.parts
      .map((item) => item.str ?? "")
      .join("")
      .replace(/\s+/g, " ")
      .trim();
    const fonts = new Set(visible.map((item) => item.fontName ?? ""));
    const first = visible[0] as PdfTextItem;
    out.push({
      text,
      x: first.transform?.[4] ?? 0,
      y: line.y,
      size: Math.round(Math.max(...visible.map((item) => item.height ?? 0)) * 2) / 2,
      font: first.fontName ?? "",
      monospace: visible.every((item) => monospaceFonts.has(item.fontName ?? "")),
      oneFont: fonts.size === 1,
    });
  }
  return out;
}

function headingKey(
  line: PdfLine,
  typography: Pick<PdfTypography, "bodySize" | "bodyFont" | "codeFont">,
  standalone: boolean,
): string | undefined {
  if (line.text.length > 150 || /[.:;,]$/.test(line.text) || !/\p{L}/u.test(line.text))
    return undefined;
  if (line.size > typography.bodySize * 1.1)
    return `${line.size}|${line.oneFont && line.font !== typography.bodyFont ? "b" : "r"}`;
  // Same size, another face (bold): a heading only when it stands alone between gaps.
  const otherFace = line.font !== typography.bodyFont && line.font !== typography.codeFont;
  if (standalone && line.oneFont && otherFace && line.size >= typography.bodySize * 0.85)
    return `${line.size}|b`;
  return undefined;
}

/** Whether each line stands alone: a wide gap (or the page's edge) above and below it. */
function standaloneLines(lines: readonly PdfLine[]): boolean[] {
  return lines.map((line, index) => {
    const before = lines[index - 1];
    const after = lines[index + 1];
    const wide = (upper: PdfLine, lower: PdfLine, factor: number) =>
      upper.y - lower.y > Math.max(upper.size, lower.size) * factor;
    return (
      (before === undefined || wide(before, line, 1.45)) &&
      (after === undefined || wide(line, after, 1.25))
    );
  });
}

/**
 * Measures the body type and ranks heading signatures over sampled pages.
 *
 * @param pages - lines of the sampled pages
 * @returns the typography
 */
export function measureTypography(pages: readonly PdfLine[][]): PdfTypography {
  const sizes = new Map<number, number>();
  const fonts = new Map<string, number>();
  const codeFonts = new Map<string, number>();
  for (const line of pages.flat()) {
    if (line.monospace) {
      codeFonts.set(line.font, (codeFonts.get(line.font) ?? 0) + line.text.length);
      continue;
    }
    sizes.set(line.size, (sizes.get(line.size) ?? 0) + line.text.length);
    fonts.set(line.font, (fonts.get(line.font) ?? 0) + line.text.length);
  }
  const top = <K>(counts: Map<K, number>, fallback: K): K =>
    [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? fallback;
  const base = { bodySize: top(sizes, 12), bodyFont: top(fonts, ""), codeFont: top(codeFonts, "") };
  const margins = new Map<number, number>();
  for (const line of pages.flat())
    margins.set(Math.round(line.x), (margins.get(Math.round(line.x)) ?? 0) + 1);
  const margin = top(margins, 0);
  const seen = new Map<string, { count: number; centred: boolean; font: string }>();
  for (const page of pages) {
    const alone = standaloneLines(page);
    for (const [index, line] of page.entries()) {
      const key = headingKey(line, base, alone[index] === true);
      if (key === undefined) continue;
      const known = seen.get(key) ?? { count: 0, centred: true, font: line.font };
      seen.set(key, {
        ...known,
        count: known.count + 1,
        centred: known.centred && line.x > margin + 20,
      });
    }
  }
  const ranked = [...seen.keys()].sort((a, b) => {
    const [sizeA = "0", kindA = ""] = a.split("|");
    const [sizeB = "0", kindB = ""] = b.split("|");
    return Number(sizeB) - Number(sizeA) || kindA.localeCompare(kindB);
  });
  const levels = new Map<string, number>();
  const first = ranked[0] === undefined ? undefined : seen.get(ranked[0]);
  // The largest type, used once and centred, is the document's title, not its first heading.
  const titled = ranked.length > 1 && first?.count === 1 && first.centred;
  if (titled) levels.set(ranked[0] as string, 0);
  // A heading set smaller than the body is one whose words are code (a smaller face): it shares
  // the level of the smallest larger heading in its font, else the deepest level.
  const small = (key: string) => Number(key.split("|")[0]) < base.bodySize * 0.95;
  for (const [index, key] of ranked
    .filter((key) => !small(key))
    .slice(titled ? 1 : 0, 7)
    .entries())
    levels.set(key, index + 1);
  for (const key of ranked.filter(small)) {
    const font = seen.get(key)?.font;
    const sibling = [...levels.entries()]
      .filter(([other, level]) => level > 0 && seen.get(other)?.font === font)
      .pop();
    levels.set(key, sibling?.[1] ?? Math.max(1, ...levels.values()));
  }
  return { ...base, levels };
}

const BULLET = /^([•◦▪▫●○■□‣⁃–—-]|\d{1,3}[.)])\s+(.*)$/;

/**
 * Writes one page's lines as Markdown.
 *
 * @param lines - the page's lines
 * @param typography - the document's measured typography
 * @returns the page's Markdown
 */
export function pageMarkdown(lines: readonly PdfLine[], typography: PdfTypography): string {
  const writer = new MarkdownWriter();
  let paragraph: string[] = [];
  let code: string[] = [];
  let item: { depth: number; marker: string; text: string } | undefined;
  const indents: number[] = [];
  let previous: PdfLine | undefined;
  const alone = standaloneLines(lines);
  const flush = () => {
    if (paragraph.length > 0) writer.block(escapeBlockStart(paragraph.join(" ")));
    if (code.length > 0) writer.code(code);
    if (item !== undefined) writer.listItem(item.depth, item.marker, item.text);
    paragraph = [];
    code = [];
    item = undefined;
  };
  for (const [index, line] of lines.entries()) {
    const gap = previous === undefined ? 0 : previous.y - line.y;
    const newBlock =
      previous === undefined || gap > Math.max(line.size, previous.size) * 1.45 || gap < 0;
    previous = line;
    const key = headingKey(line, typography, alone[index] === true);
    const level = key === undefined ? undefined : typography.levels.get(key);
    if (level !== undefined) {
      flush();
      writer.block(level === 0 ? `**${line.text}**` : `${"#".repeat(level)} ${line.text}`);
      continue;
    }
    if (line.monospace) {
      if (code.length === 0) flush();
      code.push(line.text);
      continue;
    }
    if (code.length > 0) flush();
    const bullet = BULLET.exec(line.text);
    if (bullet !== null) {
      flush();
      while (indents.length > 0 && (indents[indents.length - 1] ?? 0) > line.x + 2) indents.pop();
      if (indents.length === 0 || (indents[indents.length - 1] ?? 0) < line.x - 2)
        indents.push(line.x);
      const marker = /\d/.test(bullet[1] ?? "") ? `${(bullet[1] ?? "1.").replace(")", ".")}` : "-";
      item = { depth: indents.length - 1, marker, text: bullet[2] ?? "" };
      continue;
    }
    if (item !== undefined && !newBlock && line.x > (indents[indents.length - 1] ?? 0)) {
      item.text += ` ${line.text}`;
      continue;
    }
    if (newBlock || item !== undefined) {
      flush();
      if (item === undefined && newBlock) indents.length = 0;
    }
    paragraph.push(line.text);
  }
  flush();
  return writer.toString();
}
