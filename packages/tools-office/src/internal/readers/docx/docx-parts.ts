import { attribute, childElement, childElements, type XmlElement } from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import type { ZipArchive } from "../../container/zip.js";
import { type Relationship, readPart, readRelationships } from "../ooxml-package.js";

/**
 * What a .docx body needs besides itself: styles (heading levels, list and code styles),
 * numbering (bullet or number per list level), relationships (links, images), footnotes,
 * endnotes and comments.
 *
 * @internal
 */

/** One paragraph or character style, with what the reader needs of it. */
export interface DocxStyle {
  name: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
}

/** One level of a numbering definition. */
export interface NumberingLevel {
  /** Numbers (decimal, letters, roman) rather than bullets. */
  ordered: boolean;
  /** The first number. */
  start: number;
  /** No marker at all (`numFmt` none or an empty `lvlText`): a paragraph that continues the item above (pandoc writes a list item's later blocks so). */
  none: boolean;
}

/** Everything the body's conversion looks up. */
export interface DocxParts {
  styles: Map<string, DocxStyle>;
  /** numId → level → `{ ordered, start }`. */
  numbering: Map<string, Map<number, NumberingLevel>>;
  relationships: Map<string, Relationship>;
  footnotes: Map<string, XmlElement>;
  endnotes: Map<string, XmlElement>;
  comments: Map<string, { author: string; body: XmlElement }>;
}

function valueAttribute(parent: XmlElement | undefined, local: string): string | undefined {
  const element = parent === undefined ? undefined : childElement(parent, local);
  return element === undefined ? undefined : attribute(element, "val");
}

function readStyles(root: XmlElement | undefined): Map<string, DocxStyle> {
  const styles = new Map<string, DocxStyle>();
  if (root === undefined) return styles;
  for (const element of childElements(root, "style")) {
    const id = attribute(element, "styleId");
    if (id === undefined) continue;
    const paragraph = childElement(element, "pPr");
    const numPr = paragraph === undefined ? undefined : childElement(paragraph, "numPr");
    const style: DocxStyle = { name: (valueAttribute(element, "name") ?? id).toLowerCase() };
    const basedOn = valueAttribute(element, "basedOn");
    if (basedOn !== undefined) style.basedOn = basedOn;
    const outline = valueAttribute(paragraph, "outlineLvl");
    if (outline !== undefined) style.outlineLevel = Number(outline);
    const numId = valueAttribute(numPr, "numId");
    if (numId !== undefined) style.numId = numId;
    const ilvl = valueAttribute(numPr, "ilvl");
    if (ilvl !== undefined) style.ilvl = Number(ilvl);
    styles.set(id, style);
  }
  return styles;
}

function readNumbering(root: XmlElement | undefined): DocxParts["numbering"] {
  const out: DocxParts["numbering"] = new Map();
  if (root === undefined) return out;
  const abstract = new Map<string, Map<number, NumberingLevel>>();
  for (const element of childElements(root, "abstractNum")) {
    const levels = new Map<number, NumberingLevel>();
    for (const level of childElements(element, "lvl")) {
      levels.set(Number(attribute(level, "ilvl") ?? 0), numberingLevel(level));
    }
    abstract.set(attribute(element, "abstractNumId") ?? "", levels);
  }
  for (const element of childElements(root, "num")) {
    const base = abstract.get(valueAttribute(element, "abstractNumId") ?? "");
    const overrides = childElements(element, "lvlOverride");
    if (overrides.length === 0) {
      if (base !== undefined) out.set(attribute(element, "numId") ?? "", base);
      continue;
    }
    // a level redefined (LibreOffice writes every level of a list again here) or restarted
    const levels = new Map(base);
    for (const override of overrides) {
      const ilvl = Number(attribute(override, "ilvl") ?? 0);
      const level = childElement(override, "lvl");
      if (level !== undefined) levels.set(ilvl, numberingLevel(level));
      const start = valueAttribute(override, "startOverride");
      const current = levels.get(ilvl);
      if (start !== undefined && current !== undefined) {
        levels.set(ilvl, { ...current, start: Number(start) });
      }
    }
    out.set(attribute(element, "numId") ?? "", levels);
  }
  return out;
}

