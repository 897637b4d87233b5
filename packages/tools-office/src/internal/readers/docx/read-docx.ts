import { ToolFailureError } from "@agentool/contract";
import { containerKind, oleFailure } from "../../container/detect.js";
import { childElement, parseXml } from "../../container/xml.js";
import { openZip } from "../../container/zip.js";
import { hasMacros, MACRO_NOTE, mainPartName } from "../ooxml-package.js";
import type { ReaderInput, TextDocument } from "../types.js";
import { docxBodyToMarkdown } from "./docx-body.js";
import { readDocxParts } from "./docx-parts.js";

/**
 * Reads a .docx/.docm (WordprocessingML) to Markdown with the hand-written converter over the
 * safe container layer.
 *
 * @param input - the file and request
 * @returns the Markdown document
 * @internal
 */
export async function readDocx(input: ReaderInput): Promise<TextDocument> {
  const { bytes, label, yielder } = input;
  if (containerKind(bytes) === "ole") throw oleFailure(bytes, label);
  const archive = openZip(bytes, { label });
  const main = await mainPartName(archive, "word/document.xml", yielder, label);
  const parts = await readDocxParts(archive, main, yielder);
  const root = await parseXml(await archive.readText(main, yielder), main, { yielder });
  const body = childElement(root, "body");
  if (body === undefined) {
    throw new ToolFailureError("UNSUPPORTED", `${label}: ${main} has no document body.`);
  }
  const { markdown, title } = await docxBodyToMarkdown(body, parts, yielder);
  const notes: string[] = [];
  if (hasMacros(archive)) notes.push(MACRO_NOTE);
  if (/\{\+\+|\{--/.test(markdown)) {
    notes.push(
      "Tracked changes are marked: insertions {++like this++}, deletions {--like this--}.",
    );
  }
  const document: TextDocument = { kind: "text", markdown, notes };
  if (title !== undefined && title !== "") document.title = title;
  return document;
}
