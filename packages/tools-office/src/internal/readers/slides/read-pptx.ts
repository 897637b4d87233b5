import { containerKind, oleFailure } from "../../container/detect.js";
import {
  attribute,
  childElement,
  childElements,
  findElement,
  findElements,
  prefixedAttribute,
  type XmlElement,
} from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { openZip, type ZipArchive } from "../../container/zip.js";
import {
  escapeBlockStart,
  type InlineSegment,
  markdownLink,
  markdownTable,
  renderInline,
  tableCell,
} from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";
import {
  hasMacros,
  MACRO_NOTE,
  mainPartName,
  type Relationship,
  readPart,
  readRelationships,
} from "../ooxml-package.js";
import type { ItemsDocument, ReaderInput } from "../types.js";

/**
 * Reads a .pptx/.pptm: slides in presentation order, each as `<!-- Slide N -->` and its title as
 * a heading (`#` for Section Header slides, the slide level below them; a paragraph that is one
 * bold run, as pandoc writes a lower heading, one level further), then its
 * text shapes (bullets with their levels, numbered where the shape numbers them), tables,
 * pictures named by their part, and the speaker notes. Paged by slide.
 *
 * @internal
 */

const TITLE_TYPES = new Set(["title", "ctrTitle"]);
const BODY_TYPES = new Set(["body", "obj", "subTitle", undefined]);

function paragraphSegments(
  paragraph: XmlElement,
  relationships: Map<string, Relationship>,
): InlineSegment[] {
  const out: InlineSegment[] = [];
  for (const node of paragraph.children) {
    if (typeof node === "string") continue;
    if (node.local === "br") out.push({ text: "\n", raw: true });
    if (node.local !== "r" && node.local !== "fld") continue;
    const properties = childElement(node, "rPr");
    const text = childElements(node, "t")
      .map((t) => t.children.filter((child) => typeof child === "string").join(""))
      .join("");
    const bold = properties !== undefined && /^(1|true)$/.test(attribute(properties, "b") ?? "");
    const italic = properties !== undefined && /^(1|true)$/.test(attribute(properties, "i") ?? "");
    const link = properties === undefined ? undefined : childElement(properties, "hlinkClick");
    const target =
      link === undefined ? undefined : relationships.get(attribute(link, "id") ?? "")?.target;
    if (target !== undefined && target !== "" && text.trim() !== "") {
      out.push({
        text: markdownLink(text.replace(/[[\]]/g, "\\$&"), target),
        raw: true,
      });
    } else out.push({ text, bold, italic });
  }
  return out;
}

/** A paragraph that is nothing but one short bold run (not a link): a heading under the slide's title. */
function isHeadingRun(segments: readonly InlineSegment[]): boolean {
  const words = segments.filter((segment) => segment.text.trim() !== "");
  // A command-line option in bold (`-a, --all`) is a definition term, not a heading.
  if (/^\s*[-+]/.test(words[0]?.text ?? "")) return false;
  return (
    words.length > 0 &&
    words.every(
      (segment) => segment.bold === true && segment.raw !== true && !segment.text.includes("\n"),
    ) &&
    words.reduce((sum, segment) => sum + segment.text.length, 0) <= 200
  );
}

async function layoutName(
  archive: ZipArchive,
  part: string | undefined,
  cache: Map<string, string>,
  yielder: Yielder,
): Promise<string> {
  if (part === undefined) return "";
  const known = cache.get(part);
  if (known !== undefined) return known;
  const root = await readPart(archive, part, yielder);
  const slide = root === undefined ? undefined : childElement(root, "cSld");
  const name = (slide && attribute(slide, "name")) ?? "";
  cache.set(part, name);
  return name;
}

function placeholderType(shape: XmlElement): string | undefined | null {
  const properties = findElement(shape, "nvPr");
  const placeholder = properties === undefined ? undefined : childElement(properties, "ph");
  if (placeholder === undefined) return null;
  return attribute(placeholder, "type");
}

