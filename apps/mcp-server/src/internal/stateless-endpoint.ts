import type { IncomingMessage, ServerResponse } from "node:http";
import type { AgentoolMcpServer } from "../create-agentool-mcp-server.js";
import { serveStatelessRequest } from "../stateless.js";
import { readJsonBody } from "./read-json-body.js";
import { reply } from "./reply.js";

/** What a {@link StatelessEndpoint} serves with. */
export interface StatelessEndpointOptions {
  /** Creates the fresh server of one request. */
  createServer: () => AgentoolMcpServer;
  /** Largest POST body in bytes. */
  maxBodyBytes: number;
  /** Most requests in flight. */
  maxInFlight: number;
  /** Where log lines go. */
  log: (line: string) => void;
}

/**
 * The MCP endpoint of a stateless server: only POST (405 otherwise), each answered by a fresh
 * server, at most `maxInFlight` at once (503 with `Retry-After` beyond).
 */
export class StatelessEndpoint {
  readonly #options: StatelessEndpointOptions;
  #inFlight = 0;

  /** @param options - the server factory, body cap, in-flight cap and logger */
  constructor(options: StatelessEndpointOptions) {
    this.#options = options;
  }

  /**
   * Serves one request of the MCP endpoint.
   *
   * @param request - the request (already past the guard)
   * @param response - where the answer goes
   */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { maxInFlight, maxBodyBytes } = this.#options;
    if (request.method !== "POST") {
      reply(
        response,
        405,
        "Method not allowed: this server is stateless (no sessions, no standalone SSE stream); send each message as a POST.",
        { allow: "POST" },
      );
      return;
    }
    if (this.#inFlight >= maxInFlight) {
      reply(response, 503, `Too many requests in flight (${maxInFlight}): retry shortly.`, {
        "retry-after": "1",
      });
      return;
    }
    this.#inFlight += 1;
    response.once("close", () => {
      this.#inFlight -= 1;
    });
    const body = await readJsonBody(request, response, maxBodyBytes);
    if (body === undefined) return;
    await serveStatelessRequest(request, response, body, {
      createServer: this.#options.createServer,
      maxBodyBytes,
      log: this.#options.log,
    });
  }
}
