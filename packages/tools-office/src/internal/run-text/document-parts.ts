import { ToolFailureError } from "@agentool/contract";
import type { ZipArchive } from "../container/zip.js";
import { type ScannedPart, scanPart } from "./replace-in-runs.js";
import { DRAWING_DIALECT, OPEN_DOCUMENT_DIALECT, WORD_DIALECT } from "./scan-paragraphs.js";

/**
 * The parts of a document whose text `edit_document` searches, in reading order: a Word file's
 * body, headers, footers, footnotes and endnotes; a presentation's slides in show order; an
 * OpenDocument text's content.
 *
 * @internal
 */

/** The formats `edit_document` edits. */
export type EditableFormat = "docx" | "pptx" | "odt";

const WORD_PART = /^word\/(header|footer)(\d*)\.xml$/;

function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

async function wordParts(archive: ZipArchive): Promise<Array<{ name: string; label: string }>> {
  if (!archive.has("word/document.xml"))
    throw notA(archive, "Word document (no word/document.xml)");
  const parts = [{ name: "word/document.xml", label: "body" }];
  const extra = archive.entries
    .map((entry) => entry.name)
    .filter((name) => WORD_PART.test(name))
    .sort(naturalOrder);
  for (const kind of ["header", "footer"]) {
    for (const name of extra.filter((entry) => entry.startsWith(`word/${kind}`))) {
      const number = WORD_PART.exec(name)?.[2] ?? "";
      parts.push({ name, label: `${kind}${number === "" ? "" : ` ${number}`}` });
    }
  }
  for (const name of ["footnotes", "endnotes"]) {
    if (archive.has(`word/${name}.xml`)) parts.push({ name: `word/${name}.xml`, label: name });
  }
  return parts;
}

async function slideParts(archive: ZipArchive): Promise<Array<{ name: string; label: string }>> {
  const inOrder: string[] = [];
  if (archive.has("ppt/presentation.xml") && archive.has("ppt/_rels/presentation.xml.rels")) {
    const presentation = await archive.readText("ppt/presentation.xml");
    const relations = await archive.readText("ppt/_rels/presentation.xml.rels");
    const targets = new Map<string, string>();
    for (const match of relations.matchAll(/<Relationship\b[^>]*>/g)) {
      const id = /\bId="([^"]+)"/.exec(match[0])?.[1];
      const target = /\bTarget="([^"]+)"/.exec(match[0])?.[1];
      if (id !== undefined && target !== undefined) targets.set(id, target);
    }
    for (const match of presentation.matchAll(/<p:sldId\b[^>]*>/g)) {
      const id = /\br:id="([^"]+)"/.exec(match[0])?.[1];
      const target = id === undefined ? undefined : targets.get(id);
      if (target === undefined) continue;
      const name = target.startsWith("/") ? target.slice(1) : `ppt/${target.replace(/^\.\//, "")}`;
      if (archive.has(name)) inOrder.push(name);
    }
  }
  if (inOrder.length === 0) {
    inOrder.push(
      ...archive.entries
        .map((entry) => entry.name)
        .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
        .sort(naturalOrder),
    );
  }
  if (inOrder.length === 0) throw notA(archive, "presentation (no slides)");
  return inOrder.map((name, index) => ({ name, label: `slide ${index + 1}` }));
}

function notA(_archive: ZipArchive, what: string): ToolFailureError {
  return new ToolFailureError("UNSUPPORTED", `The file is not a ${what}.`, {
    hint: "Check the file's type; edit_document edits .docx, .pptx and .odt.",
  });
}

/**
 * Reads and scans the text parts of a document.
 *
 * @param archive - the opened archive
 * @param format - the document's format
 * @returns the scanned parts in reading order
 */
export async function scanDocumentParts(
  archive: ZipArchive,
  format: EditableFormat,
): Promise<ScannedPart[]> {
  const listed =
    format === "docx"
      ? await wordParts(archive)
      : format === "pptx"
        ? await slideParts(archive)
        : [{ name: "content.xml", label: "body" }];
  const dialect =
    format === "docx" ? WORD_DIALECT : format === "pptx" ? DRAWING_DIALECT : OPEN_DOCUMENT_DIALECT;
  if (format === "odt" && !archive.has("content.xml")) {
    throw notA(archive, "OpenDocument text (no content.xml)");
  }
  const parts: ScannedPart[] = [];
  for (const { name, label } of listed) {
    parts.push(scanPart(name, label, await archive.readText(name), dialect));
  }
  return parts;
}
