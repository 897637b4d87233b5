import { createMcpInteractionHandler } from "@agentool/adapters/mcp";
import type { InteractionHandler } from "@agentool/tools-interact";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { resolveServerConfiguration } from "./internal/resolve-server-configuration.js";
import { RootsGate } from "./internal/roots-gate.js";
import { ServedTools } from "./internal/served-tools.js";
import { createKnowledgeResources } from "./knowledge-resources.js";
import { registerSkillPrompts } from "./prompts.js";
import { AGENTOOL_MCP_SERVER_VERSION } from "./resolve-root.js";
import type { AgentoolMcpServerOptions } from "./server-options.js";
import { skillRegistryOf } from "./skill-tools.js";

export { AGENTOOL_MCP_SERVER_VERSION, resolveRoot } from "./resolve-root.js";
export { type AgentoolMcpServerOptions, DEFAULT_ROOTS_TIMEOUT_MS } from "./server-options.js";

/** A configured server: the SDK's `McpServer` with every tool registered, and its lifecycle. */
export interface AgentoolMcpServer {
  /** The MCP server (tools, logging and tools/list_changed capabilities declared). */
  readonly server: McpServer;
  /** The current confinement root of fs and git (real path), when there is one. */
  readonly root: string | undefined;
  /** The names of the tools served right now. */
  readonly toolNames: readonly string[];
  /**
   * Connects a transport. Use this rather than `server.connect`: it lists the client's roots
   * before the first request after initialization (and after each
   * `notifications/roots/list_changed`) and holds that request and the ones behind it until
   * the roots are applied, so no call runs against a root the client replaced.
   */
  connect(transport: Transport): Promise<void>;
  /** Aborts running tool calls (their child processes are killed), closes the server and waits for the calls to end. */
  dispose(): Promise<void>;
}

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
  const resolved = resolveServerConfiguration(options);
  const { configuration, families, fallbackRoot, skillsDirectory, sharedKnowledge, log } = resolved;

  // Skills are MCP prompts too: the prompts capability only when they are served.
  const server = new McpServer(
    { name: "agentool", title: "agentool", version: AGENTOOL_MCP_SERVER_VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        ...(skillsDirectory === undefined ? {} : { prompts: {} }),
      },
    },
  );
  const handler = createMcpInteractionHandler(server) as InteractionHandler;
  const knowledge = families.includes("knowledge")
    ? (sharedKnowledge ??
      createKnowledgeResources({ onWarn: (message) => log(`knowledge: ${message}`) }))
    : undefined;
  const tools = new ServedTools({
    configuration,
    state: {
      root: fallbackRoot,
      elicitation: undefined,
      handler,
      ...(knowledge === undefined ? {} : { knowledge }),
    },
    knowledge,
    sharedKnowledge: sharedKnowledge !== undefined,
    log,
  });
  if (fallbackRoot !== undefined && (families.includes("fs") || families.includes("git"))) {
    log(`fs and git confined to ${fallbackRoot}${resolved.fixedRoot ? " (--fixed-root)" : ""}.`);
  }
  tools.register(server);
  if (skillsDirectory !== undefined) {
    registerSkillPrompts(server.server, skillRegistryOf(configuration, skillsDirectory));
  }
  const gate = new RootsGate({
    server,
    tools,
    families,
    fixedRoot: resolved.fixedRoot,
    stateless: resolved.stateless,
    fallbackRoot,
    rootsTimeoutMs: resolved.rootsTimeoutMs,
    log,
  });

  return {
    server,
    get root() {
      return tools.state.root;
    },
    get toolNames() {
      return [...tools.names];
    },
    connect: (transport) => gate.connect(transport),
    dispose: () => tools.dispose(server),
  };
}
