import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "./command-line.js";
import { createAgentoolMcpServer } from "./create-agentool-mcp-server.js";
import { startHttpServer } from "./http-server.js";
import { isLoopbackHost } from "./loopback.js";
import { type HttpProcess, startHttpProcess } from "./test-support/http-process.js";
import { rawPost } from "./test-support/raw-post.js";
import { requireBuiltCli, runCli } from "./test-support/spawn-server.js";
import { usageError } from "./test-support/tool-results.js";

describe("isLoopbackHost", () => {
  it("accepts 127.0.0.0/8, ::1 in its spellings and localhost, and nothing else", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "0:0:0:0:0:0:0:1"]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("LOCALHOST")).toBe(true);
    expect(isLoopbackHost("::ffff:127.0.0.1")).toBe(true);
    for (const host of [
      "0.0.0.0",
      "::",
      "[::]",
      "192.168.1.5",
      "10.0.0.1",
      "128.0.0.1",
      "::2",
      "::ffff:10.0.0.1",
      "localhost.example",
      "my-laptop",
      "127.0.0.1.nip.io",
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe("--no-auth on the command line", () => {
  it("is accepted on loopback hosts with --http and refused elsewhere, naming why", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "::1", "localhost"]) {
      expect(parseCommandLine(["--http", "0", "--host", host, "--no-auth"])).toMatchObject({
        options: { http: { host, noAuth: true } },
      });
    }
    expect(parseCommandLine(["--http", "0", "--no-auth"])).toMatchObject({
      options: { http: { host: "127.0.0.1", noAuth: true } },
    });
    // Without the flag no field says otherwise: a token stays required.
    expect(parseCommandLine(["--http", "0"])).toMatchObject({ options: { http: { port: 0 } } });
    const plain = parseCommandLine(["--http", "0"]);
    expect(plain.action === "serve" && plain.options.http?.noAuth).toBeFalsy();
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "example.com"]) {
      expect(usageError(["--http", "0", "--host", host, "--no-auth"])).toBe(
        `--no-auth is refused on --host ${host}: it is not a loopback address, so anyone who can reach it could use these tools without a token. Use --host 127.0.0.1 (or ::1, localhost), or drop --no-auth and send a bearer token.`,
      );
    }
    expect(usageError(["--no-auth"])).toBe(
      "--no-auth applies to the HTTP server: add --http <port> or drop --no-auth.",
    );
    expect(usageError(["--http", "0", "--no-auth", "--token", "secret"])).toContain(
      "--no-auth serves without a bearer token, so --token would be ignored",
    );
  });

  it("exits 2 from the bin on a non-loopback host", async () => {
    const run = await runCli(["--http", "0", "--host", "0.0.0.0", "--no-auth"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--no-auth is refused on --host 0.0.0.0");
  });

  it("is refused by startHttpServer itself on a non-loopback host, and without a token", async () => {
    const createSession = () => createAgentoolMcpServer({ families: ["core"], log: () => {} });
    await expect(
      startHttpServer({ port: 0, host: "0.0.0.0", noAuth: true, createSession }),
    ).rejects.toThrow("noAuth is refused on host 0.0.0.0");
    await expect(startHttpServer({ port: 0, createSession })).rejects.toThrow(
      "pass a token, or noAuth: true on a loopback host",
    );
  });
});

describe("agentool-mcp --http --no-auth", () => {
  let server: HttpProcess;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startHttpProcess(["--http", "0", "--no-auth", "--families", "core"], {
      AGENTOOL_MCP_TOKEN: "ignored-token",
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("says on start that no token is required and that it is loopback only", () => {
    expect(server.stderr()).toContain(
      "--no-auth: no bearer token is required. Loopback only (127.0.0.1); the Host and Origin checks stay; AGENTOOL_MCP_TOKEN is ignored.",
    );
    expect(server.token).toBeUndefined();
  });

  it("serves a real SDK client that sends no Authorization header", async () => {
    const client = new Client({ name: "no-auth-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["think", "update_plan"]);
      const thought = (await client.callTool({
        name: "think",
        arguments: { thought: "no token needed on loopback" },
      })) as CallToolResult;
      expect(thought.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });

  it("keeps the Host and Origin checks", async () => {
    const good = await rawPost(server.port, { host: `127.0.0.1:${server.port}` });
    expect(good.status).toBe(200);
    const rebound = await rawPost(server.port, { host: `evil.example:${server.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("does not name this server");
    const origin = await rawPost(server.port, {
      host: `127.0.0.1:${server.port}`,
      origin: "https://evil.example",
    });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain("is not allowed");
  });
});
