import {
  defineTool,
  formatCount,
  formatCountOf,
  isOffsetPastEnd,
  type NextCallValue,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import type { GetFileNodesResponse, GetFileResponse, Node } from "@figma/rest-api-spec";
import { z } from "zod";
import {
  type FigmaToolOptions,
  figmaClientFromOptions,
  figmaOptionsShape,
  fileReferenceShape,
} from "./internal/figma/figma-options.js";
import { readFigmaReference } from "./internal/figma/figma-reference.js";
import { simplifyFigmaNode } from "./internal/figma/figma-spec.js";
import { formatLayerPage, layerPage } from "./internal/layer-page.js";
import type { DesignLayer, SpecTokens } from "./internal/layer-spec.js";

/** The default name of the Figma reader. */
export const DESIGN_READ_TOOL_NAME = "design_read";

/** Default layers per page. */
export const DEFAULT_DESIGN_LAYER_LIMIT = 300;

/** Largest `limit` accepted. */
export const MAX_DESIGN_LAYER_LIMIT = 3_000;

/** Options of {@link createDesignReadTool}. */
export type DesignReadToolOptions = FigmaToolOptions;

/** What `design_read` returns: a Figma page, frame or node as a layout spec, one page of layers. */
export interface DesignReadToolData {
  /** The file key. */
  file_key: string;
  /** The file's name. */
  file_name: string;
  /** The file's version (changes when the file changes). */
  version: string;
  /** The node read, when one was asked for; absent for the file overview. */
  node_id?: string;
  /** The layers of this page, in drawing order; `depth` gives the nesting. */
  layers: DesignLayer[];
  /** The colours, text styles and effects this page's layers name (named after the file's styles when they come from one). */
  tokens: SpecTokens;
  /** Layers in all. */
  total: number;
  /** The `offset` of the next page, when there is one. */
  next_offset?: number;
  /** Whether layers after this page were left out. */
  truncated: boolean;
  /** The call's arguments besides `offset`, on a cut page: what the next-page marker repeats. */
  call_arguments?: Record<string, NextCallValue>;
  /** Facts about the reading (hidden layers left out, layers below `depth`). */
  notes: string[];
}

/** A node as Figma answers it (the file's document, or one entry of /nodes), with the file's styles and components. */
type FigmaNodeAnswer = Pick<GetFileResponse, "styles" | "components" | "componentSets"> & {
  document: Node;
};

const designReadOptionsSchema = z.object(figmaOptionsShape).strict();

/** The Figma reader's input schema. */
export const designReadInputSchema = z.object({
  ...fileReferenceShape,
  node_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "The frame or node to read, 1:23 (or 1-23 as in a link). Without it: the file's pages and top-level frames.",
    ),
  depth: z
    .number()
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe(
      "Levels below the node to list (default: all for a node; 1 for the file overview: pages and their frames).",
    ),
  ...pagingInputShape({
    unit: "layer",
    defaultLimit: DEFAULT_DESIGN_LAYER_LIMIT,
    maxLimit: MAX_DESIGN_LAYER_LIMIT,
  }),
});

/** The Figma reader's type. */
export type DesignReadTool = Tool<typeof designReadInputSchema, DesignReadToolData>;

/**
 * Renders `design_read`'s result: one line per layer (indented by depth), then the tokens.
 *
 * @param data - the tool's data
 * @param tool - the tool's name, for the next-page marker
 * @returns the text the model reads
 * @example
 * formatDesignRead(data); // 'Figma "Shop" (key) node 1:2: 42 layers\nframe "Card" #1:2 @0,0 320×200 column gap=8 …'
 */
export function formatDesignRead(data: DesignReadToolData, tool = DESIGN_READ_TOOL_NAME): string {
  const what = data.node_id === undefined ? "pages and top-level frames" : `node ${data.node_id}`;
  return formatLayerPage(data, {
    before: `Figma ${JSON.stringify(data.file_name)} (${data.file_key}, version ${data.version}) ${what}:`,
    after: "(x,y relative to the node read; sizes px)",
    empty: "No visible layers: everything here is hidden.",
    tool,
    args: { file_key: data.file_key },
  });
}

