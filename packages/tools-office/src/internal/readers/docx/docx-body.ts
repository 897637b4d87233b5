import { attribute, childElement, childElements, type XmlElement } from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { escapeBlockStart, markdownTable, markdownTableCell, renderInline } from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";
import { headingAnchors } from "./docx-anchors.js";
import { type InlineContext, paragraphSegments } from "./docx-inline.js";
import { type DocxParts, paragraphHeadingLevel, styleNames, styleNumbering } from "./docx-parts.js";

/**
 * A .docx body → Markdown: headings by style (`heading N`, outline level; the `Title` paragraph is the document title), lists by
 * numbering with nesting and real numbers, code blocks from code styles, quotes, GFM tables
 * (spans padded, continued vertical merges empty), then footnotes, endnotes and comments.
 *
 * @internal
 */

const QUOTE_STYLES = /^(block text|quote|intense quote)$/;
const CODE_STYLES = /source code|html preformatted|preformatted|^code$/;

class BodyWriter {
  readonly writer = new MarkdownWriter();
  readonly context: InlineContext;
  readonly #counters = new Map<string, number[]>();
  #code: { lines: string[]; depth: number | undefined } | undefined;
  /** The depth of the list item the last block belonged to; undefined after a block outside lists. */
  #itemDepth: number | undefined;
  /** The text of the `Title` paragraph (the document's title, not a heading of its text). */
  title: string | undefined;

  constructor(parts: DocxParts, anchors: Map<string, string>) {
    this.context = { parts, anchors, footnotes: [], endnotes: [], comments: [], images: [] };
  }

  async blocks(container: XmlElement, yielder: Yielder): Promise<void> {
    for (const node of container.children) {
      if (typeof node === "string") continue;
      if (node.local === "p") this.paragraph(node);
      else if (node.local === "tbl") this.table(node);
      else if (node.local === "sdt" || node.local === "customXml") {
        const content = childElement(node, "sdtContent") ?? node;
        await this.blocks(content, yielder);
      }
      await yielder.tick();
    }
    this.flushCode();
  }

  flushCode(): void {
    if (this.#code === undefined) return;
    const { lines, depth } = this.#code;
    if (depth === undefined) this.writer.code(lines);
    else this.writer.continuation(depth, MarkdownWriter.fenced(lines));
    this.#code = undefined;
    this.#itemDepth = depth;
  }

  paragraph(paragraph: XmlElement): void {
    const properties = childElement(paragraph, "pPr");
    const styleElement = properties === undefined ? undefined : childElement(properties, "pStyle");
    const styleId = styleElement === undefined ? undefined : attribute(styleElement, "val");
    const names = styleNames(this.context.parts, styleId);
    const segments = paragraphSegments(paragraph, this.context);
    const list = this.#listOf(properties, styleId);
    const continues = list?.continuation === true ? list.depth : undefined;
    if (names.some((name) => CODE_STYLES.test(name))) {
      const text = segments.map((segment) => segment.text).join("");
      if (this.#code !== undefined && this.#code.depth !== continues) this.flushCode();
      this.#code ??= { lines: [], depth: continues };
      this.#code.lines.push(...text.split("\n"));
      return;
    }
    this.flushCode();
    const text = renderInline(segments).replace(/\t/g, " ").trim();
    if (text === "") return;
    if (names[0] === "title" && this.title === undefined) {
      this.title = text.replace(/\n/g, " ");
      return;
    }
    const heading = paragraphHeadingLevel(this.context.parts, properties, styleId);
    if (heading > 0) {
      this.writer.block(`${"#".repeat(Math.min(heading, 6))} ${text.replace(/\n/g, " ")}`);
      this.#itemDepth = undefined;
      return;
    }
    this.#itemDepth = list?.depth;
    if (list?.continuation === true) {
      this.writer.continuation(
        list.depth,
        escapeBlockStart(text).replace(/\n/g, "\\\n").split("\n"),
      );
      return;
    }
    if (list !== undefined) {
      this.writer.listItem(list.depth, list.marker, text.replace(/\n/g, "\\\n"));
      return;
    }
    const body = escapeBlockStart(text).replace(/\n/g, "\\\n");
    if (names.some((name) => QUOTE_STYLES.test(name))) {
      this.writer.block(body.split("\n").map((line) => `> ${line}`));
    } else {
      this.writer.block(body);
    }
  }

  #listOf(
    properties: XmlElement | undefined,
    styleId: string | undefined,
  ): { depth: number; marker: string; continuation?: boolean } | undefined {
    const numPr = properties === undefined ? undefined : childElement(properties, "numPr");
    const fromStyle = styleNumbering(this.context.parts, styleId);
    const numIdElement = numPr === undefined ? undefined : childElement(numPr, "numId");
    const ilvlElement = numPr === undefined ? undefined : childElement(numPr, "ilvl");
    const numId = (numIdElement && attribute(numIdElement, "val")) ?? fromStyle?.numId;
    const depth = Number((ilvlElement && attribute(ilvlElement, "val")) ?? fromStyle?.ilvl ?? 0);
    if (numId === "0" && numIdElement !== undefined) return this.#unnumbered(properties, depth);
    if (numId === undefined || numId === "0") return undefined;
    const level = this.context.parts.numbering.get(numId)?.get(depth);
    if (level?.none === true) return { depth, marker: "", continuation: true };
    if (level === undefined || !level.ordered) {
      this.#count(numId, depth, 1);
      return { depth, marker: "-" };
    }
    return { depth, marker: `${this.#count(numId, depth, level.start)}.` };
  }

  /**
   * A paragraph whose own numbering is `numId 0` ("no number") and which is indented, right after
   * a list item: a later paragraph of that item (LibreOffice writes an item's second paragraph,
   * code line or definition so, at `ilvl` 0); undefined elsewhere (a paragraph taken out of a
   * list in Word).
   */
  #unnumbered(
    properties: XmlElement | undefined,
    ilvl: number,
  ): { depth: number; marker: string; continuation: true } | undefined {
    const open = this.#code === undefined ? this.#itemDepth : this.#code.depth;
    if (open === undefined) return undefined;
    const indent = properties === undefined ? undefined : childElement(properties, "ind");
    const left = Number((indent && (attribute(indent, "left") ?? attribute(indent, "start"))) ?? 0);
    if (!(left > 0)) return undefined;
    return { depth: Math.min(ilvl, open), marker: "", continuation: true };
  }

