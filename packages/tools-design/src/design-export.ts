import {
  type ContentBlock,
  defineTool,
  formatCount,
  ok,
  parseOptions,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import type { Workspace } from "@agentool/tools-fs";
import {
  type WorkspaceOptionsInput,
  workspaceFromOptions,
  workspaceOptionsShape,
} from "@agentool/tools-fs/node";
import type { HttpTransport } from "@agentool/tools-web";
import type { GetImagesResponse } from "@figma/rest-api-spec";
import { z } from "zod";
import { requestError } from "./internal/figma/figma-client.js";
import {
  DEFAULT_FIGMA_REQUEST_TIMEOUT_MS,
  type FigmaToolOptions,
  figmaClientFromOptions,
  figmaOptionsShape,
  fileReferenceShape,
} from "./internal/figma/figma-options.js";
import { normalizeNodeId, readFigmaReference } from "./internal/figma/figma-reference.js";

/** The default name of the Figma exporter. */
export const DESIGN_EXPORT_TOOL_NAME = "design_export";

/** Default folder the images are saved in. */
export const DEFAULT_EXPORT_DIRECTORY = "design-exports";

/** Most nodes exported in one call. */
export const MAX_EXPORT_NODES = 20;

/** Default largest image downloaded: 32 MB. */
export const DEFAULT_MAX_IMAGE_BYTES = 32_000_000;

/** Most PNGs shown to the model as image blocks in one result (all are saved). */
export const MAX_SHOWN_IMAGES = 4;

/** Options of {@link createDesignExportTool}. */
export interface DesignExportToolOptions
  extends FigmaToolOptions,
    Omit<WorkspaceOptionsInput, keyof FigmaToolOptions> {
  /** Largest rendered image downloaded, in bytes. Default {@link DEFAULT_MAX_IMAGE_BYTES}. */
  maxImageBytes?: number;
}

/** One saved image. */
export interface ExportedImage {
  /** The node rendered. */
  node_id: string;
  /** Where it was saved, relative to the root. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
}

/** What `design_export` returns. */
export interface DesignExportToolData {
  /** The file key. */
  file_key: string;
  /** `png` or `svg`. */
  format: "png" | "svg";
  /** The scale rendered at. */
  scale: number;
  /** The images saved, in the order asked. */
  files: ExportedImage[];
  /** Nodes Figma rendered nothing for (invisible, empty or unknown). */
  missing: string[];
  /** The PNGs shown to the model (at most {@link MAX_SHOWN_IMAGES}), base64. */
  images: Array<{ node_id: string; mime_type: string; base64: string }>;
}

const designExportOptionsSchema = z
  .object({
    ...workspaceOptionsShape,
    ...figmaOptionsShape,
    maxImageBytes: z.number().int().min(1_000).max(500_000_000).optional(),
  })
  .strict();

/** The exporter's input schema. */
export const designExportInputSchema = z.object({
  ...fileReferenceShape,
  node_ids: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(MAX_EXPORT_NODES)
    .describe(`The frames or nodes to render, 1:23 each (at most ${MAX_EXPORT_NODES}).`),
  format: z.enum(["png", "svg"]).describe("png (shown to you as images too) or svg."),
  scale: z.number().min(0.01).max(4).optional().describe("Render scale (default 1; 2 for retina)."),
  directory: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe(`Workspace folder to save into (default ${DEFAULT_EXPORT_DIRECTORY}).`),
});

/** The exporter's type. */
export type DesignExportTool = Tool<typeof designExportInputSchema, DesignExportToolData>;

/**
 * Renders `design_export`'s result: the saved paths, then the PNGs as image blocks.
 *
 * @param data - the tool's data
 * @returns text, or text and image blocks
 */
export function formatDesignExport(data: DesignExportToolData): string | ContentBlock[] {
  const lines = [
    `Saved ${formatCount(data.files.length)} ${data.format.toUpperCase()} ${data.files.length === 1 ? "image" : "images"} from Figma file ${data.file_key} at scale ${data.scale}:`,
    ...data.files.map(
      (file) => `  ${file.node_id} → ${file.path} (${formatCount(file.bytes)} bytes)`,
    ),
  ];
  if (data.missing.length > 0)
    lines.push(
      `Figma rendered nothing for ${data.missing.join(", ")} (hidden, empty or not in the file).`,
    );
  if (data.files.length > data.images.length && data.format === "png") {
    lines.push(`Shown below: the first ${data.images.length}; read the others from their paths.`);
  }
  if (data.images.length === 0) return lines.join("\n");
  return [
    { type: "text", text: lines.join("\n") },
    ...data.images.map(
      (image): ContentBlock => ({ type: "image", data: image.base64, mimeType: image.mime_type }),
    ),
  ];
}

function checkImageUrl(raw: string, apiOrigin: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolFailureError(
      "NETWORK_ERROR",
      "Figma returned an image address that is not a URL.",
      { retryable: false },
    );
  }
  if (url.protocol !== "https:" && url.origin !== apiOrigin) {
    throw new ToolFailureError(
      "BLOCKED",
      `Refused to download a rendered image over ${url.protocol} from ${url.host}: only https (or the API's own origin) is fetched.`,
      {
        hint: "Ask the host to check baseUrl: the API answered with an unexpected image address.",
      },
    );
  }
  return url;
}

async function download(
  transport: HttpTransport,
  url: URL,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array> {
  let response: Awaited<ReturnType<HttpTransport>>;
  try {
    // No token: rendered images are served from signed URLs that need none.
    response = await transport({
      url: url.href,
      headers: { accept: "image/png,image/svg+xml,*/*" },
      signal: AbortSignal.any([signal, AbortSignal.timeout(DEFAULT_FIGMA_REQUEST_TIMEOUT_MS)]),
      maxBytes,
    });
  } catch (error) {
    throw requestError(error, signal, "a rendered image", DEFAULT_FIGMA_REQUEST_TIMEOUT_MS);
  }
  if (response.status !== 200) {
    throw new ToolFailureError(
      "NETWORK_ERROR",
      `Downloading a rendered image answered HTTP ${response.status}.`,
      {
        hint: "The image links expire after a while; call again to render them anew.",
        retryable: response.status >= 500 || response.status === 429,
      },
    );
  }
  if (response.truncated) {
    throw new ToolFailureError("TOO_LARGE", `A rendered image is larger than ${maxBytes} bytes.`, {
      hint: "Export at a smaller scale.",
    });
  }
  return response.body;
}

async function save(workspace: Workspace, path: string, bytes: Uint8Array): Promise<string> {
  const resolved = await workspace.resolve(path, { allowRoot: false, argument: "directory" });
  if (
    [resolved.path, resolved.real].some((value) =>
      value.split("/").some((segment) => segment.toLowerCase() === ".git"),
    )
  ) {
    throw new ToolFailureError(
      "BLOCKED",
      `${resolved.display} is inside .git; design_export never writes there.`,
      { hint: "Choose another directory." },
    );
  }
  await workspace.withLock(resolved.real, () =>
    workspace.fileSystem.writeFile(resolved.real, bytes),
  );
  return resolved.display;
}

/**
 * Creates `design_export`: Figma renders the nodes (GET /v1/images), the images are downloaded
 * from the addresses Figma returned (https only, through the SSRF-guarded transport, without the
 * token) and saved atomically into the workspace; PNGs are also shown as image blocks.
 *
 * @param options - the root (or workspace), the host's Figma token, transport and limits
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const exporter = createDesignExportTool({ root: "/work/app", figmaToken: process.env.FIGMA_TOKEN ?? "" });
 * await exporter.run({ file_key: "AbCdEf1234567890", node_ids: ["1:2"], format: "png", scale: 2 });
 */
export function createDesignExportTool(options: DesignExportToolOptions): DesignExportTool {
  const parsed = parseOptions("createDesignExportTool", designExportOptionsSchema, options);
  const workspace = workspaceFromOptions("createDesignExportTool", parsed);
  const { client, transport } = figmaClientFromOptions("createDesignExportTool", parsed);
  const maxImageBytes = parsed.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  return defineTool({
    name: parsed.name ?? DESIGN_EXPORT_TOOL_NAME,
    description:
      parsed.description ??
      "Renders Figma frames or nodes to PNG or SVG and saves them into the workspace (PNGs are also shown to you): use it for images, icons and illustrations a layout needs, or to see a frame you are rebuilding. Get node ids from design_read.",
    input: designExportInputSchema,
    timeoutMs: parsed.timeoutMs ?? 180_000,
    annotations: {
      title: "Export Figma images",
      readOnly: false,
      destructive: false,
      idempotent: true,
      openWorld: true,
    },
    tags: ["design", "design:export", "network", "fs:write"],
    execute: async (request, context) => {
      const reference = readFigmaReference(request);
      const ids = [...new Set(request.node_ids.map(normalizeNodeId))];
      const scale = request.scale ?? 1;
      const key = reference.file_key;
      const answer = await client.getJson<GetImagesResponse>(
        `/v1/images/${key}?ids=${encodeURIComponent(ids.join(","))}&format=${request.format}&scale=${scale}`,
        `images of file ${key}`,
        context.signal,
      );
      const files: ExportedImage[] = [];
      const missing: string[] = [];
      const images: DesignExportToolData["images"] = [];
      const directory = (request.directory ?? DEFAULT_EXPORT_DIRECTORY).replace(/\/+$/, "");
      for (const [index, id] of ids.entries()) {
        const address = answer.images?.[id];
        if (address === undefined || address === null) {
          missing.push(id);
          continue;
        }
        context.progress?.({ message: `downloading ${id}`, completed: index, total: ids.length });
        const bytes = await download(
          transport,
          checkImageUrl(address, client.origin),
          maxImageBytes,
          context.signal,
        );
        const path = await save(
          workspace,
          `${directory}/${key}_${id.replace(/[^0-9A-Za-z]+/g, "-")}.${request.format}`,
          bytes,
        );
        files.push({ node_id: id, path, bytes: bytes.byteLength });
        if (
          request.format === "png" &&
          images.length < MAX_SHOWN_IMAGES &&
          bytes.byteLength <= 3_500_000
        ) {
          images.push({
            node_id: id,
            mime_type: "image/png",
            base64: Buffer.from(bytes).toString("base64"),
          });
        }
      }
      return ok({ file_key: key, format: request.format, scale, files, missing, images });
    },
    render: formatDesignExport,
  });
}
