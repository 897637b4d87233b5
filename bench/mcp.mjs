// agentool-mcp vs the MCP reference filesystem server, side by side (issue 11, Benchmark).
//
// One generated workspace (a 3,000-entry directory, a 10,000-line text file, a 3,000-file tree),
// both servers spawned over stdio and driven by the same SDK Client: ours as
// `agentool-mcp --root <ws> --families fs`, the reference `@modelcontextprotocol/server-filesystem`
// with the workspace as its allowed directory. Per operation it measures the round trip of one
// tools/call (median and p95 over BENCH_MCP_CALLS calls, default 50, the two servers interleaved
// call by call so machine noise hits both alike, after a warm-up) and the characters on the wire
// (JSON.stringify of the tools/call result), and checks that both answers carry the same
// information. Also the size of tools/list. Then the rows of issue 29 with their targets
// (lib/mcp-target-rows.mjs, through the shared discipline: ratios inside one run, rounds until
// the spread is under 10%, rounds refused while another process is busy). Not run by `pnpm test`.
//
// Run: pnpm bench mcp   (builds the server and its dependencies first)
// Quick run: BENCH_MCP_CALLS=10 BENCH_MCP_STARTS=3 pnpm bench mcp   (BENCH_ALLOW_LOAD=1 on a busy machine)
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { createAgentoolMcpServer } from "@agentool/mcp-server";
import { createNodeFsTools } from "@agentool/tools-fs/node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { benchHeader } from "./lib/discipline.mjs";
import { runTargetRows } from "./lib/mcp-target-rows.mjs";

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 50);
const WARM_UP = 10;
const repositoryRoot = resolve(import.meta.dirname, "..");
const oursBin = join(repositoryRoot, "apps", "mcp-server", "dist", "bin", "agentool-mcp.js");
const require = createRequire(import.meta.url);
const referenceBin = join(
  dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist",
  "index.js",
);
const referenceVersion = require("@modelcontextprotocol/server-filesystem/package.json").version;

// ── the workspace ────────────────────────────────────────────────────────────────────────────
const workspace = realpathSync(mkdtempSync(join(tmpdir(), "agentool-bench-mcp-")));
process.on("exit", () => rmSync(workspace, { recursive: true, force: true }));

const PAGE_LINES = 10_000;
const pageLine = (number) =>
  `line ${String(number).padStart(5, "0")}: the quick brown fox jumps over the lazy dog`;
writeFileSync(
  join(workspace, "page.txt"),
  `${Array.from({ length: PAGE_LINES }, (_, index) => pageLine(index + 1)).join("\n")}\n`,
);

// 3,000 entries in one directory: 100 subdirectories and 2,900 files.
const WIDE_DIRECTORIES = 100;
const WIDE_FILES = 2_900;
mkdirSync(join(workspace, "wide"));
for (let index = 0; index < WIDE_DIRECTORIES; index += 1) {
  mkdirSync(join(workspace, "wide", `folder-${String(index).padStart(3, "0")}`));
}
for (let index = 0; index < WIDE_FILES; index += 1) {
  writeFileSync(join(workspace, "wide", `entry-${String(index).padStart(4, "0")}.txt`), "x\n");
}
const wideNames = [
  ...Array.from(
    { length: WIDE_DIRECTORIES },
    (_, index) => `folder-${String(index).padStart(3, "0")}`,
  ),
  ...Array.from(
    { length: WIDE_FILES },
    (_, index) => `entry-${String(index).padStart(4, "0")}.txt`,
  ),
];

// A tree of 3,000 files (30 packages × 100 files under src/); every 20th one is Markdown.
const treeFiles = [];
for (let folder = 0; folder < 30; folder += 1) {
  const directory = join("tree", `package-${String(folder).padStart(2, "0")}`, "src");
  mkdirSync(join(workspace, directory), { recursive: true });
  for (let index = 0; index < 100; index += 1) {
    const number = folder * 100 + index;
    const name = `module-${String(number).padStart(4, "0")}.${number % 20 === 0 ? "md" : "ts"}`;
    writeFileSync(join(workspace, directory, name), `export const value${number} = ${number};\n`);
    treeFiles.push(`${directory}/${name}`);
  }
}
const treeMarkdown = treeFiles.filter((file) => file.endsWith(".md")).sort();

