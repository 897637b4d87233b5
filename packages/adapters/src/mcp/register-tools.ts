import {
  AgentoolError,
  type AnyTool,
  errorMessage,
  formatToolError,
  parseOptions,
} from "@agentool/contract";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type {
  CallToolRequest,
  CallToolResult,
  ListToolsResult,
  ProgressToken,
} from "@modelcontextprotocol/sdk/types.js";
import { approvalGateFor, undecidedRefusal } from "../internal/approval-gate.js";
import { createToolRegistry } from "../internal/tool-registry.js";
import {
  isConnected,
  lowLevelServer,
  type McpServerState,
  serverCapabilities,
  stateOf,
} from "./internal/mcp-server-state.js";
import { registerToolsOptionsSchema } from "./internal/register-tools-options-schema.js";
import { setToolRequestHandlers } from "./internal/tool-request-handlers.js";
import type {
  McpRequestExtra,
  McpServerLike,
  RegisterToolsOptions,
  StructuredContentMode,
} from "./register-tools-options.js";
import { buildCallToolResult } from "./to-mcp-call-tool-result.js";
import { buildToolDefinition, type McpToolDefinition } from "./to-mcp-tool-definition.js";

/** What {@link registerTools} returns: the tools of one registration, and how to change them. */
export interface RegisteredTools {
  /** Names currently served by this registration, in order. */
  readonly names: readonly string[];
  /**
   * Swaps this registration's tools for another set (e.g. after an MCP roots change); sends
   * `notifications/tools/list_changed` when connected. Works after `connect`.
   *
   * @throws AgentoolError when an entry is not a tool, two share a name, or a name is served by
   *   another registration on the same server (nothing changes then)
   */
  replace(tools: readonly AnyTool[]): void;
  /** Stops serving them (`notifications/tools/list_changed` sent when connected); `replace` may serve a new set later. */
  remove(): void;
}

interface Registration {
  entries: ReadonlyMap<string, Entry>;
  readonly structuredContent: StructuredContentMode;
  /** Whether `tools/list` carries `outputSchema` for tools that declare `output`. */
  readonly outputSchemas: boolean;
  readonly threadId: ((extra: McpRequestExtra) => string | undefined) | undefined;
  /** The server's decision to run destructive tools. */
  readonly allowDestructive: boolean;
}

interface Entry {
  readonly tool: AnyTool;
  /** Refused on every call: destructive, and the server did not allow destructive tools. */
  readonly refused: boolean;
  readonly definition: McpToolDefinition;
  readonly registration: Registration;
}

interface ToolRegistry {
  readonly registrations: Registration[];
  byName: ReadonlyMap<string, Entry>;
  list: McpToolDefinition[] | undefined;
}

const OWNER = "registerTools";
const LIST_METHOD = "tools/list";
const CALL_METHOD = "tools/call";

function conflictMessage(detail: string): string {
  return `${OWNER}: ${detail}. agentool serves tools/list and tools/call itself (with its own validation, did-you-mean messages and rendering), so it cannot share them with McpServer.registerTool: make those tools contract tools with defineTool from @agentool/contract and pass them to registerTools instead.`;
}

/** McpServer's private fields this module reads to share a server safely (SDK 1.x). */
interface McpServerInternals {
  _registeredTools?: Record<string, unknown>;
  _toolHandlersInitialized?: boolean;
}

function canSetHandler(server: Server, method: string): boolean {
  try {
    server.assertCanSetRequestHandler(method);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that the tool handlers are free (or held by an McpServer without tools) and that the
 * tools capability can be declared; returns what to undo on the McpServer, without changing
 * anything.
 */
function checkServer(server: McpServerLike, low: Server): McpServerInternals | undefined {
  let takeOver: McpServerInternals | undefined;
  if ((server as unknown) !== low) {
    const internals = server as unknown as McpServerInternals;
    const registered = Object.keys(internals._registeredTools ?? {});
    if (registered.length > 0) {
      throw new AgentoolError(
        conflictMessage(
          `this McpServer already serves tools registered with McpServer.registerTool (${registered.join(", ")})`,
        ),
      );
    }
    // McpServer installs empty tool handlers in its constructor when capabilities.tools is
    // declared; with no tool registered they serve nothing and may be replaced.
    if (internals._toolHandlersInitialized === true) takeOver = internals;
  }
  if (takeOver === undefined) {
    for (const method of [LIST_METHOD, CALL_METHOD]) {
      if (!canSetHandler(low, method)) {
        throw new AgentoolError(
          conflictMessage(
            `${method} already has a request handler that is not agentool's${(server as unknown) === low ? " (when it is an McpServer's, pass the McpServer itself rather than its .server)" : ""}`,
          ),
        );
      }
    }
  }
  if (isConnected(low) && serverCapabilities(low).tools === undefined) {
    throw new AgentoolError(
      `${OWNER}: the server is already connected and did not declare the tools capability; call registerTools before server.connect(…), or create the server with capabilities: { tools: { listChanged: true } }.`,
    );
  }
  return takeOver;
}

function errorResult(code: string, message: string, hint: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: formatToolError({ code, message, hint }) }],
  };
}

