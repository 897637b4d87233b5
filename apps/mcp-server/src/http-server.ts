import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { errorMessage } from "@agentool/contract";
import type { AgentoolMcpServer } from "./create-agentool-mcp-server.js";
import type { BoundedEventStoreOptions } from "./event-store.js";
import { defaultLog } from "./internal/default-log.js";
import { reply } from "./internal/reply.js";
import { hostForUrl, RequestGuard } from "./internal/request-guard.js";
import { SessionTable } from "./internal/session-table.js";
import { StatelessEndpoint } from "./internal/stateless-endpoint.js";
import { isLoopbackHost } from "./loopback.js";

/** The largest POST body the HTTP server reads (bigger bodies get 413). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The most sessions open at once. A new one beyond it closes the least recently active idle
 * session, or gets 503 when every session has a request or stream open.
 */
export const DEFAULT_MAX_SESSIONS = 64;

/** How long a session may sit idle — no request, no open SSE stream — before it is closed (15 min). */
export const DEFAULT_SESSION_IDLE_MS = 15 * 60 * 1000;

/** The reconnection delay (ms) sent in the SSE `retry` field, unless told otherwise. */
export const DEFAULT_SSE_RETRY_MS = 1_000;

/** The path the MCP endpoint is served on. */
export const MCP_PATH = "/mcp";

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions {
  /** The port (0 = any free port; the bound one is in the result). */
  port: number;
  /** The address to bind to, also accepted in the Host header. Default `127.0.0.1`. */
  host?: string;
  /** Origins allowed besides `http://127.0.0.1:<port>` and `http://localhost:<port>`. */
  allowOrigins?: readonly string[];
  /** The bearer token every request must carry (`Authorization: Bearer <token>`); required unless `noAuth`. */
  token?: string;
  /**
   * Serve without a bearer token. Refused (the call throws) unless `host` is a loopback address;
   * the Host and Origin checks stay. Default `false`.
   */
  noAuth?: boolean;
  /**
   * No sessions: every POST is answered by a fresh server from `createSession` (created with
   * `stateless: true`), GET and DELETE get 405, and no SSE events are kept for replay. Default
   * `false`.
   */
  stateless?: boolean;
  /** Creates the server of one new session (each session has its own server and tools), or of one request when `stateless`. */
  createSession: () => AgentoolMcpServer;
  /** The SSE `retry` field in ms (sent in each stream's first, priming event). Default {@link DEFAULT_SSE_RETRY_MS}. */
  retryIntervalMs?: number;
  /** Bounds of the per-session store of SSE events kept for `Last-Event-ID` replay. */
  eventStore?: BoundedEventStoreOptions;
  /** Largest POST body in bytes. Default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Most sessions open at once (with `stateless`: most requests in flight). Default {@link DEFAULT_MAX_SESSIONS}. */
  maxSessions?: number;
  /**
   * A session with no request and no open SSE stream for this long (ms) is closed, its tools
   * disposed; its client's next request gets 404 and starts a new session. Default
   * {@link DEFAULT_SESSION_IDLE_MS}.
   */
  sessionIdleMs?: number;
  /** Where log lines go. Default: stderr, prefixed `agentool-mcp: `. */
  log?: (line: string) => void;
}

/** A running HTTP server. */
export interface RunningHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:39123/mcp`. */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** How many sessions are open. */
  readonly sessionCount: number;
  /** Closes every session (disposing its tools) and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP on `http://<host>:<port>/mcp` with node:http, guarded for a
 * local server: every request must name this server in its Host header (403 otherwise — the
 * DNS-rebinding defence), carry an allowed Origin when it has one (403), and the bearer token
 * (401 with `WWW-Authenticate: Bearer`; compared in constant time) unless `noAuth`, which only
 * a loopback host may use. Sessions are stateful (random UUID ids): each has its own
 * `McpServer` and tool set, an unknown session id gets 404, DELETE ends a session, a session
 * idle (no request, no open SSE stream) for `sessionIdleMs` is closed, a new session beyond
 * `maxSessions` closes the least recently active idle one (503 only when none is idle), and POST
 * bodies are capped (413). SSE streams are resumable: each event has an id (kept in a bounded
 * per-session {@link BoundedEventStore}), each stream starts with a priming event carrying the
 * `retry` delay (clients of protocol 2025-11-25 and later), and a GET with `Last-Event-ID` replays
 * what came after it. With `stateless`, every POST is served by a fresh server instead.
 *
 * @param options - port, host, allowed origins, token and the per-session server factory
 * @returns the running server (its URL names the bound port)
 * @throws Error when the port cannot be bound, with neither a token nor `noAuth`, or with
 *   `noAuth` on a host that is not loopback
 * @example
 * const http = await startHttpServer({ port: 0, token, createSession: () => createAgentoolMcpServer({ root }) });
 * console.error(`listening on ${http.url}`);
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? defaultLog;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (options.noAuth === true) {
    if (!isLoopbackHost(host)) {
      throw new Error(
        `startHttpServer: noAuth is refused on host ${host}: it is not a loopback address, so anyone who can reach it could use the tools without a token.`,
      );
    }
  } else if (options.token === undefined || options.token.length === 0) {
    throw new Error("startHttpServer: pass a token, or noAuth: true on a loopback host.");
  }
  const guard = new RequestGuard(host, options.allowOrigins ?? [], options.token);
  const sessions = new SessionTable({
    createSession: options.createSession,
    retryIntervalMs: options.retryIntervalMs ?? DEFAULT_SSE_RETRY_MS,
    eventStore: options.eventStore,
    maxBodyBytes,
    maxSessions,
    idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    log,
  });
  const endpoint =
    options.stateless === true
      ? new StatelessEndpoint({
          createServer: options.createSession,
          maxBodyBytes,
          maxInFlight: maxSessions,
          log,
        })
      : sessions;

  const server = createServer((request, response) => {
    const serve = async () => {
      if (!guard.admit(request, response)) return;
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      if (path !== MCP_PATH) {
        reply(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
        return;
      }
      await endpoint.handle(request, response);
    };
    serve().catch((error: unknown) => {
      log(`HTTP request failed: ${errorMessage(error)}`);
      reply(response, 500, "Internal error.");
    });
  });
  server.requestTimeout = 0; // SSE streams stay open; bodies are capped instead.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  guard.allow(port);
  return {
    url: `http://${hostForUrl(host)}:${port}${MCP_PATH}`,
    port,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
