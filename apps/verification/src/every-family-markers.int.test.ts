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
import { parseNextCall } from "@agentool/contract";
import { createCodeTools } from "@agentool/tools-code";
import { createCoreTools } from "@agentool/tools-core";
import { createDesignTools } from "@agentool/tools-design";
import {
  RECORDED_FIGMA_FILES,
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
import { createOfficeTools, createWriteDocumentTool } from "@agentool/tools-office";
import { createPreviewTool } from "@agentool/tools-preview";
import { createSearxngProvider, createWebTools } from "@agentool/tools-web";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { AIMessage, type ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Args = Record<string, unknown>;
/** One way of calling a tool: the text the model reads back. */
type Caller = (tool: string, args: Args) => Promise<string>;

/** Why the gui family is left out here (no Tk app: an empty Xvfb), or undefined. */
const X11_MISSING = x11TestSkipReason("every-family gui checks", { tk: false });
const DESIGN_SYSTEM = RECORDED_FIGMA_FILES.designSystem;

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

/** One paged call: the first arguments, how many items there are, how to read them off a page. */
interface PagedCase {
  tool: string;
  args: Args;
  total: number;
  /** The items of one page's text (keys that identify each item). */
  items(page: string): string[];
  /** First-call arguments a marker may leave out because they equal the tool's default. */
  defaults?: Args;
  /** Where a page states the total, when not as "1–40 of 150" (its first group). */
  totalPattern?: RegExp;
}

const matchAll = (text: string, pattern: RegExp): string[] =>
  [...text.matchAll(pattern)].map((found) => found[1] ?? "");

/** The body lines of a listing page: every line but the header and the marker. */
const listedLines = (page: string): string[] =>
  page
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "" && !line.startsWith("…["));

function grepItems(page: string): string[] {
  const items: string[] = [];
  let file = "";
  for (const line of page.split("\n").slice(1)) {
    const hit = /^(\d+): /.exec(line);
    if (hit !== null) items.push(`${file}:${hit[1]}`);
    else if (line.startsWith("many/")) file = line.trim();
  }
  return items;
}

const PAGED_CASES: PagedCase[] = [
  {
    tool: "read_file",
    args: { path: "long.txt", limit: 500 },
    total: 3000,
    items: (page) => matchAll(page, /^\s*(\d+)\t/gm),
  },
  {
    tool: "list_directory",
    args: { path: "many", limit: 40 },
    total: 150,
    items: listedLines,
  },
  {
    tool: "glob_search",
    args: { pattern: "many/*.ts", limit: 40 },
    total: 150,
    items: listedLines,
  },
  {
    tool: "grep_search",
    args: { pattern: "needle", path: "many", output_mode: "content", limit: 50 },
    total: 150,
    items: grepItems,
    // grep_search's marker leaves out a filter at its default (grep-search-format.ts says so);
    // "content" is output_mode's default, so the followed call still pages matching lines.
    defaults: { output_mode: "content" },
  },
  {
    tool: "ast_search",
    args: {
      pattern: 'export const $N = "needle"',
      language: "typescript",
      path: "many",
      limit: 40,
    },
    total: 150,
    items: (page) => matchAll(page, /^(many\/f\d+\.ts:\d+)$/gm),
  },
  {
    // A workbook of 150 rows (header and 149 data rows) written by write_document; its header
    // states the total as "150 rows; rows 1–40 shown".
    tool: "read_document",
    args: { path: "visits.xlsx", limit: 40 },
    total: 150,
    items: (page) => matchAll(page, /^\| (\d+) \| /gm),
    totalPattern: /, (\d[\d,]*) rows; rows \d/,
  },
  {
    // A 34-layer screen of the recorded design system, ten layers a page; the header states the
    // total as "34 layers".
    tool: "design_read",
    args: { file_key: DESIGN_SYSTEM.fileKey, node_id: DESIGN_SYSTEM.nodes.dashboard, limit: 10 },
    total: 34,
    items: (page) => matchAll(page, /^\s*[a-z_]+ ".*?" #(\S+) /gm),
    totalPattern: /: (\d+) layers \(/,
  },
  {
    tool: "git_log",
    args: { limit: 10 },
    total: 40,
    items: (page) => matchAll(page, /^([0-9a-f]{7,40}) /gm),
  },
  {
    tool: "memory_search",
    args: { query: "fact", tags: ["ops"], limit: 4 },
    total: 15,
    items: (page) => matchAll(page, /^\d+\. (\S+) \(/gm),
  },
  {
    tool: "memory_list",
    args: { limit: 6 },
    total: 25,
    items: (page) => matchAll(page, /^- (\S+) \(/gm),
  },
  {
    tool: "search_knowledge",
    args: { query: "deploy", limit: 3 },
    total: 30,
    items: (page) => matchAll(page, /^\d+\. (\S+) — /gm),
  },
];

const MARKER = /call [a-z][a-z0-9_]* again/g;
/** "1–40 of 150", "Commits 11–20 of 40": the stated total of a page. */
const TOTAL = /\d[\d,]*–\d[\d,]* of (\d[\d,]*)/;

/** Writes visits.xlsx: a header and 149 rows of visits, one sheet (write_document's workbook). */
async function addWorkbook(root: string): Promise<void> {
  const rows = [
    ["City", "Visits"],
    ...Array.from({ length: 149 }, (_, index) => [`City ${index + 1}`, String(index * 7)]),
  ];
  const written = await createWriteDocumentTool({ root }).run({ path: "visits.xlsx", rows });
  expect(written.success, JSON.stringify(written)).toBe(true);
}

/** Saves 15 memories tagged ops and 10 tagged home. */
async function seedMemories(call: Caller): Promise<void> {
  for (let index = 0; index < 25; index += 1) {
    const tag = index < 15 ? "ops" : "home";
    await call("memory_write", {
      key: `${tag}-${index}`,
      content: `${tag} fact ${index}`,
      tags: [tag],
    });
  }
}

/** Follows `paged`'s markers literally from its first call to the last page, checking each page. */
async function walkPages(call: Caller, paged: PagedCase): Promise<void> {
  const seen: string[] = [];
  let args: Args = paged.args;
  for (let page = 1; page <= 100; page += 1) {
    const text = await call(paged.tool, args);
    const where = `${paged.tool} page ${page} (${JSON.stringify(args)}):\n${text.slice(-400)}`;
    expect((paged.totalPattern ?? TOTAL).exec(text)?.[1]?.replaceAll(",", ""), where).toBe(
      String(paged.total),
    );
    seen.push(...paged.items(text));
    const markers = text.match(MARKER) ?? [];
    if (markers.length === 0) break;
    expect(markers, where).toEqual([`call ${paged.tool} again`]);
    const next = parseNextCall(text);
    expect(next?.tool, where).toBe(paged.tool);
    const nextArgs = next?.args ?? {};
    for (const [key, value] of Object.entries(paged.args)) {
      if (key in nextArgs || paged.defaults?.[key] !== value) {
        expect(nextArgs[key], `${where}\n(argument ${key})`).toEqual(value);
      }
    }
    expect(typeof nextArgs.offset, where).toBe("number");
    args = nextArgs;
  }
  expect(new Set(seen).size, `${paged.tool}: duplicate items`).toBe(seen.length);
  expect(seen.length, `${paged.tool}: items over all pages`).toBe(paged.total);
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