const fixturesMadeAt = Date.now();

// ── the servers ──────────────────────────────────────────────────────────────────────────────
async function connect(label, args) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: workspace,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const client = new Client({ name: "agentool-bench", version: "0.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${label} did not start: ${error.message}\n${stderr}`);
  }
  return { label, client, stderr: () => stderr };
}

const ours = existsSync(oursBin)
  ? await connect("agentool-mcp", [oursBin, "--root", workspace, "--families", "fs"])
  : undefined;
const reference = await connect(`server-filesystem ${referenceVersion}`, [referenceBin, workspace]);

async function call(server, name, args) {
  const started = performance.now();
  const result = await server.client.callTool({ name, arguments: args });
  const elapsed = performance.now() - started;
  if (result.isError) {
    const text = result.content?.map((block) => block.text ?? "").join("\n");
    throw new Error(`${server.label} ${name} failed: ${text}\n${server.stderr()}`);
  }
  return { result, elapsed };
}

const textOf = (result) =>
  (result.content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");

// ── the operations: the same information from each server ───────────────────────────────────
/** Throws when an answer does not carry the information it should. */
function expect(condition, message) {
  if (!condition) throw new Error(`equivalence check failed: ${message}`);
}

const pageCheck = (first, last) => (text, label) => {
  expect(text.includes(pageLine(first)), `${label} page lacks line ${first}`);
  expect(text.includes(pageLine(last)), `${label} page lacks line ${last}`);
  expect(!text.includes(pageLine(last + 1)), `${label} page goes past line ${last}`);
};
const listingCheck = (text, label) => {
  for (const name of wideNames) expect(text.includes(name), `${label} listing lacks ${name}`);
};
const searchCheck = (text, label) => {
  const found = [...new Set(text.match(/tree\/[\w/-]+\.md/g) ?? [])].sort();
  expect(
    JSON.stringify(found) === JSON.stringify(treeMarkdown),
    `${label} found ${found.length} Markdown files, expected ${treeMarkdown.length}`,
  );
};

const operations = [
  {
    label: "page of a file (200 lines)",
    ours: ["read_file", { path: "page.txt", offset: 1, limit: 200 }],
    reference: ["read_text_file", { path: join(workspace, "page.txt"), head: 200 }],
    check: pageCheck(1, 200),
  },
  {
    label: "page at line 5,001 (200 lines)",
    ours: ["read_file", { path: "page.txt", offset: 5_001, limit: 200 }],
    reference: undefined, // the reference reads only a head or a tail, no page in the middle
    check: pageCheck(5_001, 5_200),
  },
  {
    label: "3,000-entry directory, all entries",
    ours: ["list_directory", { path: "wide", limit: 3_000 }],
    reference: ["list_directory", { path: join(workspace, "wide") }],
    check: listingCheck,
  },
  {
    label: "3,000-entry directory, with sizes",
    ours: ["list_directory", { path: "wide", limit: 3_000 }],
    reference: ["list_directory_with_sizes", { path: join(workspace, "wide") }],
    check: listingCheck,
  },
  {
    label: "3,000-entry directory, our default page",
    ours: ["list_directory", { path: "wide" }],
    reference: ["list_directory", { path: join(workspace, "wide") }],
    check: undefined, // ours is the first page (with the marker naming the next call)
    partial: true,
  },
  {
    label: "name search, 150 of 3,000 files",
    ours: ["glob_search", { pattern: "**/*.md", path: "tree" }],
    reference: ["search_files", { path: join(workspace, "tree"), pattern: "**/*.md" }],
    check: searchCheck,
  },
];

const percentile = (values, fraction) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
};