/**
 * A progress listener that sends `notifications/progress` for the client's token, with a
 * `progress` value that always increases: the tool's `completed` when it grows, a counter
 * otherwise.
 */
function createProgressSender(
  progressToken: ProgressToken,
  extra: McpRequestExtra,
): (update: { message?: string; completed?: number; total?: number }) => void {
  let last: number | undefined;
  return (update) => {
    const completed = update.completed;
    const progress =
      typeof completed === "number" &&
      Number.isFinite(completed) &&
      (last === undefined || completed > last)
        ? completed
        : (last ?? 0) + 1;
    last = progress;
    const params: {
      progressToken: ProgressToken;
      progress: number;
      total?: number;
      message?: string;
    } = { progressToken, progress };
    if (
      typeof update.total === "number" &&
      Number.isFinite(update.total) &&
      update.total >= progress
    ) {
      params.total = update.total;
    }
    if (typeof update.message === "string" && update.message.length > 0) {
      params.message = update.message;
    }
    extra.sendNotification({ method: "notifications/progress", params }).catch(() => {
      // The client may be gone; progress is best effort.
    });
  };
}

function installHandlers(low: Server, state: McpServerState, registry: ToolRegistry): void {
  setToolRequestHandlers(low, {
    list(): ListToolsResult {
      registry.list ??= [...registry.byName.values()].map((entry) => entry.definition);
      return { tools: registry.list as ListToolsResult["tools"] };
    },
    async call(request: CallToolRequest, extra: McpRequestExtra): Promise<CallToolResult> {
      const name = request.params.name;
      const entry = registry.byName.get(name);
      if (entry === undefined) {
        const available = [...registry.byName.keys()];
        return errorResult(
          "UNSUPPORTED",
          `There is no tool named ${JSON.stringify(name)}.`,
          available.length > 0
            ? `Call one of the available tools instead: ${available.join(", ")}.`
            : "No tools are available; answer without calling a tool.",
        );
      }
      const { tool, registration } = entry;
      if (entry.refused) {
        return buildCallToolResult(tool, undecidedRefusal(tool), registration.structuredContent);
      }
      let threadId: string | undefined;
      try {
        threadId =
          registration.threadId === undefined ? extra.sessionId : registration.threadId(extra);
      } catch (error) {
        return errorResult(
          "INTERNAL",
          `${tool.name} could not start: the host's threadId option threw (${errorMessage(error)}).`,
          "This is a bug in the MCP server's set-up; try another approach meanwhile.",
        );
      }
      const toolCallId = String(extra.requestId);
      const progressToken = request.params._meta?.progressToken;
      state.activeCalls.set(toolCallId, {
        requestId: extra.requestId,
        sessionId: extra.sessionId,
      });
      try {
        const result = await tool.run(request.params.arguments ?? {}, {
          signal: extra.signal,
          toolCallId,
          ...(threadId === undefined ? {} : { threadId }),
          ...(progressToken === undefined
            ? {}
            : { progress: createProgressSender(progressToken, extra) }),
        });
        return buildCallToolResult(tool, result, registration.structuredContent);
      } finally {
        state.activeCalls.delete(toolCallId);
      }
    },
  });
}

function entriesFor(
  owner: string,
  tools: readonly AnyTool[],
  registration: Registration,
): Map<string, Entry> {
  const checked = createToolRegistry(owner, tools);
  const entries = new Map<string, Entry>();
  for (const [name, tool] of checked) {
    entries.set(name, {
      tool,
      refused:
        approvalGateFor(owner, tool, { allowDestructive: registration.allowDestructive }) !==
        undefined,
      definition: buildToolDefinition(tool, registration),
      registration,
    });
  }
  return entries;
}

function checkNamesFree(
  owner: string,
  registry: ToolRegistry,
  entries: ReadonlyMap<string, Entry>,
  except: Registration | undefined,
): void {
  for (const name of entries.keys()) {
    const holder = registry.byName.get(name);
    if (holder !== undefined && holder.registration !== except) {
      throw new AgentoolError(
        `${owner}: a tool named ${JSON.stringify(name)} is already served on this server by another registerTools call; give one a new name with tool.withOverrides({ name }), or replace that registration's tools instead.`,
      );
    }
  }
}

function rebuildIndex(registry: ToolRegistry): void {
  const byName = new Map<string, Entry>();
  for (const registration of registry.registrations) {
    for (const [name, entry] of registration.entries) byName.set(name, entry);
  }
  registry.byName = byName;
  registry.list = undefined;
}

function announce(low: Server): void {
  if (!isConnected(low)) return;
  low.sendToolListChanged().catch(() => {
    // The client may be gone; it lists the tools again when it reconnects.
  });
}

