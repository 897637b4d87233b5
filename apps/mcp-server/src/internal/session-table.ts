import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorMessage } from "@agentool/contract";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AgentoolMcpServer } from "../create-agentool-mcp-server.js";
import { BoundedEventStore, type BoundedEventStoreOptions } from "../event-store.js";
import { readJsonBody } from "./read-json-body.js";
import { reply } from "./reply.js";

interface Session {
  transport: StreamableHTTPServerTransport;
  agentool: AgentoolMcpServer;
}

/** What a {@link SessionTable} opens sessions with. */
export interface SessionTableOptions {
  /** Creates the server of one new session. */
  createSession: () => AgentoolMcpServer;
  /** The SSE `retry` field in ms. */
  retryIntervalMs: number;
  /** Bounds of each session's store of SSE events kept for `Last-Event-ID` replay. */
  eventStore: BoundedEventStoreOptions | undefined;
  /** Largest POST body in bytes. */
  maxBodyBytes: number;
  /** Most sessions open at once. */
  maxSessions: number;
  /** Where log lines go. */
  log: (line: string) => void;
}

/**
 * The sessions of a stateful Streamable HTTP server (random UUID ids): each has its own
 * `McpServer`, tool set and transport with a bounded, resumable SSE event store; an unknown
 * session id gets 404, DELETE ends a session, a new one beyond the cap gets 503.
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #options: SessionTableOptions;

  /** @param options - the session factory, SSE settings, caps and logger */
  constructor(options: SessionTableOptions) {
    this.#options = options;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Serves one request of the MCP endpoint: a POST opens a session (an initialize request
   * without `Mcp-Session-Id`) or goes to its session; GET and DELETE go to theirs.
   *
   * @param request - the request (already past the guard)
   * @param response - where the answer goes
   */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const header = request.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (request.method === "POST") {
      const body = await readJsonBody(request, response, this.#options.maxBodyBytes);
      if (body === undefined) return;
      if (sessionId === undefined) {
        const initializing = Array.isArray(body)
          ? body.some((message) => isInitializeRequest(message))
          : isInitializeRequest(body);
        if (!initializing) {
          reply(
            response,
            400,
            "Bad Request: no Mcp-Session-Id header; start a session with an initialize request.",
          );
          return;
        }
        await this.#open(request, response, body);
        return;
      }
      const session = this.#sessions.get(sessionId);
      if (session === undefined) {
        reply(response, 404, "Session not found: start a new session with an initialize request.");
        return;
      }
      await session.transport.handleRequest(request, response, body);
      return;
    }
    if (request.method === "GET" || request.method === "DELETE") {
      const session = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
      if (session === undefined) {
        reply(
          response,
          sessionId === undefined ? 400 : 404,
          sessionId === undefined
            ? "Bad Request: no Mcp-Session-Id header."
            : "Session not found: start a new session with an initialize request.",
        );
        return;
      }
      await session.transport.handleRequest(request, response);
      return;
    }
    reply(response, 405, "Method not allowed: use POST, GET or DELETE.", {
      allow: "GET, POST, DELETE",
    });
  }

  /**
   * Ends a session and disposes its tools (a failure is logged).
   *
   * @param sessionId - the session
   */
  async close(sessionId: string): Promise<void> {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return;
    this.#sessions.delete(sessionId);
    await session.agentool.dispose().catch((error: unknown) => {
      this.#options.log(`session ${sessionId}: ${errorMessage(error)}`);
    });
  }

  /** Ends every session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((sessionId) => this.close(sessionId)));
  }

  async #open(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const { maxSessions, maxBodyBytes } = this.#options;
    if (this.#sessions.size >= maxSessions) {
      reply(response, 503, `Too many sessions (${maxSessions}): end one with DELETE first.`);
      return;
    }
    const agentool = this.#options.createSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBodyBytes,
      eventStore: new BoundedEventStore(this.#options.eventStore),
      retryInterval: this.#options.retryIntervalMs,
      onsessioninitialized: (sessionId) => {
        this.#sessions.set(sessionId, { transport, agentool });
      },
      onsessionclosed: (sessionId) => this.close(sessionId),
    });
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId !== undefined) void this.close(sessionId);
      else void agentool.dispose();
    };
    await agentool.connect(transport);
    await transport.handleRequest(request, response, body);
    if (transport.sessionId === undefined) {
      // The initialize request failed: nothing to keep.
      await agentool.dispose();
    }
  }
}