function numberingLevel(level: XmlElement): NumberingLevel {
  const format = valueAttribute(level, "numFmt") ?? "bullet";
  return {
    ordered: format !== "bullet" && format !== "none",
    start: Number(valueAttribute(level, "start") ?? 1),
    none: format === "none" || (valueAttribute(level, "lvlText") ?? "•").trim() === "",
  };
}

function readNotes(root: XmlElement | undefined, local: string): Map<string, XmlElement> {
  const out = new Map<string, XmlElement>();
  if (root === undefined) return out;
  for (const element of childElements(root, local)) {
    const type = attribute(element, "type");
    if (type === "separator" || type === "continuationSeparator" || type === "continuationNotice")
      continue;
    out.set(attribute(element, "id") ?? "", element);
  }
  return out;
}

/**
 * Loads the parts a document body refers to, by its relationships.
 *
 * @param archive - the package
 * @param main - the main part's name
 * @param yielder - yields between slices
 * @returns the parts (empty maps for those missing)
 */
export async function readDocxParts(
  archive: ZipArchive,
  main: string,
  yielder: Yielder,
): Promise<DocxParts> {
  const relationships = await readRelationships(archive, main, yielder);
  const byType = (suffix: string) => {
    for (const relationship of relationships.values()) {
      if (!relationship.external && relationship.type.endsWith(`/${suffix}`))
        return relationship.target;
    }
    return undefined;
  };
  const load = async (suffix: string) => {
    const name = byType(suffix);
    return name === undefined ? undefined : readPart(archive, name, yielder);
  };
  const comments = new Map<string, { author: string; body: XmlElement }>();
  const commentsRoot = await load("comments");
  for (const element of commentsRoot === undefined ? [] : childElements(commentsRoot, "comment")) {
    comments.set(attribute(element, "id") ?? "", {
      author: attribute(element, "author") ?? "",
      body: element,
    });
  }
  return {
    styles: readStyles(await load("styles")),
    numbering: readNumbering(await load("numbering")),
    relationships,
    footnotes: readNotes(await load("footnotes"), "footnote"),
    endnotes: readNotes(await load("endnotes"), "endnote"),
    comments,
  };
}

/** A paragraph style's heading level (1–9), following `basedOn`; 0 when not a heading. */
export function headingLevel(parts: DocxParts, styleId: string | undefined): number {
  let id = styleId;
  for (let hops = 0; id !== undefined && hops < 10; hops += 1) {
    const style = parts.styles.get(id);
    if (style === undefined) break;
    const named = /^heading\s*(\d)$/.exec(style.name);
    if (named !== null) return Number(named[1]);
    if (style.outlineLevel !== undefined && style.outlineLevel < 9) return style.outlineLevel + 1;
    id = style.basedOn;
  }
  return 0;
}

/**
 * A paragraph's heading level (1–9): its style's, else its own `w:outlineLvl`; 0 when it is not
 * a heading.
 *
 * @param parts - the styles
 * @param properties - the paragraph's `w:pPr`
 * @param styleId - its style
 * @returns the level
 */
export function paragraphHeadingLevel(
  parts: DocxParts,
  properties: XmlElement | undefined,
  styleId: string | undefined,
): number {
  const level = headingLevel(parts, styleId);
  if (level > 0) return level;
  const outline = properties === undefined ? undefined : childElement(properties, "outlineLvl");
  const outlineLevel = outline === undefined ? 0 : Number(attribute(outline, "val") ?? 9) + 1;
  return outlineLevel > 0 && outlineLevel < 10 ? outlineLevel : 0;
}

/** The style's name and its ancestors' (lower case). */
export function styleNames(parts: DocxParts, styleId: string | undefined): string[] {
  const names: string[] = [];
  let id = styleId;
  for (let hops = 0; id !== undefined && hops < 10; hops += 1) {
    const style = parts.styles.get(id);
    names.push(style?.name ?? id.toLowerCase());
    id = style?.basedOn;
  }
  return names;
}

/** The list numbering a style carries (`List Bullet` …), following `basedOn`. */
export function styleNumbering(
  parts: DocxParts,
  styleId: string | undefined,
): { numId: string; ilvl: number } | undefined {
  let id = styleId;
  for (let hops = 0; id !== undefined && hops < 10; hops += 1) {
    const style = parts.styles.get(id);
    if (style?.numId !== undefined) return { numId: style.numId, ilvl: style.ilvl ?? 0 };
    id = style?.basedOn;
  }
  return undefined;
}
