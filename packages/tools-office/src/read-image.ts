import {
  defineTool,
  joinSentences,
  type MountedTools,
  ok,
  type Tool,
  type ToolContent,
  ToolFailureError,
} from "@agentool/contract";
import { z } from "zod";
import { prepareOfficeTool } from "./internal/office-tool.js";
import {
  extensionOf,
  type OfficeReadToolOptions,
  officeReadOptionsShape,
  readDocumentFile,
} from "./internal/read-support.js";

/** The default name of the image reader. */
export const READ_IMAGE_TOOL_NAME = "read_image";

/** Default longest edge of the image shown, in pixels (what vision models take without scaling). */
export const DEFAULT_MAX_EDGE = 1_568;

/** Largest image file opened: 40 MB. */
export const DEFAULT_MAX_IMAGE_FILE_BYTES = 40_000_000;

/** Most bytes of the image sent (under providers' 5 MB base64 cap); larger results are re-encoded as JPEG. */
export const MAX_IMAGE_OUTPUT_BYTES = 3_500_000;

/** Options of {@link createReadImageTool}. */
export type ReadImageToolOptions = OfficeReadToolOptions;

/** What `read_image` returns. */
export interface ReadImageToolData {
  /** The file, relative to the root. */
  path: string;
  /** Its format, from its bytes: `png`, `jpeg`, `gif`, `webp`, `svg`. */
  format: "png" | "jpeg" | "gif" | "webp" | "svg";
  /** Its width in pixels (an SVG's intrinsic width). */
  width: number;
  /** Its height in pixels. */
  height: number;
  /** Width of the image shown (after fitting `max_edge`); 0 when an SVG is returned as text. */
  shown_width: number;
  /** Height of the image shown. */
  shown_height: number;
  /** Whether it was scaled down to fit `max_edge`. */
  resized: boolean;
  /** `image`: shown as an image block; `svg_text`: an SVG given as its source text (external references or entities kept it from being rasterised). */
  shown_as: "image" | "svg_text";
  /** The image block's type (`image/png`…), when shown as an image. */
  mime_type?: string;
  /** The image's bytes, base64, when shown as an image. */
  base64?: string;
  /** The SVG's source text, when shown as text. */
  svg_text?: string;
  /** Facts about the reading (first frame of an animation, SVG rasterised). */
  notes: string[];
}

function createInputSchema() {
  return z.object({
    path: z
      .string()
      .min(1)
      .describe(
        "The image file (.png .jpg .jpeg .gif .webp .svg), relative to the workspace root.",
      ),
    max_edge: z
      .number()
      .int()
      .min(64)
      .max(4_096)
      .optional()
      .describe(
        `Longest edge of the image shown, in pixels (default ${DEFAULT_MAX_EDGE}); larger images are scaled down to fit.`,
      ),
  });
}

/** The image reader's input schema. */
export const readImageInputSchema = createInputSchema();

/** The image reader's type. */
export type ReadImageTool = Tool<typeof readImageInputSchema, ReadImageToolData>;

type SharpModule = typeof import("sharp");

async function loadSharp(): Promise<SharpModule> {
  try {
    const loaded = (await import("sharp")) as unknown as { default?: SharpModule };
    return loaded.default ?? (loaded as unknown as SharpModule);
  } catch (error) {
    throw new ToolFailureError(
      "DEPENDENCY_MISSING",
      `read_image needs the sharp package, which failed to load (${error instanceof Error ? error.message : String(error)}).`,
      {
        hint: "Install sharp (npm install sharp) for this platform.",
      },
    );
  }
}

function formatOf(bytes: Uint8Array, extension: string): ReadImageToolData["format"] | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 512));
  if (head.startsWith("GIF8")) return "gif";
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP") return "webp";
  if (extension === "svg" || /<svg[\s>]/i.test(head))
    return /<svg[\s>]/i.test(new TextDecoder().decode(bytes.subarray(0, 65_536)))
      ? "svg"
      : undefined;
  return undefined;
}

