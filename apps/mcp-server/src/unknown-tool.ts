import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { closestMatch } from "./internal/closest-match.js";

/**
 * The name of a `tools/call` request that names a tool this server does not serve, or
 * `undefined` for every other message (other methods, a served tool, a malformed call the SDK
 * answers itself).
 *
 * @param message - a message from the client
 * @param served - the names of the tools served now
 * @returns the unknown name with the request id, or `undefined`
 * @example
 * unknownToolCall({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "reed_file" } }, ["read_file"]);
 * // { id: 3, name: "reed_file" }
 */
export function unknownToolCall(
  message: JSONRPCMessage,
  served: readonly string[],
): { id: RequestId; name: string } | undefined {
  if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) {
    return undefined;
  }
  const name = (message.params as { name?: unknown } | undefined)?.name;
  if (typeof name !== "string" || served.includes(name)) return undefined;
  return { id: message.id, name };
}

/**
 * The JSON-RPC error answering a `tools/call` of an unknown tool, as the MCP specification asks
 * (a protocol error, code -32602 Invalid params, not an `isError` result): the message names the
 * tool and the closest served name when one is close (`Did you mean "read_file"?`); `data` holds
 * the served names.
 *
 * @param id - the request id
 * @param name - the unknown name
 * @param served - the names of the tools served now
 * @returns the error response
 * @example
 * unknownToolError(3, "reed_file", ["read_file"]).error.message;
 * // 'Unknown tool: "reed_file". Did you mean "read_file"? Call tools/list for the tools this server serves.'
 */
export function unknownToolError(
  id: RequestId,
  name: string,
  served: readonly string[],
): JSONRPCMessage & { error: { code: number; message: string; data: { available: string[] } } } {
  const closest = closestMatch(name, served);
  const suggestion = closest === undefined ? "" : ` Did you mean ${JSON.stringify(closest)}?`;
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Unknown tool: ${JSON.stringify(name)}.${suggestion} Call tools/list for the tools this server serves.`,
      data: { available: [...served] },
    },
  };
}