/**
 * Serves contract tools on an `McpServer` (or a low-level `Server`) of the official TypeScript
 * SDK, v1 (`@modelcontextprotocol/sdk` 1.x) or v2 (`@modelcontextprotocol/server` 2.x),
 * recognised by shape (neither is imported at run time): it owns `tools/list` and `tools/call`
 * (set on the low-level server, so agentool's validation, did-you-mean messages, aliases and
 * rendering apply rather than the SDK's zod parsing). Both SDKs behave the same; on v2 the
 * `threadId` option still receives v1's `extra` shape (`signal`, `requestId`, `sessionId`, …).
 *
 * - `tools/list`: `inputSchema` from the contract's `toJsonSchema`, `outputSchema` for tools that
 *   declare `output` (see `outputSchemas` and `structuredContent`), a title, annotations under MCP's names.
 * - `tools/call`: the tool's `run` with the client's cancellation signal (child processes such as
 *   rg are killed), `toolCallId = String(requestId)`, the thread id, and progress sent as
 *   `notifications/progress` when the client gave a progress token. Results are the rendered
 *   text/image content, `structuredContent` per the option, and failures `isError: true` with the
 *   `Error [CODE]: …` text. An unknown tool name is an `isError` result (`Error [UNSUPPORTED]`)
 *   naming the tools available, not a protocol error, so the model can correct itself.
 *
 * Call it before `server.connect(…)`: it declares the `tools: { listChanged: true }` capability,
 * which cannot be added later (on an already connected server it needs that capability declared
 * in the server's options). `replace` and `remove` work at any time. Several calls on one server
 * add up (one registry per server). An McpServer created with `capabilities.tools` is fine; tools
 * registered with `McpServer.registerTool` are not (they cannot share the handlers).
 *
 * @param server - the SDK's `McpServer`, or its low-level `Server` (SDK v1 or v2)
 * @param tools - tools made by `defineTool`
 * @param options - `structuredContent` mode, `outputSchemas`, `threadId` and `allowDestructive` (destructive tools are refused with BLOCKED without it)
 * @returns the registration: its names, `replace` and `remove`
 * @throws AgentoolError for invalid options, an entry that is not a tool, a duplicate name (in
 *   the list or across registrations), tools registered with `McpServer.registerTool`, or a
 *   connected server without the tools capability
 * @example
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * import { registerTools } from "@agentool/adapters/mcp";
 * import { createNodeFsTools } from "@agentool/tools-fs/node";
 *
 * const server = new McpServer({ name: "my-tools", version: "1.0.0" });
 * const registration = registerTools(server, createNodeFsTools({ root: process.cwd() }));
 * await server.connect(new StdioServerTransport());
 * registration.replace(createNodeFsTools({ root: "/other/root" })); // clients get list_changed
 */
export function registerTools(
  server: McpServerLike,
  tools: readonly AnyTool[],
  options?: RegisterToolsOptions,
): RegisteredTools {
  const parsed = parseOptions(OWNER, registerToolsOptionsSchema, options);
  const low = lowLevelServer(OWNER, server);
  const registration: Registration = {
    entries: new Map(),
    structuredContent: parsed.structuredContent ?? "declared",
    outputSchemas: parsed.outputSchemas ?? true,
    threadId: parsed.threadId,
    allowDestructive: parsed.allowDestructive === true,
  };
  const entries = entriesFor(OWNER, tools, registration);
  const state = stateOf(low);
  let registry = state.registry as ToolRegistry | undefined;
  if (registry === undefined) {
    const takeOver = checkServer(server, low);
    const created: ToolRegistry = { registrations: [], byName: new Map(), list: undefined };
    if (takeOver !== undefined) {
      low.removeRequestHandler(LIST_METHOD);
      low.removeRequestHandler(CALL_METHOD);
      // A later McpServer.registerTool then fails loudly ("A request handler for tools/list
      // already exists") instead of registering a tool nobody can list.
      takeOver._toolHandlersInitialized = false;
    }
    if (!isConnected(low)) low.registerCapabilities({ tools: { listChanged: true } });
    installHandlers(low, state, created);
    state.registry = created;
    registry = created;
  } else {
    checkNamesFree(OWNER, registry, entries, undefined);
  }
  const current = registry;
  registration.entries = entries;
  current.registrations.push(registration);
  rebuildIndex(current);
  if (entries.size > 0) announce(low);

  return {
    get names() {
      return Object.freeze([...registration.entries.keys()]);
    },
    replace(nextTools) {
      const next = entriesFor("RegisteredTools.replace", nextTools, registration);
      checkNamesFree("RegisteredTools.replace", current, next, registration);
      registration.entries = next;
      rebuildIndex(current);
      announce(low);
    },
    remove() {
      if (registration.entries.size === 0) return;
      registration.entries = new Map();
      rebuildIndex(current);
      announce(low);
    },
  };
}
