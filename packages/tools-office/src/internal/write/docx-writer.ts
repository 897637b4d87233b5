import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from "docx";
import type { Token, Tokens } from "marked";
import { inlineSpans, type Span } from "./inline-spans.js";

/**
 * Markdown → .docx with the `docx` library: headings as Word's Heading 1–6 styles, paragraphs
 * with bold/italic/strike/code runs and hyperlinks, bullet and numbered lists nested to nine
 * levels (real Word numbering, each numbered list restarting), tables with a bold header row,
 * code blocks in a monospace shaded paragraph per line, block quotes indented, rules, and
 * images from the workspace embedded at their size (scaled to the page width).
 *
 * @internal
 */

/** An image loaded for embedding. */
export interface LoadedImage {
  /** The file's bytes. */
  data: Uint8Array;
  /** Its format. */
  type: "png" | "jpg" | "gif";
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/** Loads an image a Markdown `![alt](path)` names (undefined: leave its alt text). */
export type ImageLoader = (href: string) => Promise<LoadedImage | undefined>;

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
];
const MAX_IMAGE_WIDTH = 600;
const MONOSPACE = "Courier New";
type Child = Paragraph | Table;
type Inline = TextRun | ExternalHyperlink | ImageRun;

async function runs(spans: readonly Span[], images: ImageLoader): Promise<Inline[]> {
  const out: Inline[] = [];
  for (const span of spans) {
    if (span.lineBreak) {
      out.push(new TextRun({ text: "", break: 1 }));
      continue;
    }
    if (span.image !== undefined) {
      const image = await images(span.image);
      if (image !== undefined) {
        const scale = Math.min(1, MAX_IMAGE_WIDTH / Math.max(1, image.width));
        out.push(
          new ImageRun({
            type: image.type,
            data: image.data,
            transformation: {
              width: Math.round(image.width * scale),
              height: Math.round(image.height * scale),
            },
            altText: { name: span.text || span.image, description: span.text, title: span.text },
          }),
        );
        continue;
      }
    }
    const run = new TextRun({
      text: span.text,
      ...(span.bold ? { bold: true } : {}),
      ...(span.italic ? { italics: true } : {}),
      ...(span.strike ? { strike: true } : {}),
      ...(span.code ? { font: MONOSPACE } : {}),
      ...(span.link !== undefined ? { style: "Hyperlink" } : {}),
    });
    out.push(
      span.link !== undefined ? new ExternalHyperlink({ link: span.link, children: [run] }) : run,
    );
  }
  return out;
}

interface ListContext {
  level: number;
  instance: number;
}

class DocxBuilder {
  readonly children: Child[] = [];
  #instance = 0;
  constructor(readonly images: ImageLoader) {}

  async blocks(tokens: readonly Token[], list?: ListContext, quote = false): Promise<void> {
    for (const token of tokens) await this.block(token, list, quote);
  }

