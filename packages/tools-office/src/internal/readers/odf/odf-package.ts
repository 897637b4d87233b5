import { ToolFailureError } from "@agentool/contract";
import { containerKind, oleFailure } from "../../container/detect.js";
import { parseXml, type XmlElement } from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { openZip, type ZipArchive } from "../../container/zip.js";

/**
 * Opening an OpenDocument package: the zip checked, encryption (a manifest with
 * `encryption-data`) refused, macros (Basic/Scripts folders) noted, content.xml and styles.xml
 * parsed.
 *
 * @internal
 */

/** An opened OpenDocument package. */
export interface OdfPackage {
  archive: ZipArchive;
  content: XmlElement;
  styles: XmlElement | undefined;
  notes: string[];
}

/**
 * Opens an OpenDocument file.
 *
 * @param bytes - the file
 * @param label - its display path
 * @param yielder - yields between slices
 * @returns the package with its parsed parts
 */
export async function openOdf(
  bytes: Uint8Array,
  label: string,
  yielder: Yielder,
  parseContent = true,
): Promise<OdfPackage> {
  if (containerKind(bytes) === "ole") throw oleFailure(bytes, label);
  const archive = openZip(bytes, { label });
  if (archive.has("META-INF/manifest.xml")) {
    const manifest = await archive.readText("META-INF/manifest.xml", yielder);
    if (/encryption-data/.test(manifest)) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${label} is encrypted (password-protected OpenDocument file) — encrypted documents are not read.`,
        {
          hint: "Ask the user for an unencrypted copy.",
        },
      );
    }
  }
  if (!archive.has("content.xml")) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${label} is a zip archive but not an OpenDocument file (no content.xml).`,
    );
  }
  const notes: string[] = [];
  if (
    archive.entries.some((entry) => /^(Basic|Scripts)\/.+/.test(entry.name) && !entry.isDirectory)
  ) {
    notes.push("This file holds macros; they are read as data only and never run.");
  }
  const content = parseContent
    ? await parseXml(await archive.readText("content.xml", yielder), "content.xml", { yielder })
    : { name: "", local: "", attributes: {}, children: [] };
  const styles = archive.has("styles.xml")
    ? await parseXml(await archive.readText("styles.xml", yielder), "styles.xml", { yielder })
    : undefined;
  return { archive, content, styles, notes };
}