async function measure(operation) {
  const sides = [
    ours && operation.ours ? { server: ours, request: operation.ours, key: "ours" } : undefined,
    operation.reference
      ? { server: reference, request: operation.reference, key: "reference" }
      : undefined,
  ].filter(Boolean);
  const figures = {};
  for (const side of sides) {
    const { result } = await call(side.server, ...side.request);
    if (operation.check) operation.check(textOf(result), side.server.label);
    figures[side.key] = { characters: JSON.stringify(result).length, times: [], result };
    for (let index = 1; index < WARM_UP; index += 1) await call(side.server, ...side.request);
  }
  for (let index = 0; index < CALLS; index += 1) {
    const order = index % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const { result, elapsed } = await call(side.server, ...side.request);
      figures[side.key].times.push(elapsed);
      if (JSON.stringify(result).length !== figures[side.key].characters) {
        figures[side.key].variable = true;
      }
    }
  }
  for (const figure of Object.values(figures)) {
    figure.median = percentile(figure.times, 0.5);
    figure.p95 = percentile(figure.times, 0.95);
  }
  return figures;
}

// ── the run ──────────────────────────────────────────────────────────────────────────────────
console.log(
  benchHeader(
    "agentool-mcp vs @modelcontextprotocol/server-filesystem over stdio (pnpm bench mcp)",
  ),
);
console.log(
  `Node ${process.version}; ${CALLS} interleaved calls per operation after ${WARM_UP} warm-up calls; workspace ${workspace}`,
);
console.log(
  `ours:      ${ours ? `agentool-mcp (${oursBin.slice(repositoryRoot.length + 1)}) --root <ws> --families fs` : `NOT BUILT (${oursBin} missing) — reference only`}`,
);
console.log(`reference: @modelcontextprotocol/server-filesystem ${referenceVersion} <ws>\n`);

const listSize = async (server) => JSON.stringify(await server.client.listTools()).length;
const toolsList = {
  ours: ours ? await listSize(ours) : undefined,
  reference: await listSize(reference),
};
const oursTools = ours ? (await ours.client.listTools()).tools.map((tool) => tool.name) : [];
// The reference always lists its write tools; ours lists them only in read-write mode.
let oursReadWrite;
if (ours) {
  const server = await connect("agentool-mcp --mode read-write", [
    oursBin,
    "--root",
    workspace,
    "--families",
    "fs",
    "--mode",
    "read-write",
  ]);
  const listed = await server.client.listTools();
  oursReadWrite = { characters: JSON.stringify(listed).length, tools: listed.tools.length };
  await server.client.close();
}
const referenceTools = (await reference.client.listTools()).tools.map((tool) => tool.name);

const results = [];
// A workspace as an agent finds it: nothing written in the last 2 s. The seams trust what they
// remember of a file or folder (a page index, a folder's names) only once it has been unchanged
// that long (git's racy rule); right after writing the fixtures every call would read again.
await new Promise((resolve) =>
  setTimeout(resolve, Math.max(0, fixturesMadeAt + 2_100 - Date.now())),
);
for (const operation of operations) results.push({ operation, figures: await measure(operation) });

const milliseconds = (value) => (value === undefined ? "—" : `${value.toFixed(2)} ms`);
const count = (value) => (value === undefined ? "—" : value.toLocaleString("en-US"));
const ratio = (mine, theirs) =>
  mine === undefined || theirs === undefined ? "—" : `${(mine / theirs).toFixed(2)}×`;
const columns = [40, 11, 11, 7, 11, 11, 7, 10, 10, 7];
const line = (cells) =>
  cells
    .map((cell, index) => (index === 0 ? cell.padEnd(columns[0]) : cell.padStart(columns[index])))
    .join(" ");