/** Whether an SVG could reach outside itself (entities, external hrefs, imports) — then it is not rasterised. */
function svgReachesOut(text: string): boolean {
  if (/<!ENTITY|<!DOCTYPE[^>]*\[/i.test(text)) return true;
  const references = text.matchAll(/(?:href|src)\s*=\s*["']\s*([^"'#\s][^"']*)["']/gi);
  for (const reference of references) if (!/^data:/i.test(reference[1] ?? "")) return true;
  return /@import|url\(\s*["']?(?!#|data:)/i.test(text);
}

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Look at an image file in the workspace — a figure, chart, diagram, screenshot or photo (.png .jpg .gif .webp .svg): it comes back as an image you can see, scaled to fit max_edge, with its dimensions.",
    mounted.when("read_document", "For documents (.docx .xlsx .pptx .pdf …) use read_document."),
    mounted.when("read_file", "For an SVG's source text, read_file also works."),
  ]);
}

/**
 * Renders an image for a model: a line with the path, format and dimensions, then the image
 * block (or the SVG's text).
 *
 * @param data - the tool's data
 * @returns text and an image block
 * @example
 * formatReadImage(result.data); // [{ type: "text", text: "chart.png — PNG 3000×2000, shown at 1568×1045" }, { type: "image", … }]
 */
export function formatReadImage(data: ReadImageToolData): ToolContent {
  const size = `${data.format.toUpperCase()} ${data.width}×${data.height}`;
  const shown = data.resized
    ? `, shown at ${data.shown_width}×${data.shown_height} (scaled down to fit)`
    : "";
  const text = [`${data.path} — ${size}${shown}`, ...data.notes].join("\n");
  if (data.shown_as === "svg_text" || data.base64 === undefined)
    return `${text}\n\n${data.svg_text ?? ""}`;
  return [
    { type: "text", text },
    { type: "image", data: data.base64, mimeType: data.mime_type ?? "image/png" },
  ];
}

const optionsSchema = z.object(officeReadOptionsShape).strict();

/**
 * Creates the `read_image` tool: an image file in the workspace as an image content block, scaled
 * to fit `max_edge` (sharp: PNG/JPEG/GIF/WebP decoded, SVG rasterised by librsvg unless it reaches
 * outside itself, then returned as text). Read-only; paths confined, secrets refused.
 *
 * @param options - `root` (or a tools-fs `workspace`), caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const look = createReadImageTool({ root: "/work/docs" });
 * await look.run({ path: "figures/chart.png" });
 */
export function createReadImageTool(options: ReadImageToolOptions): ReadImageTool {
  const { workspace, mounted, maxFileBytes, definition } = prepareOfficeTool(
    "createReadImageTool",
    optionsSchema,
    options,
    {
      kind: "read",
      name: READ_IMAGE_TOOL_NAME,
      title: "Look at an image",
      describe: defaultDescription,
      maxFileBytes: DEFAULT_MAX_IMAGE_FILE_BYTES,
    },
  );
  return defineTool({
    ...definition,
    input: readImageInputSchema,
    aliases: { file_path: "path", file: "path" },
    execute: async (request) => {
      const missingHint =
        mounted.when("glob_search", "Find images with glob_search, e.g. **/*.png.") ||
        "Check the path (relative to the workspace root).";
      const file = await readDocumentFile(workspace, request.path, { maxFileBytes, missingHint });
      const format = formatOf(file.bytes, extensionOf(request.path));
      if (format === undefined) {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${file.resolved.display} is not a PNG, JPEG, GIF, WebP or SVG image.`,
          {
            hint:
              mounted.when("read_document", "For documents use read_document.") ||
              "Give an image file.",
          },
        );
      }
      const maxEdge = request.max_edge ?? DEFAULT_MAX_EDGE;
      const notes: string[] = [];
      const base = { path: file.resolved.display, format, notes };
      if (format === "svg") {
        const text = new TextDecoder().decode(file.bytes);
        if (svgReachesOut(text)) {
          notes.push(
            "Returned as SVG text, not rasterised: it declares entities or references outside files.",
          );
          return ok({
            ...base,
            width: 0,
            height: 0,
            shown_width: 0,
            shown_height: 0,
            resized: false,
            shown_as: "svg_text" as const,
            svg_text: text.slice(0, 100_000),
          });
        }
        notes.push("SVG rasterised to PNG.");
      }
      const sharp = await loadSharp();
      const input = () => sharp(file.bytes, { limitInputPixels: 268_402_689, failOn: "error" });
      let metadata: Awaited<ReturnType<ReturnType<SharpModule>["metadata"]>>;
      try {
        metadata = await input().metadata();
      } catch (error) {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${file.resolved.display} could not be decoded (${error instanceof Error ? error.message : String(error)}).`,
          { hint: "The image may be damaged or truncated." },
        );
      }
      const width = metadata.width ?? 0;
      const height = metadata.height ?? 0;
      if ((metadata.pages ?? 1) > 1)
        notes.push(`Animated: the first of ${metadata.pages} frames is shown.`);
      const resized = Math.max(width, height) > maxEdge;
      let bytes: Uint8Array = file.bytes;
      let mime = `image/${format}`;
      let pipeline = input();
      if (resized)
        pipeline = pipeline.resize({
          width: maxEdge,
          height: maxEdge,
          fit: "inside",
          withoutEnlargement: true,
        });
      if (
        resized ||
        format === "svg" ||
        format === "gif" ||
        bytes.length > MAX_IMAGE_OUTPUT_BYTES
      ) {
        const keepJpeg =
          format === "jpeg" || (bytes.length > MAX_IMAGE_OUTPUT_BYTES && !metadata.hasAlpha);
        const encoded = keepJpeg
          ? pipeline.jpeg({ quality: 85 })
          : format === "webp"
            ? pipeline.webp({ quality: 85 })
            : pipeline.png();
        const output = await encoded.toBuffer({ resolveWithObject: true });
        bytes = new Uint8Array(output.data);
        mime = `image/${output.info.format === "jpeg" ? "jpeg" : output.info.format}`;
        if (bytes.length > MAX_IMAGE_OUTPUT_BYTES) {
          throw new ToolFailureError(
            "TOO_LARGE",
            `${file.resolved.display} is ${bytes.length} bytes even at ${maxEdge} px.`,
            { hint: "Call again with a smaller max_edge." },
          );
        }
        const shown = { shown_width: output.info.width, shown_height: output.info.height };
        return ok({
          ...base,
          width,
          height,
          ...shown,
          resized,
          shown_as: "image" as const,
          mime_type: mime,
          base64: Buffer.from(bytes).toString("base64"),
        });
      }
      return ok({
        ...base,
        width,
        height,
        shown_width: width,
        shown_height: height,
        resized,
        shown_as: "image" as const,
        mime_type: mime,
        base64: Buffer.from(bytes).toString("base64"),
      });
    },
    render: formatReadImage,
  });
}
