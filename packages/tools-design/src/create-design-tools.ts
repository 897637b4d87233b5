import { type AnyTool, parseOptions } from "@agentool/contract";
import {
  type WorkspaceOptionsInput,
  workspaceFromOptions,
  workspaceOptionsShape,
} from "@agentool/tools-fs/node";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { z } from "zod";
import { createDesignExportTool } from "./design-export.js";
import { createDesignReadTool } from "./design-read.js";
import { createDesignTokensTool } from "./design-tokens.js";
import { type FigmaToolOptions, figmaOptionsShape } from "./internal/figma/figma-options.js";
import { createSvgReadTool } from "./svg-read.js";

/** Options of {@link createDesignTools}. */
export interface DesignToolsOptions
  extends WorkspaceOptionsInput,
    Partial<Omit<FigmaToolOptions, keyof WorkspaceOptionsInput>> {
  /** The host's Figma token. Without it only `svg_read` is mounted. */
  figmaToken?: string;
}

/** The tools mounted without a Figma token. */
export const DESIGN_OFFLINE_TOOL_NAMES: readonly string[] = ["svg_read"];

/** The tools a Figma token adds. */
export const DESIGN_FIGMA_TOOL_NAMES: readonly string[] = [
  "design_read",
  "design_tokens",
  "design_export",
];

const { name: _name, description: _description, ...workspaceShape } = workspaceOptionsShape;
const {
  name: _figmaName,
  description: _figmaDescription,
  figmaToken: _token,
  ...figmaShape
} = figmaOptionsShape;

const designToolsOptionsSchema = z
  .object({ ...workspaceShape, ...figmaShape, figmaToken: z.string().min(1).optional() })
  .strict();

/**
 * Creates the design tools for one workspace: `svg_read` always; with the host's `figmaToken`,
 * `design_read`, `design_tokens` and `design_export` too (one transport shared by them).
 *
 * @param options - the root (or workspace), the Figma token and limits
 * @returns the tools, ready for an adapter
 * @throws AgentoolError when the options are invalid
 * @example
 * import { toLangChainTools } from "@agentool/adapters/langchain";
 * const tools = toLangChainTools(createDesignTools({ root: "/work/app", figmaToken: process.env.FIGMA_TOKEN }));
 */
export function createDesignTools(options: DesignToolsOptions): AnyTool[] {
  const parsed = parseOptions("createDesignTools", designToolsOptionsSchema, options);
  const workspace = workspaceFromOptions("createDesignTools", parsed);
  const figmaToken = parsed.figmaToken;
  const names = [
    ...DESIGN_OFFLINE_TOOL_NAMES,
    ...(figmaToken === undefined ? [] : DESIGN_FIGMA_TOOL_NAMES),
  ];
  const mountedTools = [...(parsed.mountedTools ?? []), ...names];
  const { root: _root, secretPaths: _secrets, secretExceptions: _exceptions, ...rest } = parsed;
  const tools: AnyTool[] = [
    createSvgReadTool({
      workspace,
      mountedTools,
      ...(rest.timeoutMs === undefined ? {} : { timeoutMs: rest.timeoutMs }),
      ...(rest.maxFileBytes === undefined ? {} : { maxFileBytes: rest.maxFileBytes }),
    }),
  ];
  if (figmaToken !== undefined) {
    const { maxFileBytes: _maxFileBytes, workspace: _workspace, ...figma } = rest;
    const shared = {
      ...figma,
      figmaToken,
      mountedTools,
      transport: figma.transport ?? createGuardedTransport(),
    };
    tools.push(
      createDesignReadTool(shared),
      createDesignTokensTool(shared),
      createDesignExportTool({ ...shared, workspace }),
    );
  }
  return tools;
}
