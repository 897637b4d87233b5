import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentoolMcpServer } from "../create-agentool-mcp-server.js";
import type { AgentoolMcpServerOptions } from "../server-options.js";
import {
  initializeRepository,
  PACKAGE_DIRECTORY,
  temporaryDirectory,
} from "../test-support/spawn-server.js";
import { skillFile } from "../test-support/tool-results.js";
import { createLazyAgentoolMcpServer } from "./create-lazy-server.js";

let project: ReturnType<typeof temporaryDirectory>;
let outside: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  project = temporaryDirectory({
    "notes.md": "# Notes\n\nThe lazy server loads a family on first use.\n",
    "src/main.ts": "export const answer = 42;\n",
    ".agents/skills/greet/SKILL.md": skillFile("greet", "Greets the user.", "Say hello.\n"),
  });
  initializeRepository(project.path);
  outside = temporaryDirectory();
});
afterAll(() => {
  project?.cleanup();
  outside?.cleanup();
});

type Served = Awaited<ReturnType<typeof createLazyAgentoolMcpServer>>;

/** Connects a client (with elicitation when asked) and counts tools/list_changed notifications. */
async function connect(agentool: Served, elicitation = false) {
  const client = new Client(
    { name: "in-memory", version: "1.0.0" },
    { capabilities: elicitation ? { elicitation: {} } : {} },
  );
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" }));
  }
  const changes = { count: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes.count += 1;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await agentool.connect(serverSide);
  await client.connect(clientSide);
  return { client, changes };
}

const CONFIGURATIONS: { label: string; options: () => AgentoolMcpServerOptions }[] = [
  { label: "every default family", options: () => ({ root: project.path }) },
  {
    label: "read-write with run_command, SearXNG and an allowed host",
    options: () => ({
      root: project.path,
      mode: "read-write",
      allowCommands: ["git"],
      searxng: "http://127.0.0.1:8888",
      allowHosts: ["127.0.0.1"],
    }),
  },
  {
    label: "memory and skills beside knowledge",
    options: () => ({
      root: project.path,
      memoryDir: outside.path,
      skillsDir: `${project.path}/.agents/skills`,
    }),
  },
];

describe("createLazyAgentoolMcpServer", () => {
  for (const { label, options } of CONFIGURATIONS) {
    it(`lists the same tools as the eager server (${label}), without tools/list_changed`, async () => {
      for (const elicitation of [false, true]) {
        const eager = createAgentoolMcpServer({ ...options(), log: () => {} });
        const lazy = await createLazyAgentoolMcpServer({ ...options(), log: () => {} });
        const eagerSide = await connect(eager, elicitation);
        const lazySide = await connect(lazy, elicitation);
        try {
          const eagerList = await eagerSide.client.listTools();
          const lazyList = await lazySide.client.listTools();
          expect(lazyList).toEqual(eagerList);
          expect(lazy.toolNames).toEqual(eager.toolNames);
          expect(lazySide.changes.count).toBe(eagerSide.changes.count);
          const capabilities = eagerSide.client.getServerCapabilities();
          expect(lazySide.client.getServerCapabilities()).toEqual(capabilities);
          if (capabilities?.prompts !== undefined) {
            expect(await lazySide.client.listPrompts()).toEqual(
              await eagerSide.client.listPrompts(),
            );
          }
        } finally {
          await Promise.all([eagerSide.client.close(), lazySide.client.close()]);
          await Promise.all([eager.dispose(), lazy.dispose()]);
        }
      }
    });
  }

  it("serves a family's tool on its first call, before any tools/list", async () => {
    const calls: [string, Record<string, unknown>, string][] = [
      ["read_file", { path: "notes.md" }, "The lazy server loads a family on first use."],
      ["git_status", {}, "main"],
      ["think", { thought: "first" }, ""],
      ["remember", { text: "The lazy server remembers." }, ""],
      ["memory_list", {}, ""],
    ];
    for (const [name, args, expected] of calls) {
      const lazy = await createLazyAgentoolMcpServer({
        root: project.path,
        memoryDir: outside.path,
        log: () => {},
      });
      const eager = createAgentoolMcpServer({
        root: project.path,
        memoryDir: outside.path,
        log: () => {},
      });
      const lazySide = await connect(lazy);
      const eagerSide = await connect(eager);
      try {
        const result = (await lazySide.client.callTool({
          name,
          arguments: args,
        })) as CallToolResult;
        expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        const text = result.content.map((block) => (block.type === "text" ? block.text : ""));
        expect(text.join("\n")).toContain(expected);
        expect(lazySide.changes.count).toBe(0);
        // The listing after a first call is still the eager one.
        expect(await lazySide.client.listTools()).toEqual(await eagerSide.client.listTools());
      } finally {
        await Promise.all([lazySide.client.close(), eagerSide.client.close()]);
        await Promise.all([lazy.dispose(), eager.dispose()]);
      }
    }
  });

  it("refuses a tool it does not serve as the eager server does, loading nothing", async () => {
    const lazy = await createLazyAgentoolMcpServer({ root: project.path, log: () => {} });
    const eager = createAgentoolMcpServer({ root: project.path, log: () => {} });
    const lazySide = await connect(lazy);
    const eagerSide = await connect(eager);
    try {
      const call = (client: Client) =>
        client.callTool({ name: "read_fil", arguments: {} }).then(
          (result) => ({ result }),
          (error: Error) => ({ error: error.message }),
        );
      expect(await call(lazySide.client)).toEqual(await call(eagerSide.client));
    } finally {
      await Promise.all([lazySide.client.close(), eagerSide.client.close()]);
      await Promise.all([lazy.dispose(), eager.dispose()]);
    }
  });
});

/** A child process that serves `think` from the built lazy server and prints the packages it imported. */
const IMPORTS_SCRIPT = `
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const resolved = new Set();
port1.on("message", (url) => resolved.add(url));
port1.unref();
const hook = "export async function initialize({ port }) { globalThis.port = port; }" +
  " export async function resolve(specifier, context, next) { const result = await next(specifier, context);" +
  " globalThis.port.postMessage(result.url); return result; }";
register("data:text/javascript," + encodeURIComponent(hook), import.meta.url, { data: { port: port2 }, transferList: [port2] });
const { createLazyAgentoolMcpServer } = await import(process.argv[1] + "/dist/internal/create-lazy-server.js");
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
const agentool = await createLazyAgentoolMcpServer({ root: process.argv[2], log: () => {} });
const client = new Client({ name: "imports", version: "1.0.0" });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await agentool.connect(serverSide);
await client.connect(clientSide);
const result = await client.callTool({ name: "think", arguments: { thought: "first" } });
await new Promise((done) => setTimeout(done, 100));
const packages = [...resolved].map((url) => /packages\\/(tools-[a-z]+)\\//.exec(url)?.[1]).filter(Boolean);
process.stdout.write(JSON.stringify({ error: result.isError === true, packages: [...new Set(packages)].sort() }));
await client.close();
await agentool.dispose();
`;

describe("agentool-mcp's lazy families", () => {
  it("imports only the called tool's family until the tools are listed", () => {
    const output = execFileSync(
      process.execPath,
      ["--input-type=module", "--eval", IMPORTS_SCRIPT, PACKAGE_DIRECTORY, project.path],
      { cwd: PACKAGE_DIRECTORY, encoding: "utf8" },
    );
    expect(JSON.parse(output)).toEqual({ error: false, packages: ["tools-core"] });
  });
});
