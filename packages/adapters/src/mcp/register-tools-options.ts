import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/** What the SDK hands a request handler: the client's signal, the request and session ids, … */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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
  /** The thread id handed to `tool.run`. Default: the transport's session id (`extra.sessionId`). */
  threadId?: (extra: McpRequestExtra) => string | undefined;
}
