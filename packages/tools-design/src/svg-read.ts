import {
  defineTool,
  isOffsetPastEnd,
  type NextCallValue,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import type { Workspace } from "@agentool/tools-fs";
import {
  readWorkspaceFile,
  type WorkspaceOptionsInput,
  workspaceFromOptions,
  workspaceOptionsShape,
} from "@agentool/tools-fs/node";
import { z } from "zod";
import { formatLayerPage, layerPage } from "./internal/layer-page.js";
import type { DesignLayer, SpecTokens } from "./internal/layer-spec.js";
import { readSvgSpec } from "./internal/svg/svg-spec.js";

/** The default name of the SVG reader. */
export const SVG_READ_TOOL_NAME = "svg_read";

/** Default largest SVG file read: 20 MB. */
export const DEFAULT_MAX_SVG_BYTES = 20_000_000;

/** Default most elements read from one SVG. */
export const DEFAULT_MAX_SVG_ELEMENTS = 200_000;

/** Default deepest element nesting read. */
export const DEFAULT_MAX_SVG_DEPTH = 256;

/** Default layers per page. */
export const DEFAULT_SVG_LAYER_LIMIT = 400;

/** Largest `limit` accepted. */
export const MAX_SVG_LAYER_LIMIT = 4_000;

/** Options of {@link createSvgReadTool}. */
export interface SvgReadToolOptions extends WorkspaceOptionsInput {
  /** Largest SVG file read, in bytes. Default {@link DEFAULT_MAX_SVG_BYTES} (20 MB). */
  maxFileBytes?: number;
  /** Most elements read from one file (more is `TOO_LARGE`). Default {@link DEFAULT_MAX_SVG_ELEMENTS}. */
  maxElements?: number;
  /** Deepest nesting read (deeper is `TOO_LARGE`). Default {@link DEFAULT_MAX_SVG_DEPTH}. */
  maxDepth?: number;
}

/** What `svg_read` returns: the SVG as a layout spec, one page of its layers. */
export interface SvgReadToolData {
  /** The file, relative to the root. */
  path: string;
  /** The root's `width` (px or unitless), when given. */
  width?: number;
  /** The root's `height`, when given. */
  height?: number;
  /** The root's `viewBox` (min-x, min-y, width, height); layer positions are in these units. */
  view_box?: [number, number, number, number];
  /** The layers of this page, in drawing order; `depth` gives the nesting. */
  layers: DesignLayer[];
  /** The colours and text styles this page's layers name. */
  tokens: SpecTokens;
  /** Layers in all. */
  total: number;
  /** The `offset` of the next page, when there is one. */
  next_offset?: number;
  /** Whether layers after this page were left out. */
  truncated: boolean;
  /** The call's arguments besides `offset`, on a cut page: what the next-page marker repeats. */
  call_arguments?: Record<string, NextCallValue>;
  /** Facts about the reading (definitions skipped, hidden layers, style sheets not applied). */
  notes: string[];
}

const svgReadOptionsSchema = z
  .object({
    ...workspaceOptionsShape,
    maxFileBytes: z.number().int().min(1_000).max(500_000_000).optional(),
    maxElements: z.number().int().min(10).max(10_000_000).optional(),
    maxDepth: z.number().int().min(4).max(2_000).optional(),
  })
  .strict();

/** The SVG reader's input schema. */
export const svgReadInputSchema = z.object({
  path: z.string().min(1).describe("The .svg file, relative to the workspace root."),
  ...pagingInputShape({
    unit: "layer",
    defaultLimit: DEFAULT_SVG_LAYER_LIMIT,
    maxLimit: MAX_SVG_LAYER_LIMIT,
  }),
});

/** The SVG reader's type. */
export type SvgReadTool = Tool<typeof svgReadInputSchema, SvgReadToolData>;

/**
 * Renders `svg_read`'s result: the size, one line per layer (indented by depth), the tokens.
 *
 * @param data - the tool's data
 * @param tool - the tool's name, for the next-page marker
 * @returns the text the model reads
 * @example
 * formatSvgRead(data); // "icons/ok.svg: 16×16, viewBox 0 0 16 16, 2 layers\npath #1 @1,2 14×12 fill=c1 …"
 */
export function formatSvgRead(data: SvgReadToolData, tool = SVG_READ_TOOL_NAME): string {
  const size =
    data.width !== undefined && data.height !== undefined
      ? `${data.width}×${data.height}`
      : "no size";
  const viewBox = data.view_box === undefined ? "" : `, viewBox ${data.view_box.join(" ")}`;
  return formatLayerPage(data, {
    before: `${data.path}: ${size}${viewBox},`,
    after: "(positions in viewBox units)",
    empty: "No drawable layers: the SVG holds only definitions, hidden or empty groups.",
    tool,
    args: { path: data.path },
  });
}

function defaultDescription(): string {
  return [
    "Reads a local SVG file as a compact layout spec: groups and shapes (rect, circle, ellipse, path, line, polygon, text, image) with their position and size after transforms, fills and strokes as colour tokens (c1, c2…), text with its font, size and colour.",
    "Use it to rebuild an exported design or icon in code. Nothing is rendered or fetched; files declaring DTD entities are refused.",
  ].join(" ");
}

/**
 * Creates `svg_read`: a workspace SVG read as a layout spec, paged over its layers.
 *
 * @param options - the root (or a tools-fs workspace), caps, name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const svgRead = createSvgReadTool({ root: "/work/design" });
 * const result = await svgRead.run({ path: "export/card.svg" });
 */
export function createSvgReadTool(options: SvgReadToolOptions): SvgReadTool {
  const parsed = parseOptions("createSvgReadTool", svgReadOptionsSchema, options);
  const workspace: Workspace = workspaceFromOptions("createSvgReadTool", parsed);
  const name = parsed.name ?? SVG_READ_TOOL_NAME;
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_MAX_SVG_BYTES;
  const limits = {
    maxElements: parsed.maxElements ?? DEFAULT_MAX_SVG_ELEMENTS,
    maxDepth: parsed.maxDepth ?? DEFAULT_MAX_SVG_DEPTH,
  };
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(),
    input: svgReadInputSchema,
    timeoutMs: parsed.timeoutMs ?? 30_000,
    annotations: { title: "Read an SVG as a layout spec", readOnly: true, idempotent: true },
    tags: ["design", "design:read", "fs:read"],
    execute: async (request, context) => {
      const file = await readWorkspaceFile(workspace, request.path, {
        maxFileBytes,
        missingHint: "Check the path; list the folder to find the .svg file.",
        tooLarge: {
          reader: "svg_read reads",
          hint: "Export a smaller part of the design (one frame or icon).",
        },
      });
      const text = new TextDecoder("utf-8").decode(file.bytes);
      const spec = await readSvgSpec(text, { ...limits, signal: context.signal });
      const offset = request.offset ?? 1;
      if (isOffsetPastEnd(offset, spec.layers.length)) {
        return offsetPastEnd({ tool: name, offset, total: spec.layers.length, unit: "layers" });
      }
      return ok({
        path: file.resolved.display,
        ...(spec.width === undefined ? {} : { width: spec.width }),
        ...(spec.height === undefined ? {} : { height: spec.height }),
        ...(spec.view_box === undefined ? {} : { view_box: spec.view_box }),
        ...layerPage(spec, request, DEFAULT_SVG_LAYER_LIMIT),
        notes: spec.notes,
      });
    },
    render: (data) => formatSvgRead(data, name),
  });
}
