import { ToolFailureError } from "@agentool/contract";
import { childElement } from "../../container/xml.js";
import type { ReaderInput, TextDocument } from "../types.js";
import { openOdf } from "./odf-package.js";
import { odfStyles } from "./odf-styles.js";
import { OdfTextWriter } from "./odf-text.js";

/**
 * Reads an OpenDocument text (.odt) as Markdown; an .odp is read a page at a time by
 * `slides/read-odp.ts`.
 *
 * @param input - the file
 * @returns Markdown
 * @internal
 */
export async function readOdf(input: ReaderInput): Promise<TextDocument> {
  const odf = await openOdf(input.bytes, input.label, input.yielder);
  const styles = odfStyles(odf.content, odf.styles);
  const body = childElement(odf.content, "body");
  if (body === undefined)
    throw new ToolFailureError("UNSUPPORTED", `${input.label}: content.xml has no body.`);
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