  #count(numId: string, depth: number, start: number): number {
    const counters = this.#counters.get(numId) ?? [];
    this.#counters.set(numId, counters);
    counters.length = Math.min(counters.length, depth + 1);
    const next = (counters[depth] ?? start - 1) + 1;
    counters[depth] = next;
    return next;
  }

  table(table: XmlElement): void {
    this.flushCode();
    this.#itemDepth = undefined;
    const rows: string[][] = [];
    for (const row of childElements(table, "tr")) {
      const cells: string[] = [];
      for (const cell of cellsOf(row)) {
        const properties = childElement(cell, "tcPr");
        const span = properties === undefined ? undefined : childElement(properties, "gridSpan");
        const merge = properties === undefined ? undefined : childElement(properties, "vMerge");
        const continued = merge !== undefined && attribute(merge, "val") !== "restart";
        cells.push(continued ? "" : this.#cellText(cell));
        const extra = Number((span && attribute(span, "val")) ?? 1) - 1;
        for (let index = 0; index < Math.min(extra, 64); index += 1) cells.push("");
      }
      rows.push(cells);
    }
    if (rows.length > 0) this.writer.block(markdownTable(rows));
  }

  #cellText(cell: XmlElement): string {
    const parts: string[] = [];
    const collect = (container: XmlElement) => {
      for (const node of container.children) {
        if (typeof node === "string") continue;
        if (node.local === "p") {
          const text = renderInline(paragraphSegments(node, this.context))
            .replace(/\t/g, " ")
            .trim();
          if (text !== "") parts.push(text);
        } else if (node.local === "tbl") {
          for (const row of childElements(node, "tr"))
            for (const inner of cellsOf(row)) collect(inner);
        } else if (
          node.local === "sdt" ||
          node.local === "sdtContent" ||
          node.local === "customXml"
        ) {
          collect(childElement(node, "sdtContent") ?? node);
        }
      }
    };
    collect(cell);
    return markdownTableCell(parts.join("\n"));
  }

  notes(): void {
    const { parts } = this.context;
    const render = (ids: string[], map: Map<string, XmlElement>, prefix: string) => {
      for (const id of new Set(ids)) {
        const note = map.get(id);
        if (note === undefined) continue;
        const text = childElements(note, "p")
          .map((p) => renderInline(paragraphSegments(p, this.context)).trim())
          .filter((line) => line !== "")
          .join(" ");
        this.writer.block(`[^${prefix}${id}]: ${text}`);
      }
    };
    render(this.context.footnotes, parts.footnotes, "");
    render(this.context.endnotes, parts.endnotes, "e");
    const ids = [...new Set(this.context.comments)];
    if (ids.length === 0) return;
    this.writer.block("Comments:");
    for (const id of ids) {
      const comment = parts.comments.get(id);
      if (comment === undefined) continue;
      const text = childElements(comment.body, "p")
        .map((p) => renderInline(paragraphSegments(p, this.context)).trim())
        .join(" ");
      this.writer.listItem(
        0,
        "-",
        `[comment ${id}]${comment.author === "" ? "" : ` ${comment.author}:`} ${text}`,
      );
    }
  }
}

function cellsOf(row: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of row.children) {
    if (typeof node === "string") continue;
    if (node.local === "tc") out.push(node);
    else if (node.local === "sdt" || node.local === "customXml") {
      out.push(...cellsOf(childElement(node, "sdtContent") ?? node));
    }
  }
  return out;
}

/**
 * Converts a document body to Markdown.
 *
 * @param body - the `w:body` element
 * @param parts - styles, numbering, relationships, notes and comments
 * @param yielder - yields between blocks
 * @returns the Markdown and the images it names
 */
export async function docxBodyToMarkdown(
  body: XmlElement,
  parts: DocxParts,
  yielder: Yielder,
): Promise<{ markdown: string; images: string[]; title: string | undefined }> {
  const writer = new BodyWriter(parts, headingAnchors(body, parts));
  await writer.blocks(body, yielder);
  writer.notes();
  return { markdown: writer.writer.toString(), images: writer.context.images, title: writer.title };
}
