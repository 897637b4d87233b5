import type { ServerResponse } from "node:http";

/**
 * Answers an HTTP request with a JSON-RPC error body, as the SDK's own transport answers (or
 * just ends the response when its headers are already sent).
 *
 * @param response - where the answer goes
 * @param status - the HTTP status
 * @param message - the error message
 * @param headers - extra headers
 */
export function reply(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32_000, message }, id: null }));
}
