import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/** What the SDK hands a request handler: the client's signal, the request and session ids, … */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The low-level server of either MCP TypeScript SDK — `Server` from `@modelcontextprotocol/sdk`
 * 1.x or from `@modelcontextprotocol/server` 2.x — described by the methods agentool calls, so
 * neither SDK's types are required.
 */
export interface McpLowLevelServerLike {
  /** Sets a request handler (v1: by request schema; v2: by method name). */
  setRequestHandler(...args: never[]): unknown;
  /** Removes the handler of a method. */
  removeRequestHandler(method: string): void;
  /** Throws when a method already has a handler. */
  assertCanSetRequestHandler(method: string): void;
  /** Adds capabilities (before connecting). */
  registerCapabilities(capabilities: never): void;
  /** What the connected client declared. */
  getClientCapabilities(): unknown;
  /** Sends `notifications/tools/list_changed`. */
  sendToolListChanged(): Promise<void>;
}

/**
 * A server {@link registerTools} accepts: an `McpServer` or a low-level `Server` of the MCP
 * TypeScript SDK v1 (`@modelcontextprotocol/sdk`) or v2 (`@modelcontextprotocol/server`),
 * recognised by shape.
 */
export type McpServerLike = McpLowLevelServerLike | { readonly server: McpLowLevelServerLike };

/** When a successful result carries `structuredContent` (and a tool lists its `outputSchema`). */
export type StructuredContentMode = "declared" | "always" | "never";

/** Options of {@link registerTools} (and of the conversions it uses). */
export interface RegisterToolsOptions {
  /**
   * `"declared"` (default): `structuredContent` (= the data) and `outputSchema` only for tools
   * that declare `output`; `"always"`: `structuredContent` for every success whose data is an
   * object (`outputSchema` still only where declared); `"never"`: neither (`outputSchema`
   * dropped too).
   */
  structuredContent?: StructuredContentMode;
  /**
   * List `outputSchema` in `tools/list` for tools that declare `output` (default `true`). An
   * output schema reaches the model's context with every definition (`git_status`'s alone is
   * ~600 tokens) while models read the text result; `false` keeps `structuredContent` on results
   * (per `structuredContent`) and leaves the schemas out of the listing. `agentool-mcp` lists
   * them only with `--output-schemas`.
   */
  outputSchemas?: boolean;
  /**
   * The server's decision to run tools annotated `destructive: true` (MCP `destructiveHint`).
   * Default `false`: their calls are refused with `BLOCKED` and never run; the MCP client's own
   * confirmation is not a decision this server can see. `agentool-mcp --mode read-write` sets it.
   */
  allowDestructive?: boolean;
  /** The thread id handed to `tool.run`. Default: the transport's session id (`extra.sessionId`). */
  threadId?: (extra: McpRequestExtra) => string | undefined;
}
