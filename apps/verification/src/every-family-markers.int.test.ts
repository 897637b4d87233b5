// Issue 28, "Done when": with every family mounted together, through `toLangChainTools` (a real
// LangGraph ToolNode) and over MCP (the built `agentool-mcp` over stdio), every paged tool's marker
// names the whole next call, once per page (the opt-in code family's ast_search and the office
// family's read_document on a 150-row workbook too); followed
// literally it keeps the total and returns every item once (point 3). The design family reads
// tools-design's recorded Figma server (design_read pages a 34-layer frame) and the gui family
// drives a 320×200 Xvfb (skipped, or with AGENTOOL_REQUIRE_SYSTEM failed, without X). Also: what `remember` saves, `memory_search` finds (point 1), and `tags` is
// an array wherever a tool takes it (point 2).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { toLangChainTools } from "@agentool/adapters/langchain";
import { createCodeTools } from "@agentool/tools-code";
import { createCoreTools } from "@agentool/tools-core";
import { createDesignTools } from "@agentool/tools-design";
import {
  RECORDED_FIGMA_TOKEN,
  type RecordedFigmaServer,
  startRecordedFigmaServer,
} from "@agentool/tools-design/testing";
import { createNodeFsTools } from "@agentool/tools-fs/node";
import { createGitTools } from "@agentool/tools-git";
import { createComputerTool } from "@agentool/tools-gui";
import { startXvfbDisplay, type XvfbDisplay } from "@agentool/tools-gui/node";
import { x11TestSkipReason } from "@agentool/tools-gui/testing";
import { createInteractTools } from "@agentool/tools-interact";
import {
  createInMemoryMemoryBackend,
  createMemoryTools,
  createSearchKnowledgeTool,
  createSkillTools,
} from "@agentool/tools-knowledge";
import { createCorpusSource, SkillRegistry } from "@agentool/tools-knowledge/node";
import { createOfficeTools } from "@agentool/tools-office";
import { createPreviewTool } from "@agentool/tools-preview";
import { createSearxngProvider, createWebTools } from "@agentool/tools-web";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { AIMessage, type ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addWorkbook,
  type Caller,
  PAGED_CASES,
  seedMemories,
  walkPages,
} from "./every-family-markers/paged-cases.js";

/** Why the gui family is left out here (no Tk app: an empty Xvfb), or undefined. */
const X11_MISSING = x11TestSkipReason("every-family gui checks", { tk: false });

const CLI_PATH = fileURLToPath(
  new URL("../../mcp-server/dist/bin/agentool-mcp.js", import.meta.url),
);

/** A workspace whose listings, searches, log, memories and knowledge all page. */
function createWorkspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "agentool-every-family-")));
  const lines = Array.from({ length: 3000 }, (_, index) => `line ${index + 1} of the long file`);
  writeFileSync(join(root, "long.txt"), `${lines.join("\n")}\n`);
  mkdirSync(join(root, "many"));
  for (let index = 0; index < 150; index += 1) {
    const name = `f${String(index).padStart(3, "0")}.ts`;
    writeFileSync(join(root, "many", name), `export const v${index} = "needle";\n`);
  }
  mkdirSync(join(root, "knowledge"));
  for (let index = 0; index < 30; index += 1) {
    writeFileSync(
      join(root, "knowledge", `note-${index}.md`),
      `# Deploy note ${index}\n\nStep ${index} of the deploy pipeline runs the deploy checks.\n`,
    );
  }
  const git = (...args: string[]) =>
    execFileSync(
      "git",
      ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", ...args],
      {
        cwd: root,
        stdio: "ignore",
      },
    );
  git("init", "--quiet", "--initial-branch=main");
  git("add", "--all");
  git("commit", "--quiet", "--no-verify", "--message", "commit 1");
  for (let index = 2; index <= 40; index += 1) {
    writeFileSync(join(root, "counter.txt"), `${index}\n`);
    git("add", "counter.txt");
    git("commit", "--quiet", "--no-verify", "--message", `commit ${index}`);
  }
  return root;
}

