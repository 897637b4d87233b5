import {
  attribute,
  childElement,
  childElements,
  findElement,
  type XmlElement,
} from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { escapeBlockStart, markdownTable, markdownTableCell, renderInline } from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";
import { type LinkTarget, readParagraph, type SlideParagraph } from "./slide-paragraph.js";

/**
 * Writes one slide's shape tree as Markdown: the title placeholder (`title`, `ctrTitle`) kept
 * apart for the heading, text shapes in order — bullets at their levels (numbered where the
 * paragraph numbers), a list item's later paragraphs and code under it, a bold paragraph with
 * space before it as a heading one level below the slide's (pandoc writes headings inside a
 * slide so), runs of monospace text as code blocks — tables, pictures named by their part, and
 * group shapes walked into. Yields to the event loop between shapes, paragraphs and table rows.
 *
 * @internal
 */

const TITLE_TYPES = new Set(["title", "ctrTitle"]);
/** Placeholders whose paragraphs are bullets unless they say otherwise. */
const BULLETED_TYPES = new Set(["body", "obj", undefined]);
/** Placeholders that hold no content of the slide's own. */
const SKIPPED_TYPES = new Set(["sldNum"]);

/** What a slide's spTree holds besides its body. */
export interface SlideFacts {
  /** The first title placeholder's text (one line). */
  title: string;
  /** Whether that title is a title slide's (`ctrTitle`). */
  titleSlide: boolean;
}

function placeholderType(shape: XmlElement): string | undefined | null {
  const properties = findElement(shape, "nvPr");
  const placeholder = properties === undefined ? undefined : childElement(properties, "ph");
  if (placeholder === undefined) return null;
  return attribute(placeholder, "type");
}

/** A paragraph that is nothing but short bold text, spaced from the one before: a heading. */
function isHeading(paragraph: SlideParagraph): boolean {
  if (!paragraph.spaceBefore) return false;
  const words = paragraph.segments.filter((segment) => segment.text.trim() !== "");
  return (
    words.length > 0 &&
    words.every(
      (segment) => segment.bold === true && segment.raw !== true && !segment.text.includes("\n"),
    ) &&
    words.reduce((sum, segment) => sum + segment.text.length, 0) <= 200
  );
}

/** A paragraph's inline Markdown as a block's lines: each line's start escaped, hard breaks kept. */
function blockLines(inline: string): string[] {
  const lines = inline.split("\n").map((line) => escapeBlockStart(line));
  return lines.map((line, index) => (index < lines.length - 1 ? `${line}\\` : line));
}

/** What a {@link SlideWriter} needs from the slide's deck. */
export interface SlideWriterOptions {
  /** Resolves hyperlinks. */
  linkTarget: LinkTarget;
  /** A picture's part by relationship id. */
  images: (id: string) => string | undefined;
  /** The level of a heading inside the slide. */
  innerHeading: number;
  /** Yields to the event loop. */
  yielder: Yielder;
}

/** Writes a slide. */
export class SlideWriter {
  readonly #writer = new MarkdownWriter();
  readonly #facts: SlideFacts = { title: "", titleSlide: false };
  readonly #linkTarget: LinkTarget;
  readonly #images: (id: string) => string | undefined;
  readonly #innerHeading: number;
  readonly #yielder: Yielder;

  /** @param options - hyperlinks, pictures, the inner heading level, the yielder */
  constructor(options: SlideWriterOptions) {
    this.#linkTarget = options.linkTarget;
    this.#images = options.images;
    this.#innerHeading = options.innerHeading;
    this.#yielder = options.yielder;
  }

  /** Yields when the slice's budget is spent (a huge slide never holds the event loop). */
  async #pause(): Promise<void> {
    if (this.#yielder.due()) await this.#yielder.tick();
  }

  /** The title found so far. */
  get facts(): SlideFacts {
    return this.#facts;
  }

  /** Adds a block (the notes) after the shapes. */
  block(lines: readonly string[]): void {
    this.#writer.block(lines);
  }

  /** The Markdown written so far. */
  toString(): string {
    return this.#writer.toString();
  }

  /** Writes the shapes of a tree (`p:spTree`, a group). */
  async shapes(tree: XmlElement): Promise<void> {
    for (const node of tree.children) {
      if (typeof node === "string") continue;
      await this.#pause();
      if (node.local === "sp") await this.#textShape(node);
      else if (node.local === "grpSp") await this.shapes(node);
      else if (node.local === "graphicFrame") await this.#frame(node);
      else if (node.local === "pic") this.#picture(node);
      else if (node.local === "AlternateContent") {
        const choice = childElement(node, "Choice") ?? childElement(node, "Fallback");
        if (choice !== undefined) await this.shapes(choice);
      }
    }
  }

