import { createMcpInteractionHandler } from "@agentool/adapters/mcp";
import type { InteractionHandler } from "@agentool/tools-interact";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { FamilyName } from "../family-names.js";
import { AGENTOOL_MCP_SERVER_VERSION } from "../resolve-root.js";
import type { AgentoolMcpServerOptions } from "../server-options.js";
import type { FamilyModules } from "./family-modules.js";
import { resolveServerConfiguration } from "./resolve-server-configuration.js";
import { RootsGate } from "./roots-gate.js";
import { ServedTools } from "./served-tools.js";

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
 * The SDK's Ajv validator, made on first use: the server checks only elicitation answers with it
 * (ask_user, confirm), and setting Ajv up costs about 5 ms of every start.
 */
function lazyJsonSchemaValidator(): jsonSchemaValidator {
  let validator: AjvJsonSchemaValidator | undefined;
  return {
    getValidator: (schema) => {
      validator ??= new AjvJsonSchemaValidator();
      return validator.getValidator(schema);
    },
  };
}

/** Where a server's family modules come from. */
export interface FamilySource {
  /** The modules at hand (the eager server: every family's). */
  modules: FamilyModules;
  /** Loads more (the lazy server); absent = `modules` holds every served family's. */
  load?: (families: readonly FamilyName[]) => Promise<FamilyModules>;
}

/**
 * `createAgentoolMcpServer` over the family modules at hand: the eager server passes every
 * family's, the lazy one (`agentool-mcp` over stdio) those loaded so far and a loader.
 *
 * @param options - the server's options
 * @param source - the family modules and, for the lazy server, how to load the others
 * @returns the server
 * @throws AgentoolError for invalid options or a root that is missing or not a directory
 */
export function assembleAgentoolMcpServer(
  options: AgentoolMcpServerOptions,
  source: FamilySource,
): AgentoolMcpServer {
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
      jsonSchemaValidator: lazyJsonSchemaValidator(),
    },
  );
  const handler = createMcpInteractionHandler(server) as InteractionHandler;
  const { modules } = source;
  // The lazy server makes the knowledge resources when it loads the knowledge family.
  const knowledge = families.includes("knowledge")
    ? (sharedKnowledge ??
      modules.knowledge?.resources.createKnowledgeResources({
        onWarn: (message) => log(`knowledge: ${message}`),
      }))
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
    modules,
    ...(source.load === undefined ? {} : { load: source.load }),
  });
  if (fallbackRoot !== undefined && (families.includes("fs") || families.includes("git"))) {
    log(`fs and git confined to ${fallbackRoot}${resolved.fixedRoot ? " (--fixed-root)" : ""}.`);
  }
  tools.register(server);
  if (skillsDirectory !== undefined) {
    const skills = modules.skills;
    if (skills === undefined) throw new Error("agentool-mcp: the skills family is not loaded.");
    skills.prompts.registerSkillPrompts(
      server.server,
      skills.tools.skillRegistryOf(configuration, skillsDirectory),
    );
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
