import {
  attribute,
  childElement,
  prefixedAttribute,
  type XmlElement,
} from "../../container/xml.js";
import { type InlineSegment, markdownLink, renderInline } from "../markdown.js";

/**
 * One DrawingML paragraph (`a:p`) of a slide, a table cell or the notes, read into what the
 * slide writer decides with: its inline Markdown (runs in a monospace font as code spans,
 * neighbouring runs of one hyperlink as one link), its raw text (for a code block), its outline
 * level and bullet, and whether it opens with space before it (pandoc's mark of a heading
 * inside a slide).
 *
 * @internal
 */

/** A paragraph's facts. */
export interface SlideParagraph {
  /** Inline segments (links already Markdown, marked raw). */
  segments: InlineSegment[];
  /** The text as written, line breaks as `\n`, no Markdown (a code block's lines). */
  plain: string;
  /** Whether every run that holds text is in a monospace font, with no link: a code block. */
  code: boolean;
  /** Outline level (`lvl`, 0-based). */
  level: number;
  /** The bullet the paragraph sets: none (`buNone`), numbered, a character, or the shape's. */
  bullet: "none" | "number" | "character" | "inherited";
  /** The number a numbered list starts at (`buAutoNum`'s `startAt`, else 1). */
  start: number;
  /** Whether it sets spacing before itself (`spcBef`). */
  spaceBefore: boolean;
}

/** Resolves a run's hyperlink (`a:hlinkClick`) to a Markdown target, or `undefined` for none. */
export type LinkTarget = (link: XmlElement) => string | undefined;

const MONOSPACE =
  /courier|consol|mono|menlo|monaco|lucida (console|sans typewriter)|source code|inconsolata|andale|fira code|typewriter/i;

const TRUE = /^(1|true)$/;
const STRIKE = /^(sng|dbl)Strike$/;
/** Typefaces seen, and whether each is monospace (a deck uses a handful). */
const monospaceFaces = new Map<string, boolean>();

function isMonospace(typeface: string): boolean {
  let known = monospaceFaces.get(typeface);
  if (known === undefined) {
    known = MONOSPACE.test(typeface);
    if (monospaceFaces.size < 1_000) monospaceFaces.set(typeface, known);
  }
  return known;
}

/** A run's formatting and its hyperlink, from its `a:rPr` (DrawingML's attributes have no prefix). */
function runFormat(
  text: string,
  properties: XmlElement | undefined,
): { segment: InlineSegment; click: XmlElement | undefined } {
  const segment: InlineSegment = { text };
  if (properties === undefined) return { segment, click: undefined };
  const { b, i, strike } = properties.attributes;
  if (b !== undefined && TRUE.test(b)) segment.bold = true;
  if (i !== undefined && TRUE.test(i)) segment.italic = true;
  if (strike !== undefined && STRIKE.test(strike)) segment.strike = true;
  let click: XmlElement | undefined;
  for (const child of properties.children) {
    if (typeof child === "string") continue;
    if (child.local === "latin") segment.code = isMonospace(child.attributes.typeface ?? "");
    else if (child.local === "hlinkClick") click = child;
  }
  return { segment, click };
}

function runText(run: XmlElement): string {
  let text = "";
  for (const node of run.children) {
    if (typeof node === "string" || node.local !== "t") continue;
    for (const child of node.children) if (typeof child === "string") text += child;
  }
  return text;
}

/** Markdown of a link's runs: the text inside the brackets, the spaces around it outside. */
function linkSegment(inner: InlineSegment[], target: string): InlineSegment[] {
  const rendered = renderInline(inner);
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(rendered);
  const [lead, core, trail] = [match?.[1] ?? "", match?.[2] ?? "", match?.[3] ?? ""];
  if (core === "") return rendered === "" ? [] : [{ text: rendered }];
  return [{ text: lead }, { text: markdownLink(core, target), raw: true }, { text: trail }].filter(
    (segment) => segment.text !== "",
  );
}

/**
 * Reads a paragraph.
 *
 * @param paragraph - the `a:p` element
 * @param linkTarget - resolves hyperlinks (a slide's relationships)
 * @returns its facts
 */
export function readParagraph(paragraph: XmlElement, linkTarget: LinkTarget): SlideParagraph {
  const segments: InlineSegment[] = [];
  let plain = "";
  let monospaceOnly = true;
  let linked = false;
  let link: { target: string; inner: InlineSegment[] } | undefined;
  const flush = () => {
    if (link !== undefined) segments.push(...linkSegment(link.inner, link.target));
    link = undefined;
  };
  for (const node of paragraph.children) {
    if (typeof node === "string") continue;
    if (node.local === "br") {
      flush();
      segments.push({ text: "\n", raw: true });
      plain += "\n";
      continue;
    }
    if (node.local !== "r" && node.local !== "fld") continue;
    const text = runText(node);
    const { segment, click } = runFormat(text, childElement(node, "rPr"));
    plain += text;
    if (segment.code !== true && text.trim() !== "") monospaceOnly = false;
    const target = click === undefined ? undefined : linkTarget(click);
    if (target === undefined) {
      flush();
      segments.push(segment);
      continue;
    }
    linked = true;
    if (link?.target !== target) {
      flush();
      link = { target, inner: [] };
    }
    link.inner.push(segment);
  }
  flush();
  const properties = childElement(paragraph, "pPr");
  const has = (local: string) =>
    properties !== undefined && childElement(properties, local) !== undefined;
  const numbering = properties === undefined ? undefined : childElement(properties, "buAutoNum");
  const start = Number(numbering?.attributes.startAt ?? 1);
  return {
    segments,
    plain,
    code: monospaceOnly && !linked && plain.trim() !== "",
    level: Math.min(8, Number((properties && attribute(properties, "lvl")) ?? 0) || 0),
    bullet: has("buNone")
      ? "none"
      : numbering !== undefined
        ? "number"
        : has("buChar") || has("buBlip")
          ? "character"
          : "inherited",
    spaceBefore: has("spcBef"),
    start: Number.isInteger(start) && start >= 0 ? Math.min(start, 999_999_999) : 1,
  };
}

/**
 * A hyperlink resolver over a part's relationships: an external target as it is, a jump to a
 * slide of the deck as `#slide-N`, anything else (an action with no target) as no link.
 *
 * @param relationships - the part's relationships (id → target, external)
 * @param slideNumber - the 1-based number of a slide part in the deck, when it is one
 * @returns the resolver
 */
export function linkResolver(
  relationships: ReadonlyMap<string, { target: string; external: boolean }>,
  slideNumber: (part: string) => number | undefined,
): LinkTarget {
  return (link) => {
    const relationship = relationships.get(prefixedAttribute(link, "id") ?? "");
    if (relationship === undefined || relationship.target === "") return undefined;
    if (relationship.external) return relationship.target;
    const number = slideNumber(relationship.target);
    return number === undefined ? undefined : `#slide-${number}`;
  };
}
