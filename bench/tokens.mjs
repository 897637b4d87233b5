// What the toolset costs the model before it does anything (issue 28, point 9): the tool
// definitions each family sends, in o200k tokens (the tokenizer of OpenAI's current models,
// js-tiktoken's o200k_base ranks, offline), beside the anchors named in the issue.
//
// How: every family's tools are created the way a host does (every factory, read-write, every
// optional tool on, as apps/verification's family-tools.ts does for the README tables) and
// written the way each provider receives them — `toOpenAiTools` and `toAnthropicTools` from
// @agentool/adapters. agentool-mcp is spawned over stdio with its defaults (and with
// --memory-dir) and asked tools/list by the MCP SDK client: the whole result as it crosses the
// wire (titles, annotations, output schemas included), and its tools as an MCP client hands them
// to OpenAI (`{ type: "function", function: { name, description, parameters } }`).
// "Every family mounted" mounts one memory, as the tools-knowledge README's "Which to mount
// when" says: the memory family with `remember: true` (keyed memories and excerpts, one search);
// the knowledge family's vector-store memory (remember + search_memory), its alternative, is
// printed on its own row.
// Tokens are counted on the JSON text of the array (a close, provider-neutral proxy: providers
// wrap definitions in a few fixed tokens of their own). The MCP reference filesystem server
// (a devDependency here) is listed and counted the same way; Claude Code's 22 built-in tools are
// an anchor stated in the issue (13,688 OpenAI tokens, measured outside this repository: their
// definitions are not published as data), printed as stated, not measured.
//
// Targets (issue 28): every family mounted ≤ 9,000 tokens (OpenAI); the default agentool-mcp
// set ≤ 5,500 tokens including everything MCP sends.
//
// Run: pnpm bench tokens
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { toAnthropicTools } from "@agentool/adapters/anthropic";
import { toOpenAiTools } from "@agentool/adapters/openai";
import { createCodeTools } from "@agentool/tools-code";
import { createCoreTools } from "@agentool/tools-core";
import { createDesignTools } from "@agentool/tools-design";
import { createNodeFsTools, createRunCommandTool } from "@agentool/tools-fs/node";
import { createGitTools } from "@agentool/tools-git";
import { createComputerTool } from "@agentool/tools-gui";
import { sizedTestDisplay } from "@agentool/tools-gui/testing";
import { createInteractTools } from "@agentool/tools-interact";
import {
  createInMemoryMemoryBackend,
  createInMemoryVectorStore,
  createMemoryTools,
  createRememberTool,
  createSearchKnowledgeTool,
  createSkillTools,
  createStoreSource,
} from "@agentool/tools-knowledge";
import { createCorpusSource, SkillRegistry } from "@agentool/tools-knowledge/node";
import { createOfficeTools } from "@agentool/tools-office";
import { createPreviewTool } from "@agentool/tools-preview";
import { createBrowserTool } from "@agentool/tools-preview/browser";
import { createSearxngProvider, createWebTools } from "@agentool/tools-web";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";

const ALL_FAMILIES_TARGET = 9_000;
const DEFAULT_MCP_TARGET = 5_500;
const CLAUDE_CODE_STATED = { tools: 22, openai: 13_688 };

const encoder = new Tiktoken(o200k);
const tokens = (value) => encoder.encode(JSON.stringify(value)).length;

const repositoryRoot = resolve(import.meta.dirname, "..");
const oursBin = join(repositoryRoot, "apps", "mcp-server", "dist", "bin", "agentool-mcp.js");
const require = createRequire(import.meta.url);
const referenceBin = join(
  dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist",
  "index.js",
);

