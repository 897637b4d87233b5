import { ToolFailureError } from "@agentool/contract";
import {
  attribute,
  childElement,
  childElements,
  findElement,
  findElements,
  type XmlElement,
} from "../../container/xml.js";
import type { ItemsDocument, ReaderInput, TextDocument } from "../types.js";
import { openOdf } from "./odf-package.js";
import { odfStyles } from "./odf-styles.js";
import { OdfTextWriter } from "./odf-text.js";

/**
 * Reads OpenDocument text (.odt → Markdown) and presentations (.odp → one item per slide:
 * `<!-- Slide N -->` and `# title`, outline bullets by nesting, tables, images, speaker notes).
 *
 * @internal
 */

async function slides(
  body: XmlElement,
  writerFor: (root: XmlElement) => OdfTextWriter,
  input: ReaderInput,
) {
  const items: ItemsDocument["items"] = [];
  const presentation = childElement(body, "presentation");
  for (const [index, page] of (presentation === undefined
    ? []
    : childElements(presentation, "page")
  ).entries()) {
    const writer = writerFor(page);
    let title = "";
    for (const frame of childElements(page)) {
      if (frame.local !== "frame" && frame.local !== "custom-shape") continue;
      const kind = attribute(frame, "class");
      const box = findElement(frame, "text-box") ?? frame;
      if (kind === "title" && title === "") {
        title = childElements(box)
          .map((p) => writer.inline(p).trim())
          .join(" ")
          .trim();
        continue;
      }
      if (
        findElement(frame, "image") !== undefined &&
        findElement(frame, "text-box") === undefined
      ) {
        writer.writer.block(
          writer.inline({ name: "p", local: "p", attributes: {}, children: [frame] }).trim(),
        );
        continue;
      }
      await writer.blocks(box, input.yielder);
    }
    const notes = childElement(page, "notes");
    const notesFrames =
      notes === undefined
        ? []
        : findElements(notes, "frame").filter((frame) => attribute(frame, "class") === "notes");
    const noteLines = notesFrames
      .flatMap((frame) => findElements(frame, "p").map((p) => writer.inline(p).trim()))
      .filter((line) => line !== "");
    if (noteLines.length > 0) writer.writer.block(["### Notes", "", ...noteLines]);
    const heading = `<!-- Slide ${index + 1} -->${title === "" ? "" : `\n# ${title}`}`;
    const text = writer.finish();
    items.push({ markdown: text === "" ? heading : `${heading}\n\n${text}`, images: [] });
  }
  return items;
}

/**
 * Reads an .odt or .odp file.
 *
 * @param input - the file
 * @returns Markdown (text) or slides (presentation)
 */
export async function readOdf(input: ReaderInput): Promise<TextDocument | ItemsDocument> {
  const odf = await openOdf(input.bytes, input.label, input.yielder);
  const styles = odfStyles(odf.content, odf.styles);
  const body = childElement(odf.content, "body");
  if (body === undefined)
    throw new ToolFailureError("UNSUPPORTED", `${input.label}: content.xml has no body.`);
  if (input.extension === "odp" || childElement(body, "presentation") !== undefined) {
    const items = await slides(body, () => new OdfTextWriter(styles, body), input);
    return { kind: "items", unit: "slides", items, notes: odf.notes };
  }
  const text = childElement(body, "text");
  if (text === undefined) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${input.label} is not an OpenDocument text (no office:text body).`,
      {
        hint: "A spreadsheet reads as .ods, a presentation as .odp.",
      },
    );
  }
  const writer = new OdfTextWriter(styles, text);
  await writer.blocks(text, input.yielder);
  const markdown = writer.finish();
  const notes = [...odf.notes];
  if (/\{\+\+|\{--/.test(markdown))
    notes.push(
      "Tracked changes are marked: insertions {++like this++}, deletions {--like this--}.",
    );
  return { kind: "text", markdown, notes };
}
