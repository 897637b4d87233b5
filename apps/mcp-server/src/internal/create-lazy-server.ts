import type { AgentoolMcpServerOptions } from "../server-options.js";
import { type AgentoolMcpServer, assembleAgentoolMcpServer } from "./assemble-server.js";
import { loadFamilyModules } from "./family-modules.js";

/**
 * `createAgentoolMcpServer` that imports a family's modules only when one of its tools is first
 * listed or called (`agentool-mcp` over stdio): start-up loads the SDK and the server, not the
 * nine families, so the first answer comes sooner. What the server answers is the same: the
 * served names are planned without the families (so a call of an unknown tool is refused alike),
 * `tools/list` waits until every served family is loaded, a `tools/call` until its tool's family
 * is. Connect it with its own `connect` (the gate that holds those requests). The skills family
 * is loaded at once: its skills are also the server's prompts.
 *
 * @param options - the server's options
 * @returns the server, once the families it needs from the start are loaded
 * @throws AgentoolError for invalid options or a root that is missing or not a directory
 * @example
 * const agentool = await createLazyAgentoolMcpServer({ root: process.cwd() });
 * await agentool.connect(new StdioServerTransport());
 */
export async function createLazyAgentoolMcpServer(
  options: AgentoolMcpServerOptions,
): Promise<AgentoolMcpServer> {
  const modules = options.skillsDir === undefined ? {} : await loadFamilyModules(["skills"]);
  return assembleAgentoolMcpServer(options, { modules, load: loadFamilyModules });
}
