// The browser family over stdio (issue 31 B): the spawned bin mounts `browser` only when asked
// for in read-write mode, every request of its pages goes through the SSRF-guarded transport that
// --allow-host opens (the same hosts as web_fetch), and a port not allowed never sees a request.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentoolMcpServer } from "./create-agentool-mcp-server.js";
import {
  descendants,
  isRunning,
  requireBuiltCli,
  runCli,
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
  waitUntil,
} from "./test-support/spawn-server.js";
import { callTool, resultText } from "./test-support/tool-results.js";

/** A local HTTP server that counts the requests it sees. */
async function serve(body: string): Promise<{ server: Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

let site: Awaited<ReturnType<typeof serve>>;
let forbidden: Awaited<ReturnType<typeof serve>>;
let project: ReturnType<typeof temporaryDirectory>;

beforeAll(async () => {
  requireBuiltCli();
  project = temporaryDirectory({ "a.md": "# A\n" });
  site = await serve(
    "<!doctype html><html><head><title>Tally docs</title></head><body><h1>Tally handbook</h1><p>The counter listens on port 8080.</p><a href=/next>Next page</a></body></html>",
  );
  forbidden = await serve(
    "<!doctype html><html><head><title>Admin</title></head><body><h1>Internal admin</h1></body></html>",
  );
});

afterAll(async () => {
  project?.cleanup();
  for (const local of [site, forbidden]) {
    await new Promise<void>((resolve) => (local ? local.server.close(() => resolve()) : resolve()));
  }
});

/** `--allow-host` for the allowed site only (host:port: the other loopback port stays refused). */
const allowSite = () => ["--allow-host", new URL(site.origin).host];

describe("--families browser over stdio", () => {
  it("lists browser (openWorld, not read-only), navigates an allowed page to a snapshot with refs, refuses a port not allowed, and closes its Chromium with the server", async () => {
    const session = await startStdioSession([
      "--families",
      "browser",
      "--mode",
      "read-write",
      ...allowSite(),
    ]);
    let chromium: number[] = [];
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["browser"]);
      const [browser] = tools;
      expect(browser?.annotations).toMatchObject({
        openWorldHint: true,
        readOnlyHint: false,
        destructiveHint: false,
      });
      // web_fetch is not mounted here: the description does not send the model to it.
      expect(browser?.description).not.toContain("web_fetch");

      const page = await callTool(session, "browser", { op: "navigate", url: `${site.origin}/` });
      expect(page.isError ?? false, resultText(page)).toBe(false);
      const text = resultText(page);
      expect(text).toContain("Tally handbook");
      expect(text).toContain("[ref=");
      expect(site.hits).toContain("GET /");
      chromium = descendants(session.pid)
        .filter((child) => /chrom/i.test(child.command))
        .map((child) => child.pid);
      expect(chromium.length).toBeGreaterThan(0);

      const refused = await callTool(session, "browser", {
        op: "navigate",
        url: `${forbidden.origin}/`,
      });
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toMatch(/^Error \[BLOCKED\]: /);
      expect(forbidden.hits).toEqual([]);
    } finally {
      await session.close();
    }
    // dispose closed the browser tool: no Chromium outlives the server.
    await waitUntil(
      () => chromium.every((pid) => !isRunning(pid)),
      `Chromium ${chromium.join(", ")} outlived the server`,
    );
    expect(forbidden.hits).toEqual([]);
  }, 60_000);

  it("one --allow-host opens the same host to web_fetch and browser, and browser's description then names web_fetch", async () => {
    await withSession(
      ["--families", "web,browser", "--mode", "read-write", ...allowSite()],
      async (session) => {
        const { tools } = await session.client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(["wiki_search", "web_fetch", "browser"]);
        expect(tools.find((tool) => tool.name === "browser")?.description).toContain("web_fetch");
        const fetched = await callTool(session, "web_fetch", { url: `${site.origin}/` });
        expect(fetched.isError ?? false, resultText(fetched)).toBe(false);
        expect(resultText(fetched)).toContain("Tally handbook");
        const page = await callTool(session, "browser", {
          op: "navigate",
          url: `${site.origin}/`,
        });
        expect(page.isError ?? false, resultText(page)).toBe(false);
        expect(resultText(page)).toContain("[ref=");
        for (const [name, args] of [
          ["web_fetch", { url: `${forbidden.origin}/` }],
          ["browser", { op: "navigate", url: `${forbidden.origin}/` }],
        ] as const) {
          const refused = await callTool(session, name, args);
          expect(refused.isError, name).toBe(true);
          expect(resultText(refused), name).toMatch(/^Error \[BLOCKED\]: /);
        }
        expect(forbidden.hits).toEqual([]);
      },
    );
  }, 60_000);

  it("is not in the default families, in either mode", async () => {
    for (const mode of ["read-only", "read-write"]) {
      await withSession(["--root", project.path, "--mode", mode], async (session) => {
        const names = (await session.client.listTools()).tools.map((tool) => tool.name);
        expect(names, mode).toContain("read_file");
        expect(names, mode).not.toContain("browser");
        expect(session.stderr(), mode).not.toContain("browser");
      });
    }
  }, 60_000);

  it("is refused in read-only mode: exit 2 with the flag that fixes it", async () => {
    const run = await runCli(["--families", "browser", ...allowSite()]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "agentool-mcp: --families browser mounts a browser that acts on the live web (fills forms, clicks, posts), which needs --mode read-write: add --mode read-write or drop browser from --families.",
    );
  });
});

describe("the browser family in createAgentoolMcpServer", () => {
  it("dispose closes the browser's Chromium while the host process lives on", async () => {
    const agentool = createAgentoolMcpServer({
      families: ["browser"],
      mode: "read-write",
      allowHosts: [new URL(site.origin).host],
      log: () => {},
    });
    expect(agentool.toolNames).toEqual(["browser"]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await agentool.connect(serverSide);
    const client = new Client({ name: "browser-dispose", version: "1.0.0" });
    await client.connect(clientSide);
    const before = new Set(descendants(process.pid).map((child) => child.pid));
    let chromium: number[] = [];
    try {
      const page = await client.callTool({
        name: "browser",
        arguments: { op: "navigate", url: `${site.origin}/` },
      });
      expect(page.isError ?? false, resultText(page)).toBe(false);
      expect(resultText(page)).toContain("Tally handbook");
      chromium = descendants(process.pid)
        .filter((child) => !before.has(child.pid) && /chrom/i.test(child.command))
        .map((child) => child.pid);
      expect(chromium.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await agentool.dispose();
    }
    await waitUntil(
      () => chromium.every((pid) => !isRunning(pid)),
      `Chromium ${chromium.join(", ")} outlived dispose`,
    );
  }, 60_000);

  it("is opt-in and read-write only: not in the default families, refused with read-only mode", () => {
    const defaults = createAgentoolMcpServer({ root: project.path, log: () => {} });
    try {
      expect(defaults.toolNames).toContain("read_file");
      expect(defaults.toolNames).not.toContain("browser");
    } finally {
      void defaults.dispose();
    }
    expect(() => createAgentoolMcpServer({ families: ["browser"], log: () => {} })).toThrow(
      'createAgentoolMcpServer: the browser family acts on the live web (fills forms, clicks, posts): it needs mode: "read-write".',
    );
  });
});

async function withSession(
  args: string[],
  work: (session: StdioSession) => Promise<void>,
): Promise<void> {
  const session = await startStdioSession(args);
  try {
    await work(session);
  } finally {
    await session.close();
  }
}
