import {
  AgentoolError,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  type ToolOptions,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import { isWorkspace } from "../internal/tool-support.js";
import { createWorkspace, type Workspace } from "../workspace.js";
import { createNodeFileSystem } from "./node-file-system.js";

/**
 * The zod shape of {@link WorkspaceOptionsInput}: the contract's `toolOptionsShape` (name,
 * description, mounted tools, timeout) plus a `root` or a ready `workspace`, the secret-path
 * globs and a `maxFileBytes` cap (1,000 to 1,000,000,000). Spread it into a factory's strict
 * options schema; override `maxFileBytes` for another range.
 *
 * @example
 * const optionsSchema = z.object({ ...workspaceOptionsShape, maxMatches: z.number().optional() }).strict();
 * const parsed = parseOptions("createMyTool", optionsSchema, options);
 * const workspace = workspaceFromOptions("createMyTool", parsed);
 */
export const workspaceOptionsShape = {
  ...toolOptionsShape,
  root: z.string().min(1).optional().describe("The directory every path is confined to."),
  workspace: z
    .custom<Workspace>(isWorkspace, {
      error: "expected a workspace made by createWorkspace({ fileSystem }) from @agentool/tools-fs",
    })
    .optional()
    .describe("A ready tools-fs workspace (instead of root)."),
  secretPaths: z.array(z.string().min(1)).readonly().optional(),
  secretExceptions: z.array(z.string().min(1)).readonly().optional(),
  maxFileBytes: z.number().int().min(1_000).max(1_000_000_000).optional(),
};

/**
 * The options of a tool factory that works on files below a root: a `root` directory (a Node
 * workspace is made over it) or a ready `workspace` shared with other tools, the secret-path
 * globs, the largest file read, and the contract's overrides. The type of
 * {@link workspaceOptionsShape}; families extend it (and document their own defaults).
 */
export interface WorkspaceOptionsInput extends ToolOptions {
  /** The directory every path is confined to (on its real path). Give this or `workspace`. */
  root?: string;
  /** A workspace from `@agentool/tools-fs`'s `createWorkspace` (shared with the file tools), instead of `root`. */
  workspace?: Workspace;
  /** Secret-path globs (with `root`): never read or written. Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (with `root`). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** Largest file read, in bytes. Default: the tool's own. */
  maxFileBytes?: number;
}

/**
 * The workspace of a factory's options: the `workspace` given, or a Node workspace over `root`
 * (real-path confinement, atomic writes) with the secret-path globs given or the contract's
 * defaults.
 *
 * @param factory - the factory's name, for the error (`createCodeOutlineTool`)
 * @param options - the parsed options
 * @returns the workspace
 * @throws AgentoolError when neither `root` nor `workspace` is given
 * @example
 * const workspace = workspaceFromOptions("createReadDocumentTool", { root: "/work/docs" });
 * const resolved = await workspace.resolve("report.docx");
 */
export function workspaceFromOptions(
  factory: string,
  options: Pick<WorkspaceOptionsInput, "root" | "workspace" | "secretPaths" | "secretExceptions">,
): Workspace {
  if (options.workspace !== undefined) return options.workspace;
  if (options.root === undefined) {
    throw new AgentoolError(
      `${factory}: give root (the directory to confine the tools to) or workspace (from createWorkspace of @agentool/tools-fs).`,
    );
  }
  return createWorkspace({
    fileSystem: createNodeFileSystem({ root: options.root }),
    secretPaths: options.secretPaths ?? DEFAULT_SECRET_PATHS,
    secretExceptions: options.secretExceptions ?? DEFAULT_SECRET_EXCEPTIONS,
  });
}
