import {
  attribute,
  childElement,
  childElements,
  createXmlStream,
  feedXml,
  findElement,
  findElements,
  localName,
  type XmlElement,
} from "../../container/xml.js";
import { openOdf } from "../odf/odf-package.js";
import { type OdfStyles, odfStyles } from "../odf/odf-styles.js";
import { OdfTextWriter } from "../odf/odf-text.js";
import { type DocumentItem, pagedDocument, pageItems, parseSpan } from "../page-document.js";
import type { PagedDocument, ReaderInput } from "../types.js";

/**
 * Reads a page of an OpenDocument presentation (.odp): content.xml is read once as a stream,
 * every `draw:page` counted (the exact total) but only the asked page's slides (and the
 * automatic styles) built into trees and converted — each as `<!-- Slide N -->` and `# title`,
 * outline bullets by nesting, tables, images, speaker notes under `### Notes`.
 *
 * @internal
 */

const EMPTY: XmlElement = { name: "", local: "", attributes: {}, children: [] };

/** content.xml's automatic styles and the wanted slides as trees, and the slide count. */
interface OdpContent {
  /** A content root holding only `office:automatic-styles`. */
  content: XmlElement;
  /** Built slides by 0-based index. */
  pages: Map<number, XmlElement>;
  /** Slides in all. */
  count: number;
}

/**
 * Streams content.xml, building trees only for the automatic styles and the slides whose
 * 0-based index `wanted` accepts.
 */
async function streamContent(
  text: string,
  wanted: (index: number) => boolean,
  input: ReaderInput,
): Promise<OdpContent> {
  const content: XmlElement = { name: "#content", local: "#content", attributes: {}, children: [] };
  const pages = new Map<number, XmlElement>();
  const building: XmlElement[] = [];
  const path: string[] = [];
  let count = 0;
  const stream = createXmlStream(
    {
      open: (name, attributes) => {
        const local = localName(name);
        path.push(local);
        const element: XmlElement = { name, local, attributes, children: [] };
        const parent = building[building.length - 1];
        if (parent !== undefined) {
          parent.children.push(element);
          building.push(element);
        } else if (path.length === 2 && local === "automatic-styles") {
          content.children.push(element);
          building.push(element);
        } else if (local === "page" && path[path.length - 2] === "presentation") {
          if (wanted(count)) {
            pages.set(count, element);
            building.push(element);
          }
          count += 1;
        }
      },
      close: () => {
        path.pop();
        // everything inside an element being built is built: the closing one is the top
        building.pop();
      },
      text: (value) => {
        building[building.length - 1]?.children.push(value);
      },
    },
    "content.xml",
  );
  await feedXml(stream, text, input.yielder);
  return { content, pages, count };
}

async function slideItem(
  page: XmlElement,
  number: number,
  styles: OdfStyles,
  input: ReaderInput,
): Promise<DocumentItem> {
  const writer = new OdfTextWriter(styles, EMPTY);
  let title = "";
  for (const frame of childElements(page)) {
    if (frame.local !== "frame" && frame.local !== "custom-shape") continue;
    const box = findElement(frame, "text-box") ?? frame;
    if (attribute(frame, "class") === "title" && title === "") {
      title = childElements(box)
        .map((p) => writer.inline(p).trim())
        .join(" ")
        .trim();
      continue;
    }
    if (findElement(frame, "image") !== undefined && findElement(frame, "text-box") === undefined) {
      writer.writer.block(
        writer.inline({ name: "p", local: "p", attributes: {}, children: [frame] }).trim(),
      );
      continue;
    }
    await writer.blocks(box, input.yielder);
  }
  const notes = childElement(page, "notes");
  const noteLines = (notes === undefined ? [] : findElements(notes, "frame"))
    .filter((frame) => attribute(frame, "class") === "notes")
    .flatMap((frame) => findElements(frame, "p").map((p) => writer.inline(p).trim()))
    .filter((line) => line !== "");
  if (noteLines.length > 0) writer.writer.block(["### Notes", "", ...noteLines]);
  const heading = `<!-- Slide ${number} -->${title === "" ? "" : `\n# ${title}`}`;
  const text = writer.finish();
  return { markdown: text === "" ? heading : `${heading}\n\n${text}`, images: [] };
}

/**
 * Reads the asked page of an .odp (offset/limit over all slides, or over `pages`).
 *
 * @param input - the file and the request
 * @returns the page, with the exact slide count
 */
export async function readOdp(input: ReaderInput): Promise<PagedDocument> {
  const { request } = input;
  const odf = await openOdf(input.bytes, input.label, input.yielder, false);
  const offset = request.offset ?? 1;
  const limit = request.limit ?? input.defaultLimit;
  // Where the page starts does not depend on the count (checked against it below).
  const first =
    request.pages === undefined
      ? 1
      : parseSpan(request.pages, Number.MAX_SAFE_INTEGER, "slides").first;
  const start = first + offset - 2;
  const text = await odf.archive.readText("content.xml", input.yielder);
  const { content, pages, count } = await streamContent(
    text,
    (index) => index >= start && index < start + limit,
    input,
  );
  const styles = odfStyles(content, odf.styles);
  const span = request.pages === undefined ? undefined : parseSpan(request.pages, count, "slides");
  const page = await pageItems(
    {
      count,
      unit: "slides",
      item: (index) => {
        const tree = pages.get(index);
        return tree === undefined ? undefined : slideItem(tree, index + 1, styles, input);
      },
    },
    span,
    offset,
    limit,
    input.maxPageChars,
  );
  const document = pagedDocument(page, "slides", odf.notes);
  return document;
}
