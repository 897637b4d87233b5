import { ToolFailureError } from "@agentool/contract";
import { findElement, findElements, type XmlElement } from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { renderInline } from "../markdown.js";
import { type DocumentItem, pagedDocument, pageItems, parseSpan } from "../page-document.js";
import type { PagedDocument, ReaderInput } from "../types.js";
import { PptxDeck } from "./pptx-deck.js";
import { linkResolver, readParagraph } from "./slide-paragraph.js";
import { SlideWriter } from "./slide-writer.js";

/**
 * Reads a page of a .pptx/.pptm: the slide count from presentation.xml (exact, no slide read),
 * then only the page's slides, each as `<!-- Slide N -->` and its title as a heading (`#` for
 * Section Header slides and `##` for the slides below them, `#` for every slide of a deck
 * without sections), its shapes (see {@link SlideWriter}) and its speaker notes under
 * `### Notes`. A link that jumps to another slide is written `#slide-N`.
 *
 * @internal
 */

/** Reads a part's failure as the slide's, so the model can read around it. */
function slideFailure(error: unknown, number: number): unknown {
  if (!(error instanceof ToolFailureError)) return error;
  return new ToolFailureError(error.code, `Slide ${number}: ${error.message}`, {
    hint: `Read the slides around it with pages (e.g. pages: "${number + 1}-").`,
  });
}

async function notesText(deck: PptxDeck, slide: string): Promise<string[]> {
  const part = await deck.related(slide, "notesSlide");
  const root = part === undefined ? undefined : await deck.part(part);
  if (root === undefined) return [];
  const lines: string[] = [];
  for (const shape of findElements(root, "sp")) {
    const placeholder = findElement(shape, "ph");
    if (placeholder === undefined || placeholder.attributes.type !== "body") continue;
    for (const paragraph of findElements(shape, "p")) {
      const text = renderInline(readParagraph(paragraph, () => undefined).segments).trim();
      if (text !== "") lines.push(text);
    }
  }
  return lines;
}

async function readSlide(deck: PptxDeck, index: number, yielder: Yielder): Promise<DocumentItem> {
  const part = deck.slides[index] ?? "";
  const relationships = await deck.relationships(part);
  const levels = await deck.levels();
  const writer = new SlideWriter({
    linkTarget: linkResolver(relationships, (target) => deck.slideNumber(target)),
    images: (id) => relationships.get(id)?.target,
    innerHeading: levels.inner,
    yielder,
  });
  const root: XmlElement | undefined = await deck.part(part);
  const tree = root === undefined ? undefined : findElement(root, "spTree");
  if (tree !== undefined) await writer.shapes(tree);
  const notes = await notesText(deck, part);
  if (notes.length > 0) writer.block(["### Notes", "", ...notes]);
  const lines = [`<!-- Slide ${index + 1} -->`];
  const { title, titleSlide } = writer.facts;
  if (titleSlide) lines.push(`**${title}**`);
  else if (title !== "") {
    const section = (await deck.layoutKind(part)) === "section";
    lines.push(`${"#".repeat(section ? levels.section : levels.slide)} ${title}`);
  }
  const body = writer.toString();
  return {
    markdown: body === "" ? lines.join("\n") : `${lines.join("\n")}\n\n${body}`,
    images: [],
  };
}

/** The deck's title: its core properties', else its first slide's when that is a title slide. */
async function deckTitle(deck: PptxDeck, yielder: Yielder): Promise<string | undefined> {
  const core = await deck.coreTitle();
  const first = deck.slides[0];
  if (core !== undefined || first === undefined) return core;
  try {
    if ((await deck.layoutKind(first)) !== "title") return undefined;
    const root = await deck.part(first);
    const none = () => undefined;
    const writer = new SlideWriter({ linkTarget: none, images: none, innerHeading: 1, yielder });
    const tree = root === undefined ? undefined : findElement(root, "spTree");
    if (tree !== undefined) await writer.shapes(tree);
    return writer.facts.titleSlide && writer.facts.title !== "" ? writer.facts.title : undefined;
  } catch (error) {
    if (error instanceof ToolFailureError) return undefined;
    throw error;
  }
}

/**
 * Reads the asked page of a presentation (offset/limit over all slides, or over `pages`).
 *
 * @param input - the file and the request
 * @returns the page, with the exact slide count
 */
export async function readPptx(input: ReaderInput): Promise<PagedDocument> {
  const { request, yielder } = input;
  const deck = await PptxDeck.open(input.bytes, input.label, yielder);
  const count = deck.slides.length;
  const span = request.pages === undefined ? undefined : parseSpan(request.pages, count, "slides");
  const page = await pageItems(
    {
      count,
      unit: "slides",
      item: async (index) => {
        try {
          const item = await readSlide(deck, index, yielder);
          await yielder.tick();
          return item;
        } catch (error) {
          throw slideFailure(error, index + 1);
        }
      },
    },
    span,
    request.offset ?? 1,
    request.limit ?? input.defaultLimit,
    input.maxPageChars,
  );
  const document = pagedDocument(page, "slides", deck.notes);
  const title = await deckTitle(deck, yielder);
  if (title !== undefined) document.title = title;
  return document;
}
