import type { AnyTool } from "@agentool/contract";
import { AgentoolError } from "@agentool/contract";
import { createFsTools, type FsToolsOptions } from "../create-fs-tools.js";
import type { Workspace } from "../workspace.js";
import { createNodeFileSystem } from "./node-file-system.js";
import { createRipgrepLister, createRipgrepSearcher } from "./ripgrep/index.js";

/** Options of {@link createNodeFsTools}: those of `createFsTools`, with a `root` directory instead of a seam. */
export interface NodeFsToolsOptions
  extends Omit<FsToolsOptions, "fileSystem" | "searcher" | "lister"> {
  /** The directory every path is confined to (on its real path); ripgrep searches it. */
  root: string;
  /**
   * A workspace over the same root (`workspaceFromOptions` or `createWorkspace` with
   * `createNodeFileSystem({ root })`) to share with other families' tools — tools-code and
   * tools-office take it too — so they confine alike and one file's writes wait for each other.
   * Default: a workspace of these tools' own.
   */
  workspace?: Workspace;
}

/**
 * Creates the file tools over a directory on disk: the Node seam (real-path confinement, atomic
 * writes) and ripgrep for `grep_search` / `glob_search`. Read-only by default.
 *
 * @param options - `root`, `mode` and every option of `createFsTools`
 * @returns the tools
 * @throws AgentoolError when the root is missing or an option is invalid
 * @example
 * const tools = createNodeFsTools({ root: process.cwd(), mode: "read-write" });
 * const toolNode = new ToolNode(toLangChainTools(tools));
 */
export function createNodeFsTools(options: NodeFsToolsOptions): AnyTool[] {
  if (typeof options !== "object" || options === null || typeof options.root !== "string") {
    throw new AgentoolError(
      "createNodeFsTools: `root` (the directory to confine the tools to) is required.",
    );
  }
  const { root, ...rest } = options;
  return createFsTools({
    ...rest,
    ...(options.workspace === undefined ? { fileSystem: createNodeFileSystem({ root }) } : {}),
    searcher: createRipgrepSearcher({ root }),
    lister: createRipgrepLister({ root }),
  });
}