class SlideWriter {
  readonly writer = new MarkdownWriter();
  title = "";
  /** Whether the title is the deck's title slide's (`ctrTitle`). */
  titleSlide = false;
  readonly #relationships: Map<string, Relationship>;
  /** The level a paragraph that is one bold run gets (a heading below the slide's: pandoc writes them so). */
  readonly #innerHeading: number;

  constructor(relationships: Map<string, Relationship>, innerHeading: number) {
    this.#relationships = relationships;
    this.#innerHeading = innerHeading;
  }

  shapes(tree: XmlElement): void {
    for (const node of tree.children) {
      if (typeof node === "string") continue;
      if (node.local === "sp") this.#textShape(node);
      else if (node.local === "grpSp") this.shapes(node);
      else if (node.local === "graphicFrame") this.#frame(node);
      else if (node.local === "pic") this.#picture(node);
      else if (node.local === "AlternateContent") {
        const choice = childElement(node, "Choice") ?? childElement(node, "Fallback");
        if (choice !== undefined) this.shapes(choice);
      }
    }
  }

  #textShape(shape: XmlElement): void {
    const body = childElement(shape, "txBody");
    if (body === undefined) return;
    const type = placeholderType(shape);
    const paragraphs = childElements(body, "p");
    if (type !== null && TITLE_TYPES.has(type ?? "")) {
      const text = paragraphs
        .map((p) => renderInline(paragraphSegments(p, this.#relationships)))
        .join(" ")
        .trim();
      if (this.title === "") {
        this.title = text;
        this.titleSlide = type === "ctrTitle";
      } else if (text !== "") this.writer.block(`**${text}**`);
      return;
    }
    const bulleted = type !== null && BODY_TYPES.has(type) && type !== "subTitle";
    const counters: number[] = [];
    for (const paragraph of paragraphs) {
      const segments = paragraphSegments(paragraph, this.#relationships);
      const text = renderInline(segments).trim();
      if (text === "") continue;
      const properties = childElement(paragraph, "pPr");
      const level = Number((properties && attribute(properties, "lvl")) ?? 0);
      const none = properties !== undefined && childElement(properties, "buNone") !== undefined;
      const numbered =
        properties !== undefined && childElement(properties, "buAutoNum") !== undefined;
      const explicit = properties !== undefined && childElement(properties, "buChar") !== undefined;
      if ((bulleted && !none) || numbered || explicit) {
        counters.length = level + 1;
        counters[level] = (counters[level] ?? 0) + 1;
        this.writer.listItem(
          level,
          numbered ? `${counters[level]}.` : "-",
          text.replace(/\n/g, "\\\n"),
        );
      } else if (isHeadingRun(segments)) {
        this.writer.block(
          `${"#".repeat(this.#innerHeading)} ${renderInline(segments.map((segment) => ({ ...segment, bold: false }))).trim()}`,
        );
      } else this.writer.block(escapeBlockStart(text).replace(/\n/g, "\\\n"));
    }
  }

  #frame(frame: XmlElement): void {
    const table = findElement(frame, "tbl");
    if (table === undefined) return;
    const rows = childElements(table, "tr").map((row) =>
      childElements(row, "tc").map((cell) => {
        if (attribute(cell, "hMerge") === "1" || attribute(cell, "vMerge") === "1") return "";
        const body = childElement(cell, "txBody");
        const lines = (body === undefined ? [] : childElements(body, "p")).map((p) =>
          renderInline(paragraphSegments(p, this.#relationships)).trim(),
        );
        return tableCell(lines.filter((line) => line !== "").join("\n"));
      }),
    );
    if (rows.length > 0) this.writer.block(markdownTable(rows));
  }

  #picture(picture: XmlElement): void {
    const blip = findElement(picture, "blip");
    const target =
      blip === undefined
        ? undefined
        : this.#relationships.get(attribute(blip, "embed") ?? "")?.target;
    const properties = findElement(picture, "cNvPr");
    const description =
      (properties && (attribute(properties, "descr") || attribute(properties, "name"))) || "image";
    if (target !== undefined)
      this.writer.block(
        `![${description.replace(/[[\]\n]/g, " ")}](${target.replace(/[()\s]/g, encodeURIComponent)})`,
      );
  }
}

async function notesText(
  archive: ZipArchive,
  part: string | undefined,
  yielder: Yielder,
): Promise<string> {
  if (part === undefined) return "";
  const root = await readPart(archive, part, yielder);
  if (root === undefined) return "";
  const lines: string[] = [];
  for (const shape of findElements(root, "sp")) {
    if (placeholderType(shape) !== "body") continue;
    for (const paragraph of findElements(shape, "p")) {
      const text = renderInline(paragraphSegments(paragraph, new Map())).trim();
      if (text !== "") lines.push(text);
    }
  }
  return lines.join("\n");
}

/**
 * Reads every slide of a presentation.
 *
 * @param input - the file
 * @returns one item per slide
 */
export async function readPptx(input: ReaderInput): Promise<ItemsDocument> {
  const { bytes, label, yielder } = input;
  if (containerKind(bytes) === "ole") throw oleFailure(bytes, label);
  const archive = openZip(bytes, { label });
  const main = await mainPartName(archive, "ppt/presentation.xml", yielder, label);
  const presentation = await readPart(archive, main, yielder);
  const relationships = await readRelationships(archive, main, yielder);
  const list = presentation === undefined ? undefined : childElement(presentation, "sldIdLst");
  const slideParts = (list === undefined ? [] : childElements(list, "sldId"))
    .map((slide) => relationships.get(prefixedAttribute(slide, "id") ?? "")?.target)
    .filter((part): part is string => part !== undefined && archive.has(part));
  const layouts = new Map<string, string>();
  const slides: { part: string; relationships: Map<string, Relationship>; layout: string }[] = [];
  for (const part of slideParts) {
    const slideRelationships = await readRelationships(archive, part, yielder);
    const layoutPart = [...slideRelationships.values()].find((r) =>
      r.type.endsWith("/slideLayout"),
    )?.target;
    slides.push({
      part,
      relationships: slideRelationships,
      layout: await layoutName(archive, layoutPart, layouts, yielder),
    });
  }
  // Section Header slides stand for the headings above the slide level (pandoc's reading of them).
  const sections = slides.some((slide) => /section header/i.test(slide.layout));
  const slideLevel = sections ? 2 : 1;
  const items: ItemsDocument["items"] = [];
  let title: string | undefined;
  for (const [index, slide] of slides.entries()) {
    const root = await readPart(archive, slide.part, yielder);
    const tree = root === undefined ? undefined : findElement(root, "spTree");
    const writer = new SlideWriter(slide.relationships, Math.min(6, slideLevel + 1));
    if (tree !== undefined) writer.shapes(tree);
    const notesPart = [...slide.relationships.values()].find((r) =>
      r.type.endsWith("/notesSlide"),
    )?.target;
    const notes = await notesText(archive, notesPart, yielder);
    if (notes !== "") writer.writer.block(["### Notes", "", ...notes.split("\n")]);
    const lines = [`<!-- Slide ${index + 1} -->`];
    const heading = writer.title.replace(/\n/g, " ");
    if (writer.titleSlide) {
      title ??= heading;
      lines.push(`**${heading}**`);
    } else if (heading !== "") {
      lines.push(`${"#".repeat(/section header/i.test(slide.layout) ? 1 : slideLevel)} ${heading}`);
    }
    const body = writer.writer.toString();
    items.push({
      markdown: body === "" ? lines.join("\n") : `${lines.join("\n")}\n\n${body}`,
      images: [],
    });
    await yielder.tick();
  }
  const document: ItemsDocument = {
    kind: "items",
    unit: "slides",
    items,
    notes: hasMacros(archive) ? [MACRO_NOTE] : [],
  };
  if (title !== undefined && title !== "") document.title = title;
  return document;
}
