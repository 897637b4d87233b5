import { attribute, childElement, findElements, type XmlElement } from "../../container/xml.js";
import { type DocxParts, paragraphHeadingLevel, styleNames } from "./docx-parts.js";

/**
 * Internal links to headings, as Markdown can follow them. A Word document links to a heading
 * through a bookmark around it (`w:hyperlink w:anchor`, `HYPERLINK \l`), and a bookmark's name
 * is often one nobody chose: Word's `_Toc…`/`_Ref…`, or pandoc's `X` + hash for an identifier
 * over Word's 40-character limit. A Markdown heading has one address, the slug GFM renderers
 * give it; a link to a bookmark that marks a heading is written to that slug.
 *
 * @internal
 */

/**
 * The slug GitHub (and pandoc's `gfm_auto_identifiers`) gives a heading: lower case, every
 * character but letters, digits, `_`, `-` and spaces dropped, spaces made `-`; a slug taken
 * before gets `-1`, `-2`…
 *
 * @param text - the heading's text
 * @param taken - the slugs given so far (updated)
 * @returns the heading's slug
 */
export function headingSlug(text: string, taken: Set<string>): string {
  const base = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, (character) => (/\s/.test(character) ? " " : ""))
    .replace(/ /g, "-");
  let slug = base;
  for (let suffix = 1; taken.has(slug); suffix += 1) slug = `${base}-${suffix}`;
  taken.add(slug);
  return slug;
}

/**
 * Bookmark name → `#slug` for every bookmark that marks a heading: started inside the heading's
 * paragraph (Word, LibreOffice) or just before it (pandoc wraps a section in its bookmark).
 *
 * @param body - the `w:body` element
 * @param parts - styles (heading levels)
 * @returns the heading bookmarks' targets
 */
export function headingAnchors(body: XmlElement, parts: DocxParts): Map<string, string> {
  const anchors = new Map<string, string>();
  const taken = new Set<string>();
  let pending: string[] = [];
  const visit = (container: XmlElement) => {
    for (const node of container.children) {
      if (typeof node === "string") continue;
      if (node.local === "bookmarkStart") {
        pending.push(attribute(node, "name") ?? "");
      } else if (node.local === "sdt" || node.local === "customXml") {
        visit(childElement(node, "sdtContent") ?? node);
      } else if (node.local === "p") {
        const names = pending;
        pending = [];
        const text = headingText(node, parts);
        if (text === undefined) continue;
        const slug = headingSlug(text, taken);
        for (const inner of findElements(node, "bookmarkStart"))
          names.push(attribute(inner, "name") ?? "");
        for (const name of names) if (name !== "") anchors.set(name, `#${slug}`);
      } else if (node.local === "tbl") {
        pending = [];
      }
    }
  };
  visit(body);
  return anchors;
}

/** A heading paragraph's text (its runs' `w:t`); undefined for any other paragraph. */
function headingText(paragraph: XmlElement, parts: DocxParts): string | undefined {
  const properties = childElement(paragraph, "pPr");
  const style = properties === undefined ? undefined : childElement(properties, "pStyle");
  const styleId = style === undefined ? undefined : attribute(style, "val");
  if (styleNames(parts, styleId)[0] === "title") return undefined;
  if (paragraphHeadingLevel(parts, properties, styleId) === 0) return undefined;
  let text = "";
  for (const element of findElements(paragraph, "t")) {
    for (const node of element.children) if (typeof node === "string") text += node;
  }
  return text.trim() === "" ? undefined : text;
}
