import { ToolFailureError } from "@agentool/contract";
import { SaxesParser } from "saxes";
import type { DesignLayer, TokenRecords } from "../layer-spec.js";
import { SvgSpecBuilder } from "./svg-spec-builder.js";

/**
 * An SVG read as a layout spec, with SAX (`saxes`): no DTD is processed — a document that
 * declares entities is refused (`BLOCKED`), nothing external is ever fetched — and the element
 * count and nesting are capped. The text is fed in slices with a yield between them, so a large
 * file never holds the event loop.
 *
 * @internal
 */

/** Limits of {@link readSvgSpec}. */
export interface SvgLimits {
  /** Most elements read; more is `TOO_LARGE`. */
  maxElements: number;
  /** Deepest nesting; deeper is `TOO_LARGE`. */
  maxDepth: number;
  /** Stops the reading. */
  signal?: AbortSignal;
}

/** What {@link readSvgSpec} returns. */
export interface SvgSpec {
  /** `width` × `height` as written on the root, in px when given in px or unitless. */
  width?: number;
  /** The root's height. */
  height?: number;
  /** The root's `viewBox`, as four numbers. */
  view_box?: [number, number, number, number];
  /** The layers, in drawing order. */
  layers: DesignLayer[];
  /** The tokens the layers reference. */
  tokens: TokenRecords;
  /** Elements read in all. */
  elements: number;
  /** Facts about the reading (skipped definitions, hidden layers, style sheets not applied). */
  notes: string[];
}

/** Characters fed to the parser between two yields to the event loop. */
const SLICE_CHARACTERS = 32_768;

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Reads an SVG's text as a layout spec.
 *
 * @param text - the SVG source
 * @param limits - element and depth caps, a signal
 * @returns the spec
 * @throws ToolFailureError `BLOCKED` for entity declarations, `TOO_LARGE` past a cap, `INVALID_INPUT` for malformed XML or a root that is not `<svg>`
 */
export async function readSvgSpec(text: string, limits: SvgLimits): Promise<SvgSpec> {
  const builder = new SvgSpecBuilder(limits);
  const parser = new SaxesParser({ position: false });
  parser.on("doctype", (doctype) => {
    if (/<!ENTITY/i.test(doctype)) {
      throw new ToolFailureError(
        "BLOCKED",
        "The SVG declares entities (<!ENTITY …> in its DOCTYPE); svg_read never expands or fetches entities, so it refuses such files.",
        {
          hint: "Export the SVG again without a DTD (every design tool's plain SVG export has none).",
        },
      );
    }
  });
  parser.on("opentag", (tag) => builder.open(tag.name, tag.attributes as Record<string, string>));
  parser.on("text", (value) => builder.text(value));
  parser.on("cdata", (value) => builder.text(value));
  parser.on("closetag", () => builder.close());
  try {
    for (let start = 0; start < text.length; start += SLICE_CHARACTERS) {
      if (limits.signal?.aborted) throw limits.signal.reason ?? new Error("aborted");
      parser.write(text.slice(start, start + SLICE_CHARACTERS));
      if (start + SLICE_CHARACTERS < text.length) await yieldToLoop();
    }
    parser.close();
  } catch (error) {
    if (ToolFailureError.find(error) !== undefined || limits.signal?.aborted) throw error;
    throw new ToolFailureError(
      "INVALID_INPUT",
      `The file is not well-formed XML (${error instanceof Error ? error.message.split("\n")[0] : String(error)}).`,
      {
        hint: "Check that it is an SVG file; an undeclared entity such as &nbsp; must be written as &#160;.",
      },
    );
  }
  return builder.finish();
}
