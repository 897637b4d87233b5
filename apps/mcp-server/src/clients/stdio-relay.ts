import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

/** The stdio server the relay spawns for each HTTP session. */
export interface StdioServerCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A running relay. */
export interface StdioRelay {
  /** Its endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** How many sessions (stdio servers) it started so far. */
  sessionsStarted(): number;
  /** Closes every session (their servers' stdin ends) and the listener. */
  close(): Promise<void>;
}

interface RelaySession {
  http: StreamableHTTPServerTransport;
  stdio: StdioClientTransport;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.once("end", () => resolve(body));
    request.once("error", reject);
  });
}

function refuse(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/**
 * Serves an HTTP-only MCP client (the conformance suite) a stdio server: each Streamable HTTP
 * session spawns the server over stdio and every JSON-RPC message is passed on unchanged both
 * ways — only the framing changes (the SDK's HTTP transport on one side, newline-delimited JSON on
 * the other). What the HTTP layer itself does (Host checks, SSE streams) is the relay's, not the
 * server's; messages a stdio server sends during a request go to the session's GET stream.
 *
 * @param server - the stdio server to spawn per session
 * @returns the relay, listening on a free loopback port
 * @example
 * const relay = await startStdioRelay({ command: process.execPath, args: [CLI_PATH, "--root", dir], env });
 * // conformance server --url relay.url
 */
export async function startStdioRelay(server: StdioServerCommand): Promise<StdioRelay> {
  const sessions = new Map<string, RelaySession>();
  const pending = new Set<RelaySession>();
  let started = 0;

  async function openSession(): Promise<RelaySession> {
    const stdio = new StdioClientTransport({ ...server, stderr: "ignore" });
    const session: RelaySession = {
      stdio,
      http: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, session);
          pending.delete(session);
        },
      }),
    };
    pending.add(session);
    session.http.onmessage = (message) => void stdio.send(message);
    stdio.onmessage = (message) => void session.http.send(message);
    session.http.onclose = () => {
      if (session.http.sessionId !== undefined) sessions.delete(session.http.sessionId);
      void stdio.close();
    };
    await stdio.start();
    started += 1;
    return session;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? "/", "http://relay").pathname !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (request.method !== "POST") {
      if (existing === undefined) refuse(response, 400, -32000, "Missing or unknown session id");
      else await existing.http.handleRequest(request, response);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      refuse(response, 400, -32700, "Parse error");
      return;
    }
    if (existing !== undefined) {
      await existing.http.handleRequest(request, response, body);
    } else if (sessionId === undefined && isInitializeRequest(body)) {
      await (await openSession()).http.handleRequest(request, response, body);
    } else {
      refuse(response, 400, -32000, "Missing or unknown session id");
    }
  }

  const listener = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, -32603, String(error));
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    sessionsStarted: () => started,
    async close() {
      const all = [...sessions.values(), ...pending];
      await Promise.allSettled(
        all.flatMap((session) => [session.http.close(), session.stdio.close()]),
      );
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}
