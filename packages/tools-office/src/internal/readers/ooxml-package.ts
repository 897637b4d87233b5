import { ToolFailureError } from "@agentool/contract";
import { attribute, childElements, parseXml, type XmlElement } from "../container/xml.js";
import type { Yielder } from "../container/yielder.js";
import type { ZipArchive } from "../container/zip.js";

/**
 * Open Packaging Conventions (the zip layout of .docx/.xlsx/.pptx): relationships, the main
 * part, resolving a target against its source part.
 *
 * @internal
 */

/** One relationship of a part. */
export interface Relationship {
  /** The relationship's type URI (its last segment tells: `officeDocument`, `hyperlink`, `image`…). */
  type: string;
  /** The target: a part name inside the package (resolved), or an external URI. */
  target: string;
  /** Whether the target is outside the package (a hyperlink). */
  external: boolean;
}

/** Resolves a relative target against the folder of a source part: `word/document.xml` + `media/a.png` → `word/media/a.png`. */
export function resolvePartName(source: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = source.split("/").slice(0, -1);
  for (const piece of target.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== "." && piece !== "") parts.push(piece);
  }
  return parts.join("/");
}

/** The relationships part of a part: `word/document.xml` → `word/_rels/document.xml.rels`. */
export function relationshipsPartName(part: string): string {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/**
 * Reads a part's relationships (an empty map when it has none).
 *
 * @param archive - the package
 * @param part - the source part (`""` for the package's own `_rels/.rels`)
 * @param yielder - yields between slices
 * @returns relationships by id
 */
export async function readRelationships(
  archive: ZipArchive,
  part: string,
  yielder: Yielder,
): Promise<Map<string, Relationship>> {
  const name = part === "" ? "_rels/.rels" : relationshipsPartName(part);
  const out = new Map<string, Relationship>();
  if (!archive.has(name)) return out;
  const root = await parseXml(await archive.readText(name, yielder), name, { yielder });
  for (const element of childElements(root, "Relationship")) {
    const id = attribute(element, "Id");
    const target = attribute(element, "Target") ?? "";
    if (id === undefined) continue;
    const external = attribute(element, "TargetMode") === "External";
    out.set(id, {
      type: attribute(element, "Type") ?? "",
      target: external ? target : resolvePartName(part, decodeURIComponentSafe(target)),
      external,
    });
  }
  return out;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The package's main part (the `officeDocument` relationship), or the conventional name.
 *
 * @param archive - the package
 * @param fallback - the usual name (`word/document.xml`)
 * @param yielder - yields between slices
 * @param label - the file's display path
 * @returns the main part's name
 */
export async function mainPartName(
  archive: ZipArchive,
  fallback: string,
  yielder: Yielder,
  label: string,
): Promise<string> {
  const relationships = await readRelationships(archive, "", yielder);
  for (const relationship of relationships.values()) {
    if (relationship.type.endsWith("/officeDocument") && archive.has(relationship.target)) {
      return relationship.target;
    }
  }
  if (archive.has(fallback)) return fallback;
  throw new ToolFailureError(
    "UNSUPPORTED",
    `${label} is a zip archive but not the Office document its extension says (no ${fallback}).`,
    { hint: "Check the file type; it may be another kind of archive." },
  );
}

/** Parses a part when present. */
export async function readPart(
  archive: ZipArchive,
  name: string,
  yielder: Yielder,
): Promise<XmlElement | undefined> {
  if (!archive.has(name)) return undefined;
  return parseXml(await archive.readText(name, yielder), name, { yielder });
}

/** The note every reader of a macro-enabled file adds. */
export const MACRO_NOTE = "This file holds macros (VBA); they are read as data only and never run.";

/** Whether the package holds a VBA project. */
export function hasMacros(archive: ZipArchive): boolean {
  return archive.entries.some((entry) => /(^|\/)vbaProject\.bin$/i.test(entry.name));
}
