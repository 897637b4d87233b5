import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  clientSupportsElicitation,
  createMcpInteractionHandler,
  type RegisteredTools,
  registerTools,
} from "@agentool/adapters/mcp";
import { AgentoolError, type AnyTool, parseOptions } from "@agentool/contract";
import type { InteractionHandler } from "@agentool/tools-interact";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { FAMILY_NAMES } from "./family-names.js";
import { normalizeKnowledgeDir, resolveKnowledgeFolder } from "./knowledge-folder.js";
import { createKnowledgeResources } from "./knowledge-resources.js";
import { registerSkillPrompts } from "./prompts.js";
import { AGENTOOL_MCP_SERVER_VERSION, resolveRoot } from "./resolve-root.js";
import {
  type AgentoolMcpServerOptions,
  agentoolMcpServerOptionsSchema,
  DEFAULT_ROOTS_TIMEOUT_MS,
} from "./server-options.js";
import { skillRegistryOf } from "./skill-tools.js";
import {
  buildToolSet,
  disposePreviewTool,
  type ToolSetConfiguration,
  type ToolSetState,
} from "./tool-sets.js";
import { unknownToolCall, unknownToolError } from "./unknown-tool.js";

export { AGENTOOL_MCP_SERVER_VERSION, resolveRoot } from "./resolve-root.js";
export { type AgentoolMcpServerOptions, DEFAULT_ROOTS_TIMEOUT_MS } from "./server-options.js";

/** How long `dispose` waits for running tool calls to stop after aborting them. */
const DISPOSE_GRACE_MS = 10_000;

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

function defaultLog(line: string): void {
  process.stderr.write(`agentool-mcp: ${line}\n`);
}

/** Settles when `promise` does or after `milliseconds`, whichever comes first. */
function withDeadline(promise: Promise<void>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, milliseconds);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

const ROOTS_LIST_CHANGED = "notifications/roots/list_changed";

function isResponse(message: JSONRPCMessage): boolean {
  return !("method" in message);
}

