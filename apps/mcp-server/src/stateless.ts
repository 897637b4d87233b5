import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { AgentoolMcpServer } from "./create-agentool-mcp-server.js";

/** What {@link serveStatelessRequest} needs besides the request. */
export interface StatelessRequestContext {
  /** Creates the fresh server that answers this one request (disposed when it is answered). */
  createServer: () => AgentoolMcpServer;
  /** Largest POST body in bytes (the transport checks it too). */
  maxBodyBytes: number;
  /** Where failures to dispose are logged. */
  log: (line: string) => void;
}

/**
 * Answers one POST of a stateless Streamable HTTP server: a fresh `AgentoolMcpServer` and a
 * fresh transport without session ids (`sessionIdGenerator: undefined`) handle the message(s) of
 * this one request, and both are disposed once the response is closed. Nothing is kept between
 * requests, so any replica can answer any request of a client: state lives in what the tools
 * keep on disk (the memory folder, the knowledge index), which every replica reads.
 *
 * What needs a session cannot work here, and the server does not pretend: server→client
 * requests (`roots/list`, elicitation) would be answered by a POST that may reach another
 * replica, and there is no standalone GET stream for notifications. The server is created
 * with `stateless: true`, which confines to `--root` and leaves out `ask_user`, `confirm`,
 * `notify`, `remember` and `search_memory`.
 *
 * @param request - the POST (its body already read)
 * @param response - where the answer goes (JSON-RPC over SSE, or 202 for notifications)
 * @param body - the parsed JSON body
 * @param context - the server factory, the body cap and the logger
 * @returns when the request has been handed to the transport
 * @example
 * await serveStatelessRequest(request, response, body, { createServer, maxBodyBytes, log });
 */
export async function serveStatelessRequest(
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  context: StatelessRequestContext,
): Promise<void> {
  const agentool = context.createServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: context.maxBodyBytes,
  });
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    void agentool.dispose().catch((error: unknown) => {
      context.log(`stateless request: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  // Closed when the answer is complete or the client went away: the tool calls still running
  // are aborted by dispose.
  response.once("close", dispose);
  try {
    await agentool.connect(transport);
    await transport.handleRequest(request, response, body);
  } catch (error) {
    dispose();
    throw error;
  }
}
