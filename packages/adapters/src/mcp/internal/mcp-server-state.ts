import { AgentoolError } from "@agentool/contract";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestId, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerLike } from "../register-tools-options.js";

/** A tool call being served: what a handler needs to send requests that belong to it. */
export interface ActiveCall {
  /** The JSON-RPC id of the `tools/call` request. */
  requestId: RequestId;
  /** The transport's session id, when it has one. */
  sessionId: string | undefined;
}

/** What agentool keeps per low-level server. */
export interface McpServerState {
  /** Tool calls in flight, by the `toolCallId` handed to `tool.run` (`String(requestId)`). */
  readonly activeCalls: Map<string, ActiveCall>;
  /** The tools served by `registerTools`, once it has installed its handlers. */
  registry: unknown;
}

const states = new WeakMap<Server, McpServerState>();

/**
 * The agentool state of a low-level server, created on first use.
 *
 * @param server - a low-level SDK server
 * @returns its state (the same object on every call)
 * @internal
 */
export function stateOf(server: Server): McpServerState {
  let state = states.get(server);
  if (state === undefined) {
    state = { activeCalls: new Map(), registry: undefined };
    states.set(server, state);
  }
  return state;
}

function isLowLevelServer(value: unknown): value is Server {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { setRequestHandler?: unknown }).setRequestHandler === "function" &&
    typeof (value as { getClientCapabilities?: unknown }).getClientCapabilities === "function"
  );
}

/**
 * The low-level `Server` of an `McpServer` (its `.server`), or the `Server` itself — of SDK v1
 * or v2 (typed as v1's: the methods agentool calls have the same names and arguments in both,
 * except `setRequestHandler`, see `tool-request-handlers.ts`).
 *
 * @param owner - the public function's name, used in error messages
 * @param server - an `McpServer` or a `Server`
 * @returns the low-level server
 * @throws AgentoolError when `server` is neither
 * @internal
 */
export function lowLevelServer(owner: string, server: McpServer | Server | McpServerLike): Server {
  if (isLowLevelServer(server)) return server;
  const inner = (server as { server?: unknown } | null | undefined)?.server;
  if (isLowLevelServer(inner)) return inner;
  throw new AgentoolError(
    `${owner}: expected an McpServer or a Server from @modelcontextprotocol/sdk (1.x) or @modelcontextprotocol/server (2.x), got ${server === null ? "null" : typeof server}.`,
  );
}

/**
 * Whether a low-level server is connected to a transport.
 *
 * @param server - a low-level SDK server
 * @returns `true` while it has a transport
 * @internal
 */
export function isConnected(server: Server): boolean {
  return server.transport !== undefined;
}

/**
 * The capabilities a low-level server declares (`getCapabilities` is private in the SDK's
 * types, public at run time).
 *
 * @param server - a low-level SDK server
 * @returns its declared capabilities (`{}` when none)
 * @internal
 */
export function serverCapabilities(server: Server): ServerCapabilities {
  const read = (server as unknown as { getCapabilities?: () => ServerCapabilities | undefined })
    .getCapabilities;
  return (typeof read === "function" ? read.call(server) : undefined) ?? {};
}
