import { ToolFailureError } from "@agentool/contract";
import { containerKind, oleFailure } from "../../container/detect.js";
import {
  attribute,
  childElement,
  childElements,
  prefixedAttribute,
  textContent,
  type XmlElement,
} from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { openZip, type ZipArchive } from "../../container/zip.js";
import {
  hasMacros,
  MACRO_NOTE,
  mainPartName,
  type Relationship,
  readPart,
  readRelationships,
} from "../ooxml-package.js";

/**
 * A .pptx opened for reading a page of it: the slide list from presentation.xml's `sldIdLst`
 * (the exact count, no slide read), each slide's relationships read once when asked, the
 * layouts' kinds, the deck's heading levels and its title — so a page converts only its own
 * slides.
 *
 * @internal
 */

/** What a slide's layout says about its title. */
type LayoutKind = "title" | "section" | "other";

/** How a deck's slide titles map to heading levels. */
export interface DeckLevels {
  /** The level of a Section Header slide's title (1), when the deck has such slides. */
  section: number;
  /** The level of every other slide's title: 2 below sections, else 1. */
  slide: number;
  /** The level of a heading inside a slide (one below the slide's). */
  inner: number;
}

/** An opened presentation. */
export class PptxDeck {
  /** The slides' part names, in presentation order. */
  readonly slides: readonly string[];
  /** Facts about the file (macros never run). */
  readonly notes: string[];
  readonly #archive: ZipArchive;
  readonly #yielder: Yielder;
  readonly #numbers: Map<string, number>;
  readonly #relationships = new Map<string, Promise<Map<string, Relationship>>>();
  readonly #layouts = new Map<string, Promise<LayoutKind>>();
  #levels: Promise<DeckLevels> | undefined;

  private constructor(archive: ZipArchive, slides: string[], yielder: Yielder) {
    this.#archive = archive;
    this.#yielder = yielder;
    this.slides = slides;
    this.#numbers = new Map(slides.map((part, index) => [part, index + 1]));
    this.notes = hasMacros(archive) ? [MACRO_NOTE] : [];
  }

  /**
   * Opens a deck: the zip's directory and presentation.xml with its relationships, nothing else.
   *
   * @param bytes - the file
   * @param label - its display path
   * @param yielder - yields between slices
   * @returns the deck
   */
  static async open(bytes: Uint8Array, label: string, yielder: Yielder): Promise<PptxDeck> {
    if (containerKind(bytes) === "ole") throw oleFailure(bytes, label);
    const archive = openZip(bytes, { label });
    const main = await mainPartName(archive, "ppt/presentation.xml", yielder, label);
    const presentation = await readPart(archive, main, yielder);
    const relationships = await readRelationships(archive, main, yielder);
    const list = presentation === undefined ? undefined : childElement(presentation, "sldIdLst");
    const seen = new Set<string>();
    const slides: string[] = [];
    for (const entry of list === undefined ? [] : childElements(list, "sldId")) {
      const part = relationships.get(prefixedAttribute(entry, "id") ?? "")?.target;
      if (part === undefined || seen.has(part) || !archive.has(part)) continue;
      seen.add(part);
      slides.push(part);
    }
    return new PptxDeck(archive, slides, yielder);
  }

  /** The 1-based number of a slide part in the deck (for a link that jumps to it). */
  slideNumber(part: string): number | undefined {
    return this.#numbers.get(part);
  }

  /** A part parsed (undefined when absent). */
  part(name: string): Promise<XmlElement | undefined> {
    return readPart(this.#archive, name, this.#yielder);
  }

  /** A slide's (or any part's) relationships, read once. */
  relationships(part: string): Promise<Map<string, Relationship>> {
    let known = this.#relationships.get(part);
    if (known === undefined) {
      known = readRelationships(this.#archive, part, this.#yielder);
      this.#relationships.set(part, known);
    }
    return known;
  }

  /** The part a slide's relationship of a type names (`slideLayout`, `notesSlide`). */
  async related(part: string, type: string): Promise<string | undefined> {
    for (const relationship of (await this.relationships(part)).values()) {
      if (!relationship.external && relationship.type.endsWith(`/${type}`)) {
        return relationship.target;
      }
    }
    return undefined;
  }

  /** What a slide's layout is: a title slide's, a section header's, or another. */
  async layoutKind(slide: string): Promise<LayoutKind> {
    const layout = await this.related(slide, "slideLayout");
    if (layout === undefined) return "other";
    let known = this.#layouts.get(layout);
    if (known === undefined) {
      known = this.part(layout).then((root) => {
        const type = root === undefined ? undefined : attribute(root, "type");
        const data = root === undefined ? undefined : childElement(root, "cSld");
        const name = (data && attribute(data, "name")) ?? "";
        if (type === "secHead" || /section header/i.test(name)) return "section";
        if (type === "title" || /^title slide$/i.test(name)) return "title";
        return "other";
      });
      this.#layouts.set(layout, known);
    }
    return known;
  }

  /**
   * The deck's heading levels: Section Header slides stand for the headings above the slide
   * level (pandoc's reading of them), so their titles are `#` and the other slides' `##` when
   * the deck has any; `#` otherwise. Slides are looked at in order until the first Section
   * Header (their relationships only); one that cannot be read counts as an ordinary slide
   * here (reading it on its own page reports why).
   */
  levels(): Promise<DeckLevels> {
    this.#levels ??= (async () => {
      for (const slide of this.slides) {
        const kind = await this.layoutKind(slide).catch((error: unknown) => {
          if (error instanceof ToolFailureError) return "other";
          throw error;
        });
        if (kind === "section") return { section: 1, slide: 2, inner: 3 };
      }
      return { section: 1, slide: 1, inner: 2 };
    })();
    return this.#levels;
  }

  /** The title the package's core properties give (`dc:title`), if any. */
  async coreTitle(): Promise<string | undefined> {
    const properties = (await this.relationships("")).values();
    const part =
      [...properties].find((relationship) => relationship.type.endsWith("/core-properties"))
        ?.target ?? "docProps/core.xml";
    // the title is optional: a damaged core-properties part leaves it out, nothing more
    const root = await this.part(part).catch((error: unknown) => {
      if (error instanceof ToolFailureError) return undefined;
      throw error;
    });
    const title = root === undefined ? undefined : childElement(root, "title");
    const text = title === undefined ? "" : textContent(title).replace(/\s+/g, " ").trim();
    return text === "" ? undefined : text;
  }
}
