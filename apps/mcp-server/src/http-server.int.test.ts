import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpProcess, startHttpProcess } from "./test-support/http-process.js";
import { rawPost } from "./test-support/raw-post.js";
import { temporaryDirectory } from "./test-support/spawn-server.js";
import { resultText as text } from "./test-support/tool-results.js";

function connectClient(
  server: HttpProcess,
  options: { token?: string; roots?: string[] } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client(
    { name: "http-test", version: "1.0.0" },
    { capabilities: options.roots === undefined ? {} : { roots: { listChanged: true } } },
  );
  if (options.roots !== undefined) {
    const roots = options.roots.map((path) => ({ uri: pathToFileURL(path).href }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  }
  const transport = new StreamableHTTPClientTransport(server.url, {
    requestInit: { headers: { Authorization: `Bearer ${options.token ?? server.token}` } },
  });
  return client.connect(transport).then(() => ({ client, transport }));
}

let server: HttpProcess;
let left: ReturnType<typeof temporaryDirectory>;
let right: ReturnType<typeof temporaryDirectory>;

beforeAll(async () => {
  left = temporaryDirectory({ "left-only.txt": "left\n" });
  right = temporaryDirectory({ "right-only.txt": "right\n" });
  server = await startHttpProcess([
    "--http",
    "0",
    "--families",
    "core,fs",
    "--allow-origin",
    "https://allowed.example",
  ]);
});

afterAll(async () => {
  await server?.stop();
  left?.cleanup();
  right?.cleanup();
});

describe("Streamable HTTP security", () => {
  it("binds to 127.0.0.1 and prints a generated token", () => {
    expect(server.url.href).toBe(`http://127.0.0.1:${server.port}/mcp`);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a rebinding Host header with 403", async () => {
    const response = await rawPost(server.port, {
      host: `attacker.example:${server.port}`,
      authorization: `Bearer ${server.token}`,
    });
    expect(response.status).toBe(403);
    expect(response.body).toContain("Host header");
    const otherPort = await rawPost(server.port, {
      host: `127.0.0.1:${server.port + 1}`,
      authorization: `Bearer ${server.token}`,
    });
    expect(otherPort.status).toBe(403);
  });

  it("refuses a foreign Origin with 403 and accepts an allowed one", async () => {
    const foreign = await rawPost(server.port, {
      origin: "https://attacker.example",
      authorization: `Bearer ${server.token}`,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain("--allow-origin https://attacker.example");
    const allowed = await rawPost(server.port, {
      origin: "https://allowed.example",
      authorization: `Bearer ${server.token}`,
    });
    expect(allowed.status).toBe(200);
    const local = await rawPost(server.port, {
      origin: `http://localhost:${server.port}`,
      host: `localhost:${server.port}`,
      authorization: `Bearer ${server.token}`,
    });
    expect(local.status).toBe(200);
  });

  it("refuses a missing or wrong token with 401 and WWW-Authenticate: Bearer", async () => {
    const missing = await rawPost(server.port, {});
    expect(missing.status).toBe(401);
    expect(String(missing.headers["www-authenticate"])).toMatch(/^Bearer /);
    const wrong = await rawPost(server.port, { authorization: "Bearer not-the-token" });
    expect(wrong.status).toBe(401);
    expect(String(wrong.headers["www-authenticate"])).toContain('error="invalid_token"');
    const basic = await rawPost(server.port, { authorization: `Basic ${server.token}` });
    expect(basic.status).toBe(401);
    await expect(connectClient(server, { token: "wrong" })).rejects.toThrow(
      /the bearer token is wrong/,
    );
  });

  it("refuses an unknown session id (404), a request without a session (400) and an oversized body (413)", async () => {
    const authorization = `Bearer ${server.token}`;
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unknown = await rawPost(
      server.port,
      { authorization, "mcp-session-id": "00000000-0000-4000-8000-000000000000" },
      list,
    );
    expect(unknown.status).toBe(404);
    const sessionless = await rawPost(server.port, { authorization }, list);
    expect(sessionless.status).toBe(400);
    const huge = await rawPost(server.port, { authorization }, `"${"x".repeat(5 * 1024 * 1024)}"`);
    expect(huge.status).toBe(413);
  });
});

describe("Streamable HTTP sessions", () => {
  it("serves a client that sends the token: initialize, tools/list, tools/call", async () => {
    const { client } = await connectClient(server);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["think", "update_plan"]);
      const thought = await client.callTool({
        name: "think",
        arguments: { thought: "HTTP works." },
      });
      expect((thought as CallToolResult).isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });

  it("isolates sessions: each has its own roots and tools, and ending one leaves the other", async () => {
    const a = await connectClient(server, { roots: [left.path] });
    const b = await connectClient(server, { roots: [right.path] });
    try {
      expect(a.transport.sessionId).toBeDefined();
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
      const listA = await a.client.callTool({ name: "list_directory", arguments: { path: "." } });
      const listB = await b.client.callTool({ name: "list_directory", arguments: { path: "." } });
      expect(text(listA)).toContain("left-only.txt");
      expect(text(listA)).not.toContain("right-only.txt");
      expect(text(listB)).toContain("right-only.txt");
      expect(text(listB)).not.toContain("left-only.txt");

      const endedId = a.transport.sessionId as string;
      await a.transport.terminateSession();
      const reused = await rawPost(
        server.port,
        { authorization: `Bearer ${server.token}`, "mcp-session-id": endedId },
        JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      );
      expect(reused.status).toBe(404);
      const stillB = await b.client.callTool({ name: "list_directory", arguments: { path: "." } });
      expect(text(stillB)).toContain("right-only.txt");
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });
});

describe("HTTP token from the environment", () => {
  it("uses AGENTOOL_MCP_TOKEN and prints no token", async () => {
    const fromEnvironment = await startHttpProcess(["--http", "0", "--families", "core"], {
      AGENTOOL_MCP_TOKEN: "a-token-from-the-environment",
    });
    try {
      expect(fromEnvironment.token).toBeUndefined();
      expect(fromEnvironment.stderr()).not.toContain("a-token-from-the-environment");
      const { client } = await connectClient(fromEnvironment, {
        token: "a-token-from-the-environment",
      });
      expect((await client.listTools()).tools).toHaveLength(2);
      await client.close();
    } finally {
      await fromEnvironment.stop();
    }
  });
});