const workspace = realpathSync(mkdtempSync(join(tmpdir(), "agentool-bench-tokens-")));
process.on("exit", () => rmSync(workspace, { recursive: true, force: true }));
const root = join(workspace, "root");
const memory = join(workspace, "memory");
const skills = join(workspace, "skills");
mkdirSync(root);
mkdirSync(join(skills, "write-notes"), { recursive: true });
writeFileSync(join(root, "README.md"), "# Probe\n");
writeFileSync(
  join(skills, "write-notes", "SKILL.md"),
  "---\nname: write-notes\ndescription: Keep notes of the user's preferences\n---\n# Steps\n",
);

/** tools/list of one server started over stdio (`environment` added to the SDK's default one). */
async function listTools(args, environment) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: workspace,
    stderr: "pipe",
    ...(environment === undefined ? {} : { env: environment }),
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const client = new Client({ name: "agentool-bench-tokens", version: "0.0.0" });
  try {
    await client.connect(transport);
    return await client.listTools();
  } catch (error) {
    throw new Error(`${args.join(" ")} failed: ${error.message}\n${stderr}`);
  } finally {
    await client.close();
  }
}

/** OpenAI and Anthropic figures of tools created in process. */
function measureTools(tools) {
  const openai = toOpenAiTools(tools);
  return {
    tools: tools.length,
    openai: tokens(openai),
    anthropic: tokens(toAnthropicTools(tools)),
    mcp: undefined,
    perTool: openai.map((entry) => ({ name: entry.function.name, openai: tokens(entry) })),
  };
}

/** The figures of a tools/list result: as OpenAI and Anthropic get it from an MCP client, and on the wire. */
function measureListed(listed) {
  const openai = listed.tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
  const anthropic = listed.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
  return {
    tools: listed.tools.length,
    openai: tokens(openai),
    anthropic: tokens(anthropic),
    mcp: tokens(listed),
  };
}

