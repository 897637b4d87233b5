import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AgentoolMcpServer } from "./create-agentool-mcp-server.js";
import { BoundedEventStore, type BoundedEventStoreOptions } from "./event-store.js";
import { isLoopbackHost } from "./loopback.js";
import { serveStatelessRequest } from "./stateless.js";

/** The largest POST body the HTTP server reads (bigger bodies get 413). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The most sessions open at once (a new one beyond it gets 503). */
export const DEFAULT_MAX_SESSIONS = 64;

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

interface Session {
  transport: StreamableHTTPServerTransport;
  agentool: AgentoolMcpServer;
}

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function reply(
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
  // A JSON-RPC error body, as the SDK's own transport answers.
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32_000, message }, id: null }));
}

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function defaultLog(line: string): void {
  process.stderr.write(`agentool-mcp: ${line}\n`);
}

/**
 * Serves MCP over Streamable HTTP on `http://<host>:<port>/mcp` with node:http, guarded for a
 * local server: every request must name this server in its Host header (403 otherwise — the
 * DNS-rebinding defence), carry an allowed Origin when it has one (403), and the bearer token
 * (401 with `WWW-Authenticate: Bearer`; compared in constant time) unless `noAuth`, which only
 * a loopback host may use. Sessions are stateful (random UUID ids): each has its own
 * `McpServer` and tool set, an unknown session id gets 404, DELETE ends a session, and POST
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
  const expectedToken = options.token === undefined ? undefined : digest(options.token);
  const retryInterval = options.retryIntervalMs ?? DEFAULT_SSE_RETRY_MS;
  let inFlight = 0;
  const sessions = new Map<string, Session>();
  let port = options.port;
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  function allow(boundPort: number): void {
    port = boundPort;
    allowedHosts = new Set(
      ["127.0.0.1", "localhost", "[::1]", hostForUrl(host)].map(
        (name) => `${name.toLowerCase()}:${boundPort}`,
      ),
    );
    allowedOrigins = new Set([
      `http://127.0.0.1:${boundPort}`,
      `http://localhost:${boundPort}`,
      ...(options.allowOrigins ?? []),
    ]);
  }

  function authorized(request: IncomingMessage): "missing" | "wrong" | "ok" {
    if (expectedToken === undefined) return "ok";
    const header = request.headers.authorization;
    if (header === undefined) return "missing";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null) return "missing";
    return timingSafeEqual(digest(match[1] as string), expectedToken) ? "ok" : "wrong";
  }

  async function closeSession(sessionId: string): Promise<void> {
    const session = sessions.get(sessionId);
    if (session === undefined) return;
    sessions.delete(sessionId);
    await session.agentool.dispose().catch((error: unknown) => {
      log(`session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async function openSession(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    if (sessions.size >= maxSessions) {
      reply(response, 503, `Too many sessions (${maxSessions}): end one with DELETE first.`);
      return;
    }
    const agentool = options.createSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBodyBytes,
      eventStore: new BoundedEventStore(options.eventStore),
      retryInterval,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, agentool });
      },
      onsessionclosed: (sessionId) => closeSession(sessionId),
    });
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId !== undefined) void closeSession(sessionId);
      else void agentool.dispose();
    };
    await agentool.connect(transport);
    await transport.handleRequest(request, response, body);
    if (transport.sessionId === undefined) {
      // The initialize request failed: nothing to keep.
      await agentool.dispose();
    }
  }

  /** The parsed body, or `undefined` after answering 413 or 400. */
  async function readJson(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<unknown | undefined> {
    try {
      return JSON.parse(await readBody(request, maxBodyBytes)) as unknown;
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        reply(response, 413, `Payload too large: bodies are capped at ${maxBodyBytes} bytes.`);
      } else {
        reply(response, 400, "Parse error: the body is not JSON.");
      }
      return undefined;
    }
  }

  async function handleStateless(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== "POST") {
      reply(
        response,
        405,
        "Method not allowed: this server is stateless (no sessions, no standalone SSE stream); send each message as a POST.",
        { allow: "POST" },
      );
      return;
    }
    if (inFlight >= maxSessions) {
      reply(response, 503, `Too many requests in flight (${maxSessions}): retry shortly.`, {
        "retry-after": "1",
      });
      return;
    }
    inFlight += 1;
    response.once("close", () => {
      inFlight -= 1;
    });
    const body = await readJson(request, response);
    if (body === undefined) return;
    await serveStatelessRequest(request, response, body, {
      createServer: options.createSession,
      maxBodyBytes,
      log,
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const hostHeader = (request.headers.host ?? "").toLowerCase();
    if (!allowedHosts.has(hostHeader)) {
      reply(
        response,
        403,
        `Forbidden: the Host header ${JSON.stringify(request.headers.host ?? "")} does not name this server.`,
      );
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      reply(
        response,
        403,
        `Forbidden: the Origin ${JSON.stringify(origin)} is not allowed (start the server with --allow-origin ${origin} to allow it).`,
      );
      return;
    }
    const auth = authorized(request);
    if (auth !== "ok") {
      reply(
        response,
        401,
        auth === "missing"
          ? "Unauthorized: send Authorization: Bearer <token> (the token agentool-mcp printed, or AGENTOOL_MCP_TOKEN)."
          : "Unauthorized: the bearer token is wrong.",
        {
          "www-authenticate":
            auth === "missing"
              ? 'Bearer realm="agentool-mcp"'
              : 'Bearer realm="agentool-mcp", error="invalid_token"',
        },
      );
      return;
    }
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== MCP_PATH) {
      reply(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
      return;
    }
    if (options.stateless === true) {
      await handleStateless(request, response);
      return;
    }
    const header = request.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (request.method === "POST") {
      const body = await readJson(request, response);
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
        await openSession(request, response, body);
        return;
      }
      const session = sessions.get(sessionId);
      if (session === undefined) {
        reply(response, 404, "Session not found: start a new session with an initialize request.");
        return;
      }
      await session.transport.handleRequest(request, response, body);
      return;
    }
    if (request.method === "GET" || request.method === "DELETE") {
      const session = sessionId === undefined ? undefined : sessions.get(sessionId);
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

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
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
  allow((server.address() as AddressInfo).port);
  const url = `http://${hostForUrl(host)}:${port}${MCP_PATH}`;
  return {
    url,
    port,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions.keys()].map(closeSession));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