function defaultDescription(): string {
  return [
    "Reads a Figma file as a compact layout spec to build it in code: each layer's role (frame, text, instance, vector…), position and size, auto-layout (direction, gap, padding, alignment), fills, strokes and effects as named tokens, text with its style, component names and variant values.",
    "Without node_id it lists the pages and top-level frames; then read one frame by its node_id (or pass its Figma link as url).",
  ].join(" ");
}

/**
 * Creates `design_read`: a Figma file, page or frame as a layout spec, over the REST API with
 * the host's token.
 *
 * @param options - the host's Figma token, transport and limits, name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const designRead = createDesignReadTool({ figmaToken: process.env.FIGMA_TOKEN ?? "" });
 * await designRead.run({ url: "https://www.figma.com/design/AbCdEf1234567890/Shop?node-id=1-2" });
 */
export function createDesignReadTool(options: DesignReadToolOptions): DesignReadTool {
  const parsed = parseOptions("createDesignReadTool", designReadOptionsSchema, options);
  const { client } = figmaClientFromOptions("createDesignReadTool", parsed);
  const name = parsed.name ?? DESIGN_READ_TOOL_NAME;
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(),
    input: designReadInputSchema,
    timeoutMs: parsed.timeoutMs ?? 120_000,
    annotations: {
      title: "Read a Figma design",
      readOnly: true,
      idempotent: true,
      openWorld: true,
    },
    tags: ["design", "design:read", "network"],
    execute: async (request, context) => {
      const reference = readFigmaReference(request);
      const key = reference.file_key;
      let file: { name: string; version: string };
      let read: FigmaNodeAnswer;
      let maxDepth = request.depth;
      const notes: string[] = [];
      if (reference.node_id !== undefined) {
        const id = reference.node_id;
        // With depth, Figma sends one level more than listed (to count what is left out), not
        // the whole subtree: what keeps a large page under the response cap.
        const levels = request.depth === undefined ? "" : `&depth=${request.depth + 1}`;
        const answer = await client.getJson<GetFileNodesResponse>(
          `/v1/files/${key}/nodes?ids=${encodeURIComponent(id)}${levels}`,
          `file ${key}`,
          context.signal,
        );
        const entry = answer.nodes[id];
        if (entry === undefined || entry === null) {
          throw new ToolFailureError("FILE_NOT_FOUND", `File ${key} has no node ${id}.`, {
            hint: `Call ${name} without node_id to list the pages and frames and their ids.`,
          });
        }
        file = answer;
        read = entry;
      } else {
        const depth = request.depth ?? 1;
        maxDepth = depth;
        const answer = await client.getJson<GetFileResponse>(
          `/v1/files/${key}?depth=${depth + 1}`,
          `file ${key}`,
          context.signal,
        );
        file = answer;
        read = answer;
        notes.push(
          `the file overview lists ${depth + 1} level${depth === 0 ? "" : "s"} (pages first); read a frame with node_id for all of it`,
        );
      }
      const spec = simplifyFigmaNode({
        root: read.document,
        styles: read.styles,
        components: read.components,
        componentSets: read.componentSets,
        ...(maxDepth === undefined ? {} : { maxDepth }),
      });
      if (spec.hidden > 0)
        notes.push(`${formatCountOf(spec.hidden, "hidden layer")} left out with their contents`);
      if (spec.below_depth > 0)
        notes.push(
          `at least ${formatCount(spec.below_depth)} layers deeper than depth=${request.depth} left out`,
        );
      const offset = request.offset ?? 1;
      if (isOffsetPastEnd(offset, spec.layers.length)) {
        return offsetPastEnd({ tool: name, offset, total: spec.layers.length, unit: "layers" });
      }
      return ok({
        file_key: key,
        file_name: file.name,
        version: file.version,
        ...(reference.node_id === undefined ? {} : { node_id: reference.node_id }),
        ...layerPage(spec, request, DEFAULT_DESIGN_LAYER_LIMIT),
        notes,
      });
    },
    render: (data) => formatDesignRead(data, name),
  });
}