execFileSync("git", ["init", "--quiet", root]);
const store = createInMemoryVectorStore();
const FAMILIES = {
  core: () => createCoreTools(),
  fs: () => [
    ...createNodeFsTools({ root, mode: "read-write" }),
    createRunCommandTool({ root, allowedCommands: ["node"] }),
  ],
  git: () => createGitTools({ root, mode: "read-write" }),
  web: () =>
    createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: "http://localhost:8080" }) },
    }),
  interact: () => createInteractTools({ handler: { ask: () => null, notify: () => undefined } }),
  knowledge: () => [createSearchKnowledgeTool({ source: createCorpusSource({ root }) })],
  memory: () =>
    createMemoryTools({
      backend: createInMemoryMemoryBackend(),
      namespace: ["bench"],
      remember: true,
    }),
  skills: () => createSkillTools({ registry: new SkillRegistry(skills) }),
  preview: () => [createPreviewTool({ read: () => "" })],
};
const rows = [];
const everyTool = [];
for (const [family, create] of Object.entries(FAMILIES)) {
  const tools = create();
  everyTool.push(...tools);
  rows.push({ label: `family ${family}`, ...measureTools(tools) });
}
const everything = measureTools(everyTool);
rows.push({ label: "every family mounted", ...everything });
// The other memory: remember + search_memory over a vector store (knowledge family), mounted
// instead of the memory family when excerpts are searched by meaning (tools-knowledge README,
// "Which to mount when"); counted here beside the set, not in it.
const vectorMemory = [
  createRememberTool({ store }),
  createSearchKnowledgeTool({
    source: createStoreSource({ store }),
    sourceKind: "store",
    name: "search_memory",
  }),
];
rows.push({ label: "  remember + search_memory (vector store)", ...measureTools(vectorMemory) });
// The live-web browser (@agentool/tools-preview/browser, issue 31): a separate opt-in entry that
// needs the host's guarded transport, mounted for agents that must log in or fill forms; counted
// beside the set (its own row and the set with it), not in issue 28's "every family" budget.
const browserTools = [
  createBrowserTool({ transport: async () => Promise.reject(new Error("unused")) }),
];
rows.push({ label: "  browser (./browser, opt-in)", ...measureTools(browserTools) });
rows.push({ label: "  every family + browser", ...measureTools([...everyTool, ...browserTools]) });
// The code family (@agentool/tools-code, issue 32): seven tools for agents that navigate and
// refactor code by structure, opt-in in agentool-mcp (--families code) as in a host. Counted
// beside the set (its own row and the set with it), not in issue 28's "every family" budget:
// that budget was set for the 40 tools of the families that existed then, and these seven alone
// cost about a quarter of it — a host that mounts them has chosen structure over a lean prompt.
const codeTools = createCodeTools({ root, mode: "read-write" });
rows.push({ label: "  family code (opt-in, read-write)", ...measureTools(codeTools) });
rows.push({
  label: "  family code, read-only",
  ...measureTools(createCodeTools({ root, mode: "read-only" })),
});
rows.push({ label: "  every family + code", ...measureTools([...everyTool, ...codeTools]) });
// The office family (@agentool/tools-office, issue 33): Word, Excel, PowerPoint, OpenDocument,
// PDF, notebooks and images read as Markdown, written and edited in place — opt-in in
// agentool-mcp (--families office, or documents) as in a host. Counted beside the set (its own
// rows and the set with it), not in issue 28's "every family" budget: that budget was set for the
// families an agent that edits code and text needs in every conversation; read_document alone
// is the largest definition after the fs family's, and an agent whose users send no office files
// never calls these — a host that mounts them has chosen documents.
const officeTools = createOfficeTools({ root, mode: "read-write" });
rows.push({ label: "  family office (opt-in, read-write)", ...measureTools(officeTools) });
rows.push({
  label: "  family office, read-only",
  ...measureTools(createOfficeTools({ root, mode: "read-only" })),
});
rows.push({ label: "  every family + office", ...measureTools([...everyTool, ...officeTools]) });
// The design family (@agentool/tools-design, issue 34): svg_read offline, and with the host's
// Figma token design_read, design_tokens and design_export (nothing is fetched to list them) —
// opt-in in agentool-mcp (--families design) as in a host. The gui family (@agentool/tools-gui,
// issue 34): the computer tool, made here on a display that is only a size (1280×800, the
// tool's default box: its definition states the screenshot size; nothing runs on it, no X
// needed); a display that reads accessibility text (AT-SPI) adds read_window to it. Both are
// counted beside the set (their own rows and the set with each), not in issue 28's "every
// family" budget, like code and office: an agent given no design files or no desktop never
// calls them.
const FIGMA_TOKEN = "figd_bench-unused";
const designTools = createDesignTools({ root, figmaToken: FIGMA_TOKEN });
rows.push({ label: "  family design (opt-in, Figma token)", ...measureTools(designTools) });
rows.push({
  label: "  family design, no token (svg_read)",
  ...measureTools(createDesignTools({ root })),
});
rows.push({ label: "  every family + design", ...measureTools([...everyTool, ...designTools]) });
const sizedDisplay = sizedTestDisplay({ width: 1280, height: 800 });
const notRun = () => Promise.reject(new Error("unused: only the definition is read"));
const guiTools = [createComputerTool({ display: sizedDisplay })];
rows.push({ label: "  family gui (opt-in, computer)", ...measureTools(guiTools) });
rows.push({
  label: "  gui with read_window (AT-SPI display)",
  ...measureTools([
    createComputerTool({ display: { ...sizedDisplay, accessibility: { readWindow: notRun } } }),
  ]),
});
rows.push({ label: "  every family + gui", ...measureTools([...everyTool, ...guiTools]) });
const defaults = measureListed(await listTools([oursBin, "--root", root]));
rows.push({ label: "agentool-mcp defaults, over MCP", ...defaults });
const defaultsMemory = measureListed(
  await listTools([oursBin, "--root", root, "--memory-dir", memory]),
);
rows.push({ label: "agentool-mcp defaults + --memory-dir", ...defaultsMemory });
const codeOverMcp = measureListed(await listTools([oursBin, "--root", root, "--families", "code"]));
rows.push({ label: "  agentool-mcp --families code", ...codeOverMcp });
const officeOverMcp = measureListed(
  await listTools([oursBin, "--root", root, "--families", "office"]),
);
rows.push({ label: "  agentool-mcp --families office", ...officeOverMcp });
// design over MCP without a token (svg_read) and with one in read-write mode (all four); gui
// over MCP needs a display to start, so it is counted in process only (above).
const designOverMcp = measureListed(
  await listTools([oursBin, "--root", root, "--families", "design"]),
);
rows.push({ label: "  agentool-mcp --families design", ...designOverMcp });
const designTokenOverMcp = measureListed(
  await listTools([oursBin, "--root", root, "--families", "design", "--mode", "read-write"], {
    FIGMA_API_KEY: FIGMA_TOKEN,
  }),
);
rows.push({ label: "  … design, FIGMA_API_KEY, read-write", ...designTokenOverMcp });
// The default families with office added (what serving it by default would cost every
// conversation), read-only and read-write.
const defaultFamilies = "core,fs,git,web,knowledge,interact";
const defaultsOffice = measureListed(
  await listTools([oursBin, "--root", root, "--families", `${defaultFamilies},office`]),
);
rows.push({ label: "  agentool-mcp defaults + office", ...defaultsOffice });
const defaultsOfficeWrite = measureListed(
  await listTools([
    oursBin,
    "--root",
    root,
    "--families",
    `${defaultFamilies},office`,
    "--mode",
    "read-write",
  ]),
);
rows.push({ label: "  … + office, read-write", ...defaultsOfficeWrite });
const defaultsWrite = measureListed(
  await listTools([oursBin, "--root", root, "--mode", "read-write"]),
);
rows.push({ label: "  agentool-mcp defaults, read-write", ...defaultsWrite });
const reference = measureListed(await listTools([referenceBin, root]));
rows.push({ label: "MCP reference filesystem server", ...reference });

