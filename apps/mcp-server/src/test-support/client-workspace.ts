import { type Node22Toolbox, node22Toolbox } from "../clients/node22.js";
import { requireBuiltCli, temporaryDirectory } from "./spawn-server.js";

/** What a real-client test runs with: the Node 22 toolbox, a workspace and the server's flags. */
export interface ClientWorkspace {
  /** The Node 22 toolbox with the clients installed. */
  toolbox: Node22Toolbox;
  /** The temporary workspace (clean it up after the tests). */
  workspace: ReturnType<typeof temporaryDirectory>;
  /** The flags `agentool-mcp` is started with. */
  serverArgs: string[];
}

/**
 * Prepares a real-client test: checks the bin is built, writes the workspace's files, and
 * installs (or reuses) the Node 22 toolbox.
 *
 * @param files - the workspace's files, path → content
 * @param serverArgs - the server's flags, given the workspace's path
 * @returns the toolbox, the workspace and the flags
 */
export async function prepareClientWorkspace(
  files: Record<string, string>,
  serverArgs: (path: string) => string[],
): Promise<ClientWorkspace> {
  requireBuiltCli();
  const workspace = temporaryDirectory(files);
  return { toolbox: await node22Toolbox(), workspace, serverArgs: serverArgs(workspace.path) };
}
