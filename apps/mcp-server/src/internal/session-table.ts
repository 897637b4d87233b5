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
  /** When a request of the session last came in or its last open response closed (ms). */
  lastActive: number;
  /** Responses still open: requests being answered and SSE streams (GET or POST). */
  openResponses: number;
}

/** How often idle sessions are looked for, at most (ms); more often for short idle times. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

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
  /** A session with no request and no open stream for this long (ms) is closed. */
  idleMs: number;
  /** Where log lines go. */
  log: (line: string) => void;
}

/**
 * The sessions of a stateful Streamable HTTP server (random UUID ids): each has its own
 * `McpServer`, tool set and transport with a bounded, resumable SSE event store; an unknown
 * session id gets 404, DELETE ends a session. A session is idle while it has no request being
 * answered and no open SSE stream; one idle for `idleMs` is closed, and a new session beyond the
 * cap closes the least recently active idle one (503 only when every session has an open stream
 * or request).
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #options: SessionTableOptions;
  #sweeper: NodeJS.Timeout | undefined;

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
      SessionTable.#track(session, response);
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
      SessionTable.#track(session, response);
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

  /** Ends every session (and stops looking for idle ones). */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    await Promise.all([...this.#sessions.keys()].map((sessionId) => this.close(sessionId)));
  }

  async #open(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const { maxSessions, maxBodyBytes } = this.#options;
    if (!this.#makeRoom()) {
      reply(
        response,
        503,
        `Too many sessions (${maxSessions}), each with a request or stream open: end one with DELETE, or try again when one goes idle.`,
      );
      return;
    }
    const agentool = this.#options.createSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBodyBytes,
      eventStore: new BoundedEventStore(this.#options.eventStore),
      retryInterval: this.#options.retryIntervalMs,
      onsessioninitialized: (sessionId) => {
        this.#sessions.set(sessionId, session);
        this.#startSweeper();
      },
      onsessionclosed: (sessionId) => this.close(sessionId),
    });
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId !== undefined) void this.close(sessionId);
      else void agentool.dispose();
    };
    const session: Session = { transport, agentool, lastActive: Date.now(), openResponses: 0 };
    SessionTable.#track(session, response);
    await agentool.connect(transport);
    await transport.handleRequest(request, response, body);
    if (transport.sessionId === undefined) {
      // The initialize request failed: nothing to keep.
      await agentool.dispose();
    }
  }

  /** Counts a response of the session as open until it closes (a finished answer or a dropped stream). */
  static #track(session: Session, response: ServerResponse): void {
    session.openResponses += 1;
    session.lastActive = Date.now();
    response.once("close", () => {
      session.openResponses -= 1;
      session.lastActive = Date.now();
    });
  }

  /** Whether a new session fits: closes expired sessions, then (when still full) the least recently active idle one. */
  #makeRoom(): boolean {
    this.#closeExpired();
    if (this.#sessions.size < this.#options.maxSessions) return true;
    let oldest: [string, Session] | undefined;
    for (const entry of this.#sessions) {
      const [, session] = entry;
      if (session.openResponses > 0) continue;
      if (oldest === undefined || session.lastActive < oldest[1].lastActive) oldest = entry;
    }
    if (oldest === undefined) return false;
    this.#options.log(
      `session ${oldest[0]} closed to make room for a new one (${this.#options.maxSessions} sessions open; it was the least recently active idle one).`,
    );
    void this.close(oldest[0]);
    return true;
  }

  /** Closes every session idle (no open response) for at least `idleMs`. */
  #closeExpired(): void {
    const cutoff = Date.now() - this.#options.idleMs;
    for (const [sessionId, session] of this.#sessions) {
      if (session.openResponses === 0 && session.lastActive <= cutoff) {
        this.#options.log(
          `session ${sessionId} closed after ${Math.round(this.#options.idleMs / 1000)} s idle.`,
        );
        void this.close(sessionId);
      }
    }
  }

  /** Looks for expired sessions every half idle time (at most every minute), without keeping the process alive. */
  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    const interval = Math.min(Math.max(this.#options.idleMs / 2, 50), MAX_SWEEP_INTERVAL_MS);
    this.#sweeper = setInterval(() => this.#closeExpired(), interval);
    this.#sweeper.unref();
  }
}