const number = (value) => value.toLocaleString("en-US");
console.log("o200k tokens of the tool definitions (JSON), per provider");
console.log(
  `${"set".padEnd(40)} ${"tools".padStart(5)} ${"OpenAI".padStart(8)} ${"Anthropic".padStart(9)} ${"MCP wire".padStart(9)}`,
);
for (const row of rows) {
  console.log(
    `${row.label.padEnd(40)} ${String(row.tools).padStart(5)} ${number(row.openai).padStart(8)} ${number(row.anthropic).padStart(9)} ${(row.mcp === undefined ? "—" : number(row.mcp)).padStart(9)}`,
  );
}
console.log(
  `${"Claude Code built-ins (stated, issue 28)".padEnd(40)} ${String(CLAUDE_CODE_STATED.tools).padStart(5)} ${number(CLAUDE_CODE_STATED.openai).padStart(8)} ${"—".padStart(9)} ${"—".padStart(9)}`,
);
console.log("\nlargest tools (OpenAI tokens), every family mounted:");
for (const tool of [...everything.perTool].sort((a, b) => b.openai - a.openai).slice(0, 12)) {
  console.log(`  ${tool.name.padEnd(24)} ${number(tool.openai).padStart(6)}`);
}
const allMet = everything.openai <= ALL_FAMILIES_TARGET;
const defaultMet = defaults.mcp <= DEFAULT_MCP_TARGET;
console.log(
  `\nevery family, OpenAI: ${number(everything.openai)} (target ≤ ${number(ALL_FAMILIES_TARGET)}): ${allMet ? "met" : "MISS"}`,
);
console.log(
  `defaults over MCP, everything sent: ${number(defaults.mcp)} (target ≤ ${number(DEFAULT_MCP_TARGET)}): ${defaultMet ? "met" : "MISS"}`,
);
process.exitCode = allMet && defaultMet ? 0 : 1;
