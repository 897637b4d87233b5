import { type AgentoolMcpServer, assembleAgentoolMcpServer } from "./internal/assemble-server.js";
import { EAGER_FAMILY_MODULES } from "./internal/eager-family-modules.js";
import type { AgentoolMcpServerOptions } from "./server-options.js";

export type { AgentoolMcpServer } from "./internal/assemble-server.js";
export { AGENTOOL_MCP_SERVER_VERSION, resolveRoot } from "./resolve-root.js";
export { type AgentoolMcpServerOptions, DEFAULT_ROOTS_TIMEOUT_MS } from "./server-options.js";

/**
 * Creates an MCP server that serves agentool's families — the library behind the `agentool-mcp`
 * bin, for tests and embedders. Read-only unless `mode: "read-write"`.
 *
 * After the client initializes: when it has the roots capability (and `fixedRoot` is not set) its
 * first `file://` root becomes the confinement root of fs and git (other roots are named in a log
 * line and not served); `notifications/roots/list_changed` re-lists the roots and swaps the fs
 * and git tools without a restart. Without client roots, `root` is used; without either, fs and
 * git are left out (logged). `ask_user` and `confirm` are served only to a client that supports
 * elicitation; `notify` always (as MCP logging messages).
 *
 * @param options - root, families, mode, commands, SearXNG, allowed hosts, fixed root, logger
 * @returns the server, its current root and tool names, `connect` and `dispose`
 * @throws AgentoolError for invalid options or a root that is missing or not a directory
 * @example
 * const agentool = createAgentoolMcpServer({ root: process.cwd(), families: ["core", "fs"] });
 * await agentool.connect(new StdioServerTransport());
 */
export function createAgentoolMcpServer(options: AgentoolMcpServerOptions = {}): AgentoolMcpServer {
  return assembleAgentoolMcpServer(options, { modules: EAGER_FAMILY_MODULES });
}
