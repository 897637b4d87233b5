import {
  attribute,
  childElement,
  childElements,
  findElement,
  findElements,
  type XmlElement,
} from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import {
  escapeBlockStart,
  type InlineSegment,
  markdownLink,
  markdownTable,
  markdownTableCell,
  renderInline,
} from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";
import type { OdfStyles } from "./odf-styles.js";

/**
 * OpenDocument text → Markdown: `text:h` headings by outline level, nested `text:list`s
 * (numbered or bulleted by their list style), code from code styles, tables (spans padded,
 * covered cells empty), links, footnotes and endnotes `[^n]`, comments `[comment n]`, tracked
 * insertions `{++…++}` and deletions `{--…--}`, images named by their part.
 *
 * @internal
 */

export class OdfTextWriter {
  readonly writer = new MarkdownWriter();
  readonly #styles: OdfStyles;
  readonly #notes: string[] = [];
  readonly #comments: string[] = [];
  readonly #deletions = new Map<string, XmlElement>();
  readonly #insertions = new Set<string>();
  #inserting = 0;
  #code: string[] | undefined;

  constructor(styles: OdfStyles, body: XmlElement) {
    this.#styles = styles;
    const tracked = findElement(body, "tracked-changes");
    for (const region of tracked === undefined ? [] : childElements(tracked, "changed-region")) {
      const id = attribute(region, "id") ?? "";
      const deletion = childElement(region, "deletion");
      if (deletion !== undefined) this.#deletions.set(id, deletion);
      if (childElement(region, "insertion") !== undefined) this.#insertions.add(id);
    }
  }

  /** Converts the block children of a container. */
  async blocks(
    container: XmlElement,
    yielder: Yielder,
    list?: { depth: number; style: string | undefined },
  ): Promise<void> {
    for (const node of container.children) {
      if (typeof node === "string") continue;
      switch (node.local) {
        case "h":
          this.#flush();
          this.#heading(node);
          break;
        case "p":
          this.#paragraph(node);
          break;
        case "list":
          this.#flush();
          await this.#list(node, yielder, list);
          break;
        case "table":
          this.#flush();
          this.#table(node);
          break;
        case "section":
        case "index-body":
        case "table-of-content":
        case "alphabetical-index":
        case "illustration-index":
          await this.blocks(node, yielder, list);
          break;
        default:
          break;
      }
      await yielder.tick();
    }
    this.#flush();
  }

  #flush(): void {
    if (this.#code === undefined) return;
    this.writer.code(this.#code);
    this.#code = undefined;
  }

  #heading(element: XmlElement): void {
    const text = this.inline(element).replace(/\n/g, " ").trim();
    if (text === "") return;
    const level = Math.min(6, Math.max(1, Number(attribute(element, "outline-level") ?? 1)));
    this.writer.block(`${"#".repeat(level)} ${text}`);
  }