  async block(token: Token, list: ListContext | undefined, quote: boolean): Promise<void> {
    const indent = quote ? { indent: { left: 720 } } : {};
    switch (token.type) {
      case "heading": {
        const heading = token as Tokens.Heading;
        const level = HEADINGS[Math.min(6, Math.max(1, heading.depth)) - 1];
        this.children.push(
          new Paragraph({
            heading: level,
            children: await runs(inlineSpans(heading.tokens), this.images),
          }),
        );
        return;
      }
      case "paragraph":
      case "text": {
        const tokens = (token as Tokens.Paragraph).tokens;
        const spans = quote ? inlineSpans(tokens, { italic: true }) : inlineSpans(tokens);
        const numbering = list === undefined ? {} : this.numbering(list);
        this.children.push(
          new Paragraph({ ...numbering, ...indent, children: await runs(spans, this.images) }),
        );
        return;
      }
      case "list":
        await this.list(token as Tokens.List, list);
        return;
      case "table":
        this.children.push(await this.table(token as Tokens.Table));
        this.children.push(new Paragraph({}));
        return;
      case "code":
        for (const line of (token as Tokens.Code).text.split("\n")) {
          this.children.push(
            new Paragraph({
              ...indent,
              spacing: { before: 0, after: 0 },
              shading: { type: ShadingType.CLEAR, color: "auto", fill: "F2F2F2" },
              children: [new TextRun({ text: line, font: MONOSPACE, size: 20 })],
            }),
          );
        }
        return;
      case "blockquote":
        await this.blocks((token as Tokens.Blockquote).tokens, list, true);
        return;
      case "hr":
        this.children.push(
          new Paragraph({
            border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "999999", space: 1 } },
          }),
        );
        return;
      case "html": {
        const text = (token as Tokens.HTML).text.replace(/<[^>]*>/g, "").trim();
        if (text.length > 0) this.children.push(new Paragraph({ children: [new TextRun(text)] }));
        return;
      }
      default:
        return;
    }
  }

  numbering(list: ListContext & { ordered?: boolean }) {
    return {
      numbering: {
        reference: list.instance < 0 ? "bullets" : "numbers",
        level: list.level,
        instance: Math.abs(list.instance),
      },
    };
  }

  async list(token: Tokens.List, parent: ListContext | undefined): Promise<void> {
    this.#instance += 1;
    const level = parent === undefined ? 0 : Math.min(8, parent.level + 1);
    const context = { level, instance: token.ordered ? this.#instance : -this.#instance };
    for (const item of token.items) {
      const [first, ...rest] = item.tokens;
      const checkbox = item.task ? (item.checked ? "☑ " : "☐ ") : "";
      if (first !== undefined && (first.type === "text" || first.type === "paragraph")) {
        const spans = inlineSpans(
          (first as Tokens.Text).tokens ?? [
            { type: "text", raw: first.raw, text: (first as Tokens.Text).text } as Token,
          ],
        );
        if (checkbox !== "") spans.unshift({ text: checkbox });
        this.children.push(
          new Paragraph({ ...this.numbering(context), children: await runs(spans, this.images) }),
        );
        await this.blocks(rest, context);
      } else {
        await this.blocks(item.tokens, context);
      }
    }
  }

  async table(token: Tokens.Table): Promise<Table> {
    const alignment = (align: string | null) =>
      align === "center"
        ? AlignmentType.CENTER
        : align === "right"
          ? AlignmentType.RIGHT
          : AlignmentType.LEFT;
    const row = async (cells: readonly Tokens.TableCell[], header: boolean) =>
      new TableRow({
        tableHeader: header,
        children: await Promise.all(
          cells.map(
            async (cell, index) =>
              new TableCell({
                children: [
                  new Paragraph({
                    alignment: alignment(token.align[index] ?? null),
                    children: await runs(
                      inlineSpans(cell.tokens, header ? { bold: true } : {}),
                      this.images,
                    ),
                  }),
                ],
              }),
          ),
        ),
      });
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      rows: [
        await row(token.header, true),
        ...(await Promise.all(token.rows.map((cells) => row(cells, false)))),
      ],
    });
  }
}

function levels(format: "bullet" | "decimal") {
  const bullets = ["•", "◦", "▪"];
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format: format === "bullet" ? LevelFormat.BULLET : LevelFormat.DECIMAL,
    text: format === "bullet" ? (bullets[level % 3] as string) : `%${level + 1}.`,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));
}

/**
 * Builds a .docx from Markdown tokens.
 *
 * @param tokens - `marked.lexer(markdown)`
 * @param images - loads the images the Markdown names
 * @param title - the document's title property
 * @returns the file's bytes
 */
export async function markdownToDocx(
  tokens: readonly Token[],
  images: ImageLoader,
  title: string,
): Promise<Uint8Array> {
  const builder = new DocxBuilder(images);
  await builder.blocks(tokens);
  const document = new Document({
    title,
    creator: "agentool",
    numbering: {
      config: [
        { reference: "bullets", levels: levels("bullet") },
        { reference: "numbers", levels: levels("decimal") },
      ],
    },
    sections: [{ children: builder.children.length > 0 ? builder.children : [new Paragraph({})] }],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