  async #textShape(shape: XmlElement): Promise<void> {
    const body = childElement(shape, "txBody");
    if (body === undefined) return;
    const type = placeholderType(shape);
    if (type !== null && SKIPPED_TYPES.has(type ?? "")) return;
    const paragraphs = childElements(body, "p");
    if (type !== null && TITLE_TYPES.has(type ?? "")) {
      const lines: string[] = [];
      for (const paragraph of paragraphs) {
        const segments = readParagraph(paragraph, this.#linkTarget).segments;
        const line = renderInline(segments).replace(/\n/g, " ").trim();
        if (line !== "") lines.push(line);
        await this.#pause();
      }
      const text = lines.join(" ");
      if (this.#facts.title === "") {
        this.#facts.title = text;
        this.#facts.titleSlide = type === "ctrTitle";
      } else if (text !== "") this.#writer.block(`**${text}**`);
      return;
    }
    await this.#paragraphs(paragraphs, type !== null && BULLETED_TYPES.has(type));
  }

  async #paragraphs(elements: readonly XmlElement[], bulleted: boolean): Promise<void> {
    const counters: number[] = [];
    // the level of the list item the next indented paragraph without a bullet continues
    let item: number | undefined;
    for (const element of elements) {
      await this.#pause();
      const paragraph = readParagraph(element, this.#linkTarget);
      const inline = renderInline(paragraph.segments).trim();
      if (inline === "") continue;
      const { level, bullet } = paragraph;
      if ((bulleted && bullet !== "none") || bullet === "number" || bullet === "character") {
        const numbered = bullet === "number";
        counters.length = level + 1;
        // the number of the level's last item, -1 for a bullet (a numbered list starts after it)
        const previous = counters[level] ?? -1;
        counters[level] = !numbered ? -1 : previous < 0 ? paragraph.start : previous + 1;
        const marker = numbered ? `${counters[level]}.` : "-";
        this.#writer.listItem(level, marker, blockLines(inline).join("\n"));
        item = level;
      } else if (item !== undefined && level > 0 && level - 1 <= item) {
        this.#writer.continuation(
          level - 1,
          paragraph.code ? MarkdownWriter.fenced(paragraph.plain.split("\n")) : blockLines(inline),
        );
      } else {
        item = undefined;
        counters.length = 0;
        this.#block(paragraph, inline);
      }
    }
  }

  #block(paragraph: SlideParagraph, inline: string): void {
    if (isHeading(paragraph)) {
      const plain = paragraph.segments.map((segment) => ({ ...segment, bold: false }));
      this.#writer.block(`${"#".repeat(this.#innerHeading)} ${renderInline(plain).trim()}`);
    } else if (paragraph.code) this.#writer.code(paragraph.plain.replace(/\s+$/, "").split("\n"));
    else this.#writer.block(blockLines(inline));
  }

  async #frame(frame: XmlElement): Promise<void> {
    const table = findElement(frame, "tbl");
    if (table === undefined) return;
    const rows: string[][] = [];
    for (const row of childElements(table, "tr")) {
      await this.#pause();
      rows.push(
        childElements(row, "tc").map((cell) => {
          if (attribute(cell, "hMerge") === "1" || attribute(cell, "vMerge") === "1") return "";
          const body = childElement(cell, "txBody");
          const lines = (body === undefined ? [] : childElements(body, "p")).map((p) =>
            renderInline(readParagraph(p, this.#linkTarget).segments).trim(),
          );
          return markdownTableCell(lines.filter((line) => line !== "").join("\n"));
        }),
      );
    }
    if (rows.length > 0) this.#writer.block(markdownTable(rows));
  }

  #picture(picture: XmlElement): void {
    const blip = findElement(picture, "blip");
    const target = blip === undefined ? undefined : this.#images(attribute(blip, "embed") ?? "");
    const properties = findElement(picture, "cNvPr");
    const description =
      (properties && (attribute(properties, "descr") || attribute(properties, "name"))) || "image";
    if (target !== undefined)
      this.#writer.block(
        `![${description.replace(/[[\]\n]/g, " ")}](${target.replace(/[()\s]/g, encodeURIComponent)})`,
      );
  }
}