function methodOf(message: JSONRPCMessage): string | undefined {
  return "method" in message ? message.method : undefined;
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
  const parsed = parseOptions("createAgentoolMcpServer", agentoolMcpServerOptionsSchema, options);
  const log = parsed.log ?? defaultLog;
  if (parsed.memoryDir === undefined && parsed.families?.includes("memory") === true) {
    throw new AgentoolError(
      "createAgentoolMcpServer: the memory family keeps its memories in a folder: pass memoryDir.",
    );
  }
  if (parsed.skillsDir === undefined && parsed.families?.includes("skills") === true) {
    throw new AgentoolError(
      "createAgentoolMcpServer: the skills family serves the skills of a folder: pass skillsDir.",
    );
  }
  // By default every family, memory and skills only when they have a folder.
  const families =
    parsed.families ??
    FAMILY_NAMES.filter(
      (name) =>
        (name !== "memory" || parsed.memoryDir !== undefined) &&
        (name !== "skills" || parsed.skillsDir !== undefined),
    );
  if (parsed.skillsDir !== undefined && !families.includes("skills")) {
    throw new AgentoolError(
      "createAgentoolMcpServer: skillsDir configures the skills family: add it to families.",
    );
  }
  const skillsDirectory = parsed.skillsDir === undefined ? undefined : resolve(parsed.skillsDir);
  if (parsed.memoryDir !== undefined && !families.includes("memory")) {
    throw new AgentoolError(
      "createAgentoolMcpServer: memoryDir configures the memory family: add it to families.",
    );
  }
  const memoryDirectory = parsed.memoryDir === undefined ? undefined : resolve(parsed.memoryDir);
  if (memoryDirectory !== undefined) mkdirSync(memoryDirectory, { recursive: true });
  const mode = parsed.mode ?? "read-only";
  const allowCommands = parsed.allowCommands ?? [];
  if (allowCommands.length > 0 && (mode !== "read-write" || !families.includes("fs"))) {
    throw new AgentoolError(
      'createAgentoolMcpServer: allowCommands mounts run_command, which needs mode: "read-write" and the fs family.',
    );
  }
  if (parsed.fixedRoot === true && parsed.root === undefined) {
    throw new AgentoolError("createAgentoolMcpServer: fixedRoot needs a root to confine to.");
  }
  const fallbackRoot = parsed.root === undefined ? undefined : resolveRoot(parsed.root, "--root");
  if (parsed.knowledgeDir !== undefined && !families.includes("knowledge")) {
    throw new AgentoolError(
      "createAgentoolMcpServer: knowledgeDir configures the knowledge family: add it to families.",
    );
  }
  const knowledgeDir =
    parsed.knowledgeDir === undefined
      ? ""
      : normalizeKnowledgeDir(
          parsed.knowledgeDir,
          parsed.root === undefined || fallbackRoot === undefined
            ? []
            : [resolve(parsed.root), fallbackRoot],
        );
  // A --knowledge-dir that leaves --root (through a symlink) is refused at start.
  if (fallbackRoot !== undefined && families.includes("knowledge")) {
    resolveKnowledgeFolder(fallbackRoot, knowledgeDir, "--root");
  }
  const configuration: ToolSetConfiguration = {
    families,
    mode,
    allowCommands,
    searxng: parsed.searxng,
    allowHosts: parsed.allowHosts ?? [],
    knowledgeDir,
    ...(memoryDirectory === undefined ? {} : { memoryDirectory }),
    ...(skillsDirectory === undefined ? {} : { skillsDirectory }),
    ...(parsed.knowledgeCacheDirectory === undefined
      ? {}
      : { knowledgeCacheDirectory: parsed.knowledgeCacheDirectory }),
    ...(parsed.stateless === true ? { stateless: true } : {}),
  };
  const stateless = parsed.stateless === true;
  const rootsTimeoutMs = parsed.rootsTimeoutMs ?? DEFAULT_ROOTS_TIMEOUT_MS;

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
  const disposal = new AbortController();
  const running = new Set<Promise<unknown>>();

  /** The tool with a `run` that also stops on dispose and is waited for by it. */
  function tracked(tool: AnyTool): AnyTool {
    const run: AnyTool["run"] = (input, runOptions) => {
      const signals = [disposal.signal, ...(runOptions?.signal ? [runOptions.signal] : [])];
      const call = tool.run(input, { ...runOptions, signal: AbortSignal.any(signals) });
      running.add(call);
      void call.finally(() => running.delete(call));
      return call;
    };
    return Object.freeze({ ...tool, run });
  }

  const sharedKnowledge = parsed.knowledgeResources;
  const knowledge = families.includes("knowledge")
    ? (sharedKnowledge ??
      createKnowledgeResources({ onWarn: (message) => log(`knowledge: ${message}`) }))
    : undefined;
  let state: ToolSetState = {
    root: fallbackRoot,
    elicitation: undefined,
    handler,
    ...(knowledge === undefined ? {} : { knowledge }),
  };
  let toolNames: string[] = [];
  let shownNotes = new Set<string>();
  let shownKnowledgeFolder = "";

  /** The tools of a state (each note logged once while it holds). */
  function build(next: ToolSetState): AnyTool[] {
    const set = buildToolSet(configuration, next);
    for (const note of set.notes) if (!shownNotes.has(note)) log(note);
    shownNotes = new Set(set.notes);
    const folder = set.knowledgeFolder;
    const shown =
      folder === undefined
        ? ""
        : `search_knowledge searches ${folder.path} (index in ${folder.indexDirectory}${folder.webPages === undefined ? "" : `; web_fetch saves pages into ${folder.webPages}`}).`;
    if (shown !== "" && shown !== shownKnowledgeFolder) log(shown);
    shownKnowledgeFolder = shown;
    // A roots change leaves the old folder's source behind: stop its indexing.
    if (knowledge !== undefined && sharedKnowledge === undefined)
      void knowledge.release(set.corpus);
    toolNames = set.tools.map((tool) => tool.name);
    return set.tools.map(tracked);
  }

  if (fallbackRoot !== undefined && (families.includes("fs") || families.includes("git"))) {
    log(`fs and git confined to ${fallbackRoot}${parsed.fixedRoot ? " (--fixed-root)" : ""}.`);
  }
  const registration: RegisteredTools = registerTools(server, build(state));
  if (skillsDirectory !== undefined) {
    registerSkillPrompts(server.server, skillRegistryOf(configuration, skillsDirectory));
  }

  /** Swaps the tools when the root or the served names change (tools/list_changed is sent). */
  function apply(next: ToolSetState): void {
    if (next.root === state.root && next.elicitation === state.elicitation) return;
    const previousNames = toolNames.join(",");
    const rootChanged = next.root !== state.root;
    state = next;
    const tools = build(next);
    if (rootChanged || toolNames.join(",") !== previousNames) registration.replace(tools);
  }

  /** The client's first file:// root (real path); `undefined` = none usable, `null` = no answer. */
  async function clientRoot(relatedRequestId?: RequestId): Promise<string | undefined | null> {
    let roots: { uri: string; name?: string }[];
    try {
      ({ roots } = await server.server.listRoots(undefined, {
        timeout: rootsTimeoutMs,
        ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
      }));
    } catch (error) {
      log(
        `the client did not list its roots (${error instanceof Error ? error.message : String(error)}); keeping ${state.root ?? "no root"}.`,
      );
      return null;
    }
    const fileRoots = roots.filter((root) => root.uri.startsWith("file://"));
    const other = roots.filter((root) => !root.uri.startsWith("file://"));
    if (other.length > 0) {
      log(`ignoring roots that are not file:// URIs: ${other.map((root) => root.uri).join(", ")}.`);
    }
    const [first, ...rest] = fileRoots;
    if (first === undefined) {
      log(
        fallbackRoot === undefined
          ? "the client sent no file:// root and there is no --root: fs and git left out."
          : `the client sent no file:// root: using --root ${fallbackRoot}.`,
      );
      return fallbackRoot;
    }
    if (rest.length > 0) {
      log(
        `the client sent ${fileRoots.length} roots; only the first is served (${first.uri}), not: ${rest.map((root) => root.uri).join(", ")}.`,
      );
    }
    try {
      const real = resolveRoot(fileURLToPath(first.uri), "the client's root");
      if (real !== state.root) log(`fs and git confined to the client's root ${real}.`);
      return real;
    } catch (error) {
      log(`${error instanceof Error ? error.message : String(error)} fs and git left out.`);
      return undefined;
    }
  }

  const usesRoots = () =>
    parsed.fixedRoot !== true &&
    !stateless &&
    (families.includes("fs") || families.includes("git") || families.includes("knowledge")) &&
    server.server.getClientCapabilities()?.roots !== undefined;

  async function refreshRoots(relatedRequestId?: RequestId): Promise<void> {
    const root = await clientRoot(relatedRequestId);
    if (root !== null) apply({ ...state, root });
  }

  // The client's roots are (re)listed before the first request after initialization and after
  // each roots change; that request and every message behind it wait until they are applied.
  let rootsStale = false;
  let initialized = false;
  let markInitialized: () => void = () => {};
  const initializedOnce = new Promise<void>((resolve) => {
    markInitialized = resolve;
  });
  let pending: Promise<void> | undefined;
  const held: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
  let deliver: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  let connected: Transport | undefined;

  function hold(work: () => Promise<void>): void {
    const current = work().catch((error: unknown) => {
      log(`could not apply the client's roots: ${error instanceof Error ? error.message : error}`);
    });
    pending = current;
    void current.then(() => {
      pending = undefined;
      while (pending === undefined && held.length > 0) {
        const [message, extra] = held.shift() as [JSONRPCMessage, MessageExtraInfo | undefined];
        receive(message, extra);
      }
    });
  }

  function onInitialized(): void {
    // A stateless server answers one request: nothing to decide for later ones.
    if (initialized || stateless) return;
    initialized = true;
    // A client that sends `initialize` and `notifications/initialized` in one write gets the
    // notification handled first (the SDK's request path takes more microtasks): wait for the
    // client's capabilities before deciding on elicitation and roots.
    const decide = (attempt: number) => {
      if (server.server.getClientCapabilities() === undefined && attempt < 100) {
        setImmediate(() => decide(attempt + 1));
        return;
      }
      apply({
        ...state,
        elicitation: families.includes("interact") && clientSupportsElicitation(server),
      });
      rootsStale = usesRoots();
      markInitialized();
    };
    decide(0);
  }

  /**
   * Hands a request or notification to the SDK once the roots are applied — except a
   * `tools/call` of a tool not served now: that is a protocol error (-32602), as MCP asks.
   */
  function dispatch(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const unknown = unknownToolCall(message, toolNames);
    if (unknown !== undefined && connected !== undefined) {
      connected.send(unknownToolError(unknown.id, unknown.name, toolNames)).catch(() => {
        // The client may be gone.
      });
      return;
    }
    deliver?.(message, extra);
  }

  /** Every client message passes here first (after `connect`). */
  function receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (isResponse(message)) {
      deliver?.(message, extra);
      return;
    }
    if (pending !== undefined) {
      held.push([message, extra]);
      return;
    }
    if (stateless) {
      dispatch(message, extra);
      return;
    }
    const method = methodOf(message);
    if (method === ROOTS_LIST_CHANGED) {
      rootsStale = initialized && usesRoots();
      return;
    }
    if (rootsStale && "id" in message) {
      // Asked on this request's own response stream: over HTTP the client may not have
      // opened its standalone stream yet.
      rootsStale = false;
      held.push([message, extra]);
      hold(() => refreshRoots(message.id));
      return;
    }
    dispatch(message, extra);
    if (method === "notifications/initialized" && !initialized) {
      // The SDK handles the initialize request and this notification a microtask later (the
      // client's capabilities are not known yet): later messages wait for `oninitialized`.
      hold(() => withDeadline(initializedOnce, 5_000));
    }
  }

  // Without `connect` (server.connect called directly) the same decisions happen, unheld.
  server.server.oninitialized = () => {
    onInitialized();
    void initializedOnce.then(() => {
      if (deliver !== undefined || !rootsStale) return;
      rootsStale = false;
      void refreshRoots();
    });
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    if (initialized && usesRoots()) void refreshRoots();
  });

  return {
    server,
    get root() {
      return state.root;
    },
    get toolNames() {
      return [...toolNames];
    },
    async connect(transport) {
      await server.connect(transport);
      connected = transport;
      deliver = transport.onmessage;
      transport.onmessage = (message, extra) => receive(message, extra);
    },
    async dispose() {
      disposal.abort(new AgentoolError("agentool-mcp is shutting down."));
      try {
        await server.close();
      } finally {
        // Stops indexing and waits for the index's last save.
        const closing = sharedKnowledge === undefined ? knowledge?.close() : undefined;
        const calls = Promise.allSettled([...running]);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          calls,
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, DISPOSE_GRACE_MS);
            timer.unref();
          }),
        ]);
        if (timer !== undefined) clearTimeout(timer);
        if (closing !== undefined) await withDeadline(closing, DISPOSE_GRACE_MS);
        await withDeadline(disposePreviewTool(configuration), DISPOSE_GRACE_MS);
      }
    },
  };
}