/** What the design and gui families are given: the recorded Figma server, the Xvfb (when X is here). */
interface Devices {
  figma: RecordedFigmaServer;
  transport: ReturnType<typeof createGuardedTransport>;
  display: XvfbDisplay | undefined;
}

/** Every family's tools over `root`, read-write, with one memory (the memory family + remember). */
function createEveryFamily(root: string, indexDirectory: string, devices: Devices) {
  return [
    ...createCoreTools(),
    ...createNodeFsTools({ root, mode: "read-write" }),
    ...createGitTools({ root, mode: "read-write" }),
    ...createCodeTools({ root, mode: "read-write" }),
    ...createOfficeTools({ root, mode: "read-write" }),
    ...createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: "http://localhost:8080" }) },
    }),
    ...createInteractTools({ handler: { ask: () => null, notify: () => undefined } }),
    createSearchKnowledgeTool({
      source: createCorpusSource({ root: join(root, "knowledge"), indexDirectory }),
    }),
    ...createMemoryTools({
      backend: createInMemoryMemoryBackend(),
      namespace: ["every-family"],
      remember: true,
    }),
    ...createSkillTools({ registry: new SkillRegistry(root) }),
    createPreviewTool({ read: () => "" }),
    ...createDesignTools({
      root,
      figmaToken: RECORDED_FIGMA_TOKEN,
      baseUrl: devices.figma.origin,
      transport: devices.transport,
    }),
    ...(devices.display === undefined ? [] : [createComputerTool({ display: devices.display })]),
  ];
}

/** A caller through `toLangChainTools` and a LangGraph ToolNode, one AIMessage per call. */
function toolNodeCaller(node: ToolNode): Caller {
  let id = 0;
  return async (tool, args) => {
    id += 1;
    const request = new AIMessage({
      content: "",
      tool_calls: [{ id: `call-${id}`, name: tool, args, type: "tool_call" }],
    });
    const { messages } = (await node.invoke({ messages: [request] })) as {
      messages: ToolMessage[];
    };
    const [message] = messages;
    const content = message?.content;
    const text = typeof content === "string" ? content : JSON.stringify(content);
    if (message?.status === "error") throw new Error(`${tool} failed: ${text}`);
    return text;
  };
}

/** A caller over an MCP client. */
function mcpCaller(client: Client): Caller {
  return async (tool, args) => {
    const result = (await client.callTool({ name: tool, arguments: args })) as {
      content: Array<{ type: string; text?: string }>;
      isError?: boolean;
    };
    const text = result.content.map((block) => block.text ?? "").join("\n");
    if (result.isError === true) throw new Error(`${tool} failed: ${text}`);
    return text;
  };
}

/** The checks shared by both paths, once `call` reaches a fresh server or tool list. */
function definePathChecks(path: string, getCall: () => Caller, getTags: () => Map<string, string>) {
  it(`${path}: tags is an array in every tool that takes it (point 2)`, () => {
    const tags = getTags();
    expect([...tags.keys()]).toContain("memory_search");
    for (const [tool, type] of tags) expect(type, tool).toBe("array");
  });

  for (const paged of PAGED_CASES) {
    it(`${path}: ${paged.tool}'s markers, followed literally, page through everything once`, async () => {
      await walkPages(getCall(), paged);
    });
  }

  it.skipIf(X11_MISSING !== undefined)(
    `${path}: computer sees the Xvfb mounted beside every other family`,
    async () => {
      // A screenshot of the empty 320×200 display, at its own size (an empty Xvfb does not move
      // its pointer, so the screenshot is the check).
      const shot = await getCall()("computer", { action: "screenshot" });
      expect(shot).toContain("Screenshot taken.");
      expect(shot).toContain("Screen 320×200 (scale 1)");
    },
  );

  it(`${path}: what remember saves, memory_search finds (point 1)`, async () => {
    const call = getCall();
    const saved = await call("remember", {
      text: "The staging database password rotates every Monday.",
      tags: ["ops"],
    });
    expect(saved).toMatch(/Saved/);
    const found = await call("memory_search", { query: "staging password rotation" });
    expect(found).toContain("The staging database password rotates every Monday.");
    const tagged = await call("memory_search", { query: "staging password", tags: ["ops"] });
    expect(tagged).toContain("The staging database password rotates every Monday.");
  });
}