  #paragraph(element: XmlElement): void {
    const style = attribute(element, "style-name");
    if (this.#styles.isCode(style)) {
      this.#code ??= [];
      this.#code.push(
        ...this.#segments(element)
          .map((segment) => segment.text)
          .join("")
          .split("\n"),
      );
      return;
    }
    this.#flush();
    const text = this.inline(element).trim();
    if (text === "") return;
    const quote = this.#styles.chain(style).some((name) => /^quotations?$/.test(name));
    const body = escapeBlockStart(text).replace(/\n/g, "\\\n");
    this.writer.block(quote ? body.split("\n").map((line) => `> ${line}`) : body);
  }

  async #list(
    element: XmlElement,
    yielder: Yielder,
    outer?: { depth: number; style: string | undefined },
  ): Promise<void> {
    const depth = outer === undefined ? 0 : outer.depth + 1;
    const style = attribute(element, "style-name") ?? outer?.style;
    let counter = Number(attribute(element, "start-value") ?? 1) - 1;
    for (const item of childElements(element)) {
      if (item.local !== "list-item" && item.local !== "list-header") continue;
      const paragraphStyle = attribute(findElement(item, "p") ?? item, "style-name");
      const listStyle = style ?? this.#styles.listStyleOf(paragraphStyle);
      const numbered = this.#styles.isNumbered(listStyle, depth);
      let first = true;
      let code: string[] = [];
      const flushCode = () => {
        if (code.length > 0) this.writer.continuation(depth, MarkdownWriter.fenced(code));
        code = [];
      };
      for (const child of childElements(item)) {
        if (child.local === "list") {
          flushCode();
          await this.#list(child, yielder, { depth, style: listStyle });
          continue;
        }
        if (child.local !== "p" && child.local !== "h") continue;
        if (!first && this.#styles.isCode(attribute(child, "style-name"))) {
          code.push(
            ...this.#segments(child)
              .map((segment) => segment.text)
              .join("")
              .split("\n"),
          );
          continue;
        }
        flushCode();
        const text = this.inline(child).trim().replace(/\n/g, "\\\n");
        if (text === "" && !first) continue;
        if (first && item.local === "list-item") {
          counter += 1;
          this.writer.listItem(depth, numbered ? `${counter}.` : "-", text);
          first = false;
        } else if (text !== "") this.writer.continuation(depth, escapeBlockStart(text).split("\n"));
      }
      flushCode();
    }
  }

  #table(table: XmlElement): void {
    const rows: string[][] = [];
    for (const row of findElements(table, "table-row")) {
      const cells: string[] = [];
      for (const cell of childElements(row)) {
        const repeat = Math.min(64, Number(attribute(cell, "number-columns-repeated") ?? 1));
        const text =
          cell.local === "covered-table-cell"
            ? ""
            : markdownTableCell(
                childElements(cell)
                  .filter((c) => c.local === "p" || c.local === "h" || c.local === "list")
                  .map((c) => this.inline(c).trim())
                  .filter((line) => line !== "")
                  .join("\n"),
              );
        if (cell.local !== "table-cell" && cell.local !== "covered-table-cell") continue;
        for (let index = 0; index < repeat; index += 1) cells.push(text);
      }
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      rows.push(cells);
    }
    if (rows.length > 0) this.writer.block(markdownTable(rows));
  }

  /** A paragraph-like element's inline content as Markdown. */
  inline(element: XmlElement): string {
    return renderInline(this.#segments(element)).replace(/\t/g, " ");
  }

  #segments(element: XmlElement, style?: string, out: InlineSegment[] = []): InlineSegment[] {
    const format = () => ({
      bold: this.#styles.flag(style, "bold"),
      italic: this.#styles.flag(style, "italic"),
      strike: this.#styles.flag(style, "strike"),
      code: this.#styles.isCode(style),
    });
    for (const node of element.children) {
      if (typeof node === "string") {
        out.push({ ...format(), text: node.replace(/\s+/g, " ") });
        continue;
      }
      this.#inlineElement(node, style, out, format);
    }
    return out;
  }

  #inlineElement(
    node: XmlElement,
    style: string | undefined,
    out: InlineSegment[],
    format: () => Omit<InlineSegment, "text">,
  ): void {
    switch (node.local) {
      case "span":
        this.#segments(node, attribute(node, "style-name") ?? style, out);
        break;
      case "a": {
        const text = renderInline(this.#segments(node, style)).trim();
        const href = attribute(node, "href") ?? "";
        out.push({
          text: href === "" ? text : markdownLink(text, href),
          raw: true,
        });
        break;
      }
      case "s":
        out.push({
          ...format(),
          text: " ".repeat(Math.min(100, Number(attribute(node, "c") ?? 1))),
        });
        break;
      case "tab":
        out.push({ text: "\t" });
        break;
      case "line-break":
        out.push({ text: "\n", raw: true });
        break;
      case "note": {
        const citation = childElement(node, "note-citation");
        const id =
          (citation === undefined ? "" : renderInline(this.#segments(citation))).trim() ||
          String(this.#notes.length + 1);
        const body = childElement(node, "note-body");
        const text = (body === undefined ? [] : childElements(body))
          .map((p) => this.inline(p).trim())
          .filter((t) => t !== "")
          .join(" ");
        const key = attribute(node, "note-class") === "endnote" ? `e${id}` : id;
        this.#notes.push(`[^${key}]: ${text}`);
        out.push({ text: `[^${key}]`, raw: true });
        break;
      }
      case "annotation": {
        const author = findElement(node, "creator");
        const text = childElements(node, "p")
          .map((p) => this.inline(p).trim())
          .join(" ");
        const id = this.#comments.length + 1;
        this.#comments.push(
          `[comment ${id}]${author === undefined ? "" : ` ${renderInline(this.#segments(author)).trim()}:`} ${text}`,
        );
        out.push({ text: `[comment ${id}]`, raw: true });
        break;
      }
      case "change-start":
        if (this.#insertions.has(attribute(node, "change-id") ?? "")) {
          out.push({ text: "{++", raw: true });
          this.#inserting += 1;
        }
        break;
      case "change-end":
        if (this.#inserting > 0 && this.#insertions.has(attribute(node, "change-id") ?? "")) {
          out.push({ text: "++}", raw: true });
          this.#inserting -= 1;
        }
        break;
      case "change": {
        const deletion = this.#deletions.get(attribute(node, "change-id") ?? "");
        const text =
          deletion === undefined
            ? ""
            : childElements(deletion)
                .filter((c) => c.local === "p" || c.local === "h")
                .map((p) => this.inline(p).trim())
                .join(" ");
        if (text !== "") out.push({ text: `{--${text}--}`, raw: true });
        break;
      }
      case "frame": {
        const image = findElement(node, "image");
        const href = image === undefined ? undefined : attribute(image, "href");
        const box = findElement(node, "text-box");
        if (href !== undefined && href !== "") {
          const title = findElement(node, "desc") ?? findElement(node, "title");
          const alt =
            (title === undefined ? "" : renderInline(this.#segments(title)).trim()) ||
            attribute(node, "name") ||
            "image";
          out.push({
            text: `![${alt.replace(/[[\]\n]/g, " ")}](${href.replace(/[()\s]/g, encodeURIComponent)})`,
            raw: true,
          });
        } else if (box !== undefined) {
          out.push({
            text: ` ${childElements(box)
              .map((p) => this.inline(p).trim())
              .join(" ")} `,
          });
        }
        break;
      }
      case "bookmark":
      case "bookmark-start":
      case "bookmark-end":
      case "soft-page-break":
      case "annotation-end":
      case "reference-mark-start":
      case "reference-mark-end":
        break;
      default:
        this.#segments(node, style, out);
        break;
    }
  }

  /** Appends the footnotes and comments met so far. */
  finish(): string {
    for (const note of this.#notes) this.writer.block(note);
    if (this.#comments.length > 0) {
      this.writer.block("Comments:");
      for (const comment of this.#comments) this.writer.listItem(0, "-", comment);
    }
    return this.writer.toString();
  }
}