console.log(
  line([
    "operation",
    "ours med",
    "ref med",
    "ratio",
    "ours p95",
    "ref p95",
    "ratio",
    "ours chars",
    "ref chars",
    "ratio",
  ]),
);
console.log("-".repeat(columns.reduce((sum, width) => sum + width + 1, 0)));
for (const { operation, figures } of results) {
  const mine = figures.ours;
  const theirs = figures.reference;
  console.log(
    line([
      operation.label,
      milliseconds(mine?.median),
      milliseconds(theirs?.median),
      ratio(mine?.median, theirs?.median),
      milliseconds(mine?.p95),
      milliseconds(theirs?.p95),
      ratio(mine?.p95, theirs?.p95),
      count(mine?.characters),
      count(theirs?.characters),
      ratio(mine?.characters, theirs?.characters),
    ]),
  );
}
console.log(
  line([
    "tools/list, ours read-only (chars)",
    "",
    "",
    "",
    "",
    "",
    "",
    count(toolsList.ours),
    count(toolsList.reference),
    ratio(toolsList.ours, toolsList.reference),
  ]),
);
console.log(
  line([
    "tools/list, ours read-write (chars)",
    "",
    "",
    "",
    "",
    "",
    "",
    count(oursReadWrite?.characters),
    count(toolsList.reference),
    ratio(oursReadWrite?.characters, toolsList.reference),
  ]),
);

// What each answer is, so the comparison can be judged.
const shape = (figure) => {
  if (figure === undefined) return "—";
  const { result } = figure;
  const kinds = (result.content ?? []).map((block) => block.type).join("+") || "no content";
  const structured = result.structuredContent === undefined ? "" : " + structuredContent";
  const text = textOf(result);
  const lines = text.split("\n");
  const quote = (value) => JSON.stringify(value.length > 90 ? `${value.slice(0, 90)}…` : value);
  return `${kinds}${structured}, ${text.length.toLocaleString("en-US")} characters of text, ${lines.length.toLocaleString("en-US")} lines\n      first ${quote(lines[0] ?? "")}\n      last  ${quote(lines.at(-1) ?? "")}`;
};
console.log("\nWhat each answer carries:");
for (const { operation, figures } of results) {
  console.log(`- ${operation.label}`);
  console.log(`    ours:      ${shape(figures.ours)}`);
  console.log(
    `    reference: ${operation.reference ? shape(figures.reference) : "(no equivalent call)"}`,
  );
}
console.log(
  `\ntools/list: ours ${oursTools.length} tools (${oursTools.join(", ") || "—"}), ${oursReadWrite?.tools ?? "—"} in read-write mode; reference ${referenceTools.length} tools (${referenceTools.join(", ")}).`,
);
console.log(
  [
    "",
    "Notes: a page of a file — ours numbers the lines under a header (path, line range, total, sha) and sends",
    "them once; the reference sends the raw lines as text and again as structuredContent. The listing — ours",
    "gives type, name and size (directories first), the reference [DIR]/[FILE] and the name, twice (its",
    "list_directory_with_sizes adds the sizes, as ours has them); ours' default page is the first 500 entries",
    "with a marker naming the next call. The search — ours lists workspace paths",
    "newest first under a count; the reference full absolute paths, twice. Every answer above was checked to",
    "carry the lines / entries / matches it should.",
    "",
    "Reproduce: pnpm bench mcp   (BENCH_MCP_CALLS=<n> to change the number of calls)",
  ].join("\n"),
);

const variable = results.filter(({ figures }) =>
  Object.values(figures).some((figure) => figure.variable),
);
if (variable.length > 0) {
  console.log(
    `(answers varied in size between calls: ${variable.map(({ operation }) => operation.label).join(", ")})`,
  );
}

if (ours) {
  await runTargetRows({
    ours,
    reference,
    oursBin,
    referenceBin,
    workspace,
    createAgentoolMcpServer,
    createNodeFsTools,
  });
}

await Promise.all([ours?.client.close(), reference.client.close()]);