/** Tool name → the JSON Schema type of its `tags` input, for every tool that has one. */
function tagTypes(tools: ReadonlyArray<{ name: string; schema: unknown }>): Map<string, string> {
  const types = new Map<string, string>();
  for (const tool of tools) {
    const schema = tool.schema as { properties?: Record<string, { type?: string }> };
    const tags = schema.properties?.tags;
    if (tags !== undefined) types.set(tool.name, String(tags.type));
  }
  return types;
}

describe("every family mounted together: markers name the whole next call", {
  timeout: 120_000,
}, () => {
  const cleanup: string[] = [];
  const created = (path: string) => {
    cleanup.push(path);
    return path;
  };
  const devices = {} as Devices;
  beforeAll(async () => {
    devices.figma = await startRecordedFigmaServer();
    devices.transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });
    devices.display =
      X11_MISSING === undefined ? await startXvfbDisplay({ width: 320, height: 200 }) : undefined;
  });
  afterAll(async () => {
    await devices.display?.close();
    await devices.transport?.close();
    await devices.figma?.close();
    for (const path of cleanup) rmSync(path, { recursive: true, force: true });
  });

  describe("through toLangChainTools and a LangGraph ToolNode", () => {
    let call: Caller;
    let tags: Map<string, string>;
    beforeAll(async () => {
      const root = created(createWorkspace());
      await addWorkbook(root);
      const index = created(mkdtempSync(join(tmpdir(), "agentool-every-family-index-")));
      // computer is destructive: the host approves each call.
      const tools = toLangChainTools(createEveryFamily(root, index, devices), {
        approve: () => true,
      });
      tags = tagTypes(tools);
      call = toolNodeCaller(new ToolNode(tools));
      await seedMemories(call);
    }, 120_000);
    definePathChecks(
      "ToolNode",
      () => call,
      () => tags,
    );
  });

  describe("over MCP (agentool-mcp, the default families, code, office, design and gui, read-write)", () => {
    let client: Client;
    let call: Caller;
    let tags: Map<string, string>;
    beforeAll(async () => {
      const root = created(createWorkspace());
      await addWorkbook(root);
      const memory = created(mkdtempSync(join(tmpdir(), "agentool-every-family-memory-")));
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          CLI_PATH,
          "--root",
          root,
          "--mode",
          "read-write",
          "--memory-dir",
          memory,
          // The defaults with --memory-dir, and the opt-in code, office, design and gui families.
          "--families",
          `core,fs,git,code,office,web,knowledge,memory,interact,design${X11_MISSING === undefined ? ",gui" : ""}`,
          "--figma-api-url",
          devices.figma.origin,
          ...(X11_MISSING === undefined ? ["--gui-xvfb", "320x200"] : []),
        ],
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: tmpdir(),
          FIGMA_API_KEY: RECORDED_FIGMA_TOKEN,
        },
        stderr: "pipe",
      });
      client = new Client({ name: "every-family-markers", version: "1.0.0" });
      await client.connect(transport);
      const { tools } = await client.listTools();
      tags = tagTypes(tools.map((tool) => ({ name: tool.name, schema: tool.inputSchema })));
      const served = new Set(tools.map((tool) => tool.name));
      for (const paged of PAGED_CASES) expect(served, paged.tool).toContain(paged.tool);
      call = mcpCaller(client);
      await seedMemories(call);
    }, 120_000);
    afterAll(async () => {
      await client?.close();
    });
    definePathChecks(
      "MCP",
      () => call,
      () => tags,
    );
  });
});
