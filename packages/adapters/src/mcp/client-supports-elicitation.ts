import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { lowLevelServer } from "./internal/mcp-server-state.js";

/**
 * Whether the connected client declared the elicitation capability (so `ask_user` and
 * `confirm` can reach a person through {@link createMcpInteractionHandler}). `false` before the
 * client has initialized.
 *
 * @param server - the SDK's `McpServer`, or its low-level `Server`
 * @returns `true` when the client's `initialize` request declared `capabilities.elicitation`
 * @throws AgentoolError when `server` is neither
 * @example
 * server.server.oninitialized = () => {
 *   if (!clientSupportsElicitation(server)) registration.replace(toolsWithoutQuestions);
 * };
 */
export function clientSupportsElicitation(server: McpServer | Server): boolean {
  return (
    lowLevelServer("clientSupportsElicitation", server).getClientCapabilities()?.elicitation !==
    undefined
  );
}
