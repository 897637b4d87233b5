import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "./command-line.js";
import { type HttpProcess, startHttpProcess } from "./test-support/http-process.js";
import { requireBuiltCli, temporaryDirectory } from "./test-support/spawn-server.js";
import { resultText as text } from "./test-support/tool-results.js";

const TOKEN = "stateless-token";

describe("--stateless", () => {
  it("needs --http", () => {
    expect(() => parseCommandLine(["--stateless"])).toThrow(
      "--stateless applies to the HTTP server: add --http <port> or drop --stateless.",
    );
    expect(parseCommandLine(["--http", "0", "--stateless"])).toMatchObject({
      options: { http: { stateless: true } },
    });
  });
});

describe("two stateless replicas answering one client alternately", () => {
  let project: ReturnType<typeof temporaryDirectory>;
  let shared: string;
  const servers: HttpProcess[] = [];
  /** Which replica answered each message, in order: `A:initialize`, `B:tools/call memory_read`… */
  const answered: string[] = [];
  /** The replica the next request goes to: alternating, or the one a step names. */
  let next: 0 | 1 = 0;
  let pinned: 0 | 1 | undefined;
  let client: Client;

  beforeAll(async () => {
    requireBuiltCli();
    project = temporaryDirectory({
      "README.md": "# Tally\n\nTally counts lighthouse keepers by coastline.\n",
      "notes/ops.md": "The backup runs nightly at 02:00 from the harbour server.\n",
    });
    shared = mkdtempSync(join(tmpdir(), "agentool-stateless-"));
    const args = [
      "--http",
      "0",
      "--stateless",
      "--root",
      project.path,
      "--families",
      "core,fs,knowledge,memory,interact",
      "--memory-dir",
      join(shared, "memory"),
    ];
    const env = { AGENTOOL_MCP_TOKEN: TOKEN, XDG_CACHE_HOME: join(shared, "cache") };
    servers.push(await startHttpProcess(args, env), await startHttpProcess(args, env));
    const replicaFetch = async (input: string | URL | Request, init?: RequestInit) => {
      const index = pinned ?? next;
      next = index === 0 ? 1 : 0;
      const server = servers[index] as HttpProcess;
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      const method =
        body === undefined
          ? (init?.method ?? "GET")
          : `${body.method}${body.method === "tools/call" ? ` ${body.params.name}` : ""}`;
      answered.push(`${index === 0 ? "A" : "B"}:${method}`);
      const url = new URL(input instanceof Request ? input.url : input);
      url.port = String(server.port);
      return fetch(url, init);
    };
    client = new Client({ name: "load-balanced", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(servers[0]?.url as URL, {
        fetch: replicaFetch,
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all(servers.map((server) => server.stop()));
    project?.cleanup();
    rmSync(shared, { recursive: true, force: true });
  });

  async function on(replica: 0 | 1, work: () => Promise<unknown>): Promise<unknown> {
    pinned = replica;
    try {
      return await work();
    } finally {
      pinned = undefined;
    }
  }

  it("initializes on one replica and goes on on the other; the start-up log says stateless", async () => {
    expect(answered.slice(0, 2)).toEqual(["A:initialize", "B:notifications/initialized"]);
    for (const server of servers) {
      expect(server.stderr()).toContain(
        `stateless: every POST is served by a fresh server (no sessions); confined to ${project.path}.`,
      );
    }
  });

  it("lists the same tools on both, without the ones that need a session", async () => {
    const onA = (await on(0, () => client.listTools())) as Awaited<ReturnType<Client["listTools"]>>;
    const onB = (await on(1, () => client.listTools())) as typeof onA;
    const names = onA.tools.map((tool) => tool.name);
    expect(onB.tools.map((tool) => tool.name)).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(["read_file", "search_knowledge", "memory_read"]));
    for (const absent of ["remember", "search_memory", "ask_user", "confirm", "notify"]) {
      expect(names).not.toContain(absent);
    }
    expect(servers[0]?.stderr()).toContain("remember and search_memory left out");
    expect(servers[0]?.stderr()).toContain("ask_user, confirm and notify left out");
  });

  it("reads on B what A wrote to memory, and searches on A the folder B reads", async () => {
    const written = await on(0, () =>
      client.callTool({
        name: "memory_write",
        arguments: { key: "backup-time", content: "Nightly backups run at 02:00." },
      }),
    );
    expect((written as CallToolResult).isError).not.toBe(true);
    const read = await on(1, () =>
      client.callTool({ name: "memory_read", arguments: { key: "backup-time" } }),
    );
    expect(text(read)).toContain("Nightly backups run at 02:00.");
    const file = await on(1, () =>
      client.callTool({ name: "read_file", arguments: { path: "notes/ops.md" } }),
    );
    expect(text(file)).toContain("harbour server");
    const found = await on(0, () =>
      client.callTool({ name: "search_knowledge", arguments: { query: "lighthouse keepers" } }),
    );
    expect(text(found)).toContain("README.md");
    expect(answered).toEqual(
      expect.arrayContaining([
        "A:tools/call memory_write",
        "B:tools/call memory_read",
        "B:tools/call read_file",
        "A:tools/call search_knowledge",
      ]),
    );
  });

  it("answers an unknown tool with -32602 on either replica, and refuses GET and DELETE with 405", async () => {
    await expect(
      on(1, () => client.callTool({ name: "memory_raed", arguments: {} })),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(servers[1]?.url as URL, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, accept: "text/event-stream" },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(await response.text()).toContain("this server is stateless");
    }
  });

  it("gives no session id, and still demands the token", async () => {
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1.0.0" },
      },
    });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const anonymous = await fetch(servers[0]?.url as URL, {
      method: "POST",
      headers,
      body: initialize,
    });
    expect(anonymous.status).toBe(401);
    const response = await fetch(servers[0]?.url as URL, {
      method: "POST",
      headers: { ...headers, authorization: `Bearer ${TOKEN}` },
      body: initialize,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.text()).toContain('"serverInfo"');
    for (const server of servers) {
      expect(server.stderr()).not.toMatch(/HTTP request failed|stateless request:|Error/);
    }
  });
});
