// Run by src/node-versions.int.test.ts under each supported Node binary (plain ESM, no types to
// strip): imports every published entry from the built workspace, makes one real call per family,
// talks to the MCP server's CLI over stdio, and prints one JSON report on stdout. A step that
// throws is reported with its stack (the test names it), never hidden.
//
//   <node> runtime-check.mjs '{"entries":[{"packageName":…,"subpath":…,"file":…}],"cli":…,"x11":true}'
//
// `file` is an entry's `exports` target and `cli` the MCP server's bin (`dist/bin/agentool-mcp.js`), both absolute;
// `x11` says whether the X programs are here (the gui step is left out of the report when not).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { designTools, guiTools } from "./design-gui-checks.mjs";

/** Real files nobody here wrote, searched by tools-knowledge (git's README ships with git). */
const DOCUMENTS = [
  { from: "/usr/share/doc/git/README.md", to: "git-readme.md" },
  { from: "/usr/share/doc/mount/mount.txt", to: "mount.txt" },
];

/** The page the HTTP server on 127.0.0.1 serves to web_fetch. */
const PAGE =
  "<!doctype html><html><head><title>Release notes</title></head><body><article>" +
  "<h1>Release notes</h1><p>Version 3 adds the frobnicate command, which reticulates splines " +
  "in parallel.</p><p>It also fixes a crash on startup when the configuration file is empty.</p>" +
  "</article></body></html>";

/** @type {{ entries: Array<{ packageName: string, subpath: string, file: string }>, cli: string, x11?: boolean }} */
const { entries, cli, x11 } = JSON.parse(process.argv[2] ?? "{}");
/** @type {Map<string, Record<string, unknown>>} each entry's module, by `<package><subpath>` */
const modules = new Map();
const workspace = mkdtempSync(join(tmpdir(), "agentool-node-versions-"));

/**
 * Runs one step and keeps its outcome: the value, or the error's stack; and how long it took.
 *
 * @param {() => Promise<unknown>} step - the step
 * @returns {Promise<unknown>} `{ value, milliseconds }` or `{ error, milliseconds }`
 */
async function attempt(step) {
  const started = performance.now();
  const milliseconds = () => Math.round(performance.now() - started);
  try {
    const value = await step();
    return { value, milliseconds: milliseconds() };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { error: message, milliseconds: milliseconds() };
  }
}

/**
 * An imported entry's export, by name.
 *
 * @param {string} key - `<package><subpath>`, e.g. `@agentool/tools-fs/node`
 * @param {string} name - the export
 * @returns {any} the exported value
 */
function exported(key, name) {
  const value = modules.get(key)?.[name];
  if (value === undefined) throw new Error(`${key} did not load or has no export ${name}`);
  return value;
}

/**
 * Runs one tool and keeps what a model and a host see.
 *
 * @param {Array<{ name: string, run: Function, renderResult: Function }>} tools - a family's tools
 * @param {string} name - the tool to call
 * @param {Record<string, unknown>} input - its input
 * @returns {Promise<{ result: unknown, text: string }>} the envelope and its rendering
 */
async function call(tools, name, input) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} among ${tools.map((t) => t.name)}`);
  const result = await tool.run(input);
  return { result, text: tool.renderResult(result) };
}

/**
 * Imports one entry (`./package.json` as JSON) and lists its export names.
 *
 * @param {{ packageName: string, subpath: string, file: string }} entry - the entry
 * @returns {Promise<{ names: string[], packageName?: string }>} its exports
 */
async function importEntry(entry) {
  const url = pathToFileURL(entry.file).href;
  const module = entry.file.endsWith(".json")
    ? await import(url, { with: { type: "json" } })
    : await import(url);
  modules.set(`${entry.packageName}${entry.subpath.slice(1)}`, module);
  return {
    names: Object.keys(module).sort(),
    ...(entry.file.endsWith(".json") ? { packageName: module.default.name } : {}),
  };
}

/** tools-fs: read_file on a file in a temporary root. */
async function readFile() {
  const root = join(workspace, "files");
  mkdirSync(root);
  writeFileSync(join(root, "notes.md"), "# Notes\nfirst line\nsecond line\n");
  const tools = exported("@agentool/tools-fs/node", "createNodeFsTools")({ root });
  return call(tools, "read_file", { path: "notes.md" });
}

/** tools-git: git_status on a fresh repository holding one untracked file. */
async function gitStatus() {
  const root = join(workspace, "repository");
  execFileSync("git", ["init", "--quiet", "--initial-branch=main", root]);
  writeFileSync(join(root, "notes.md"), "# Notes\n");
  const tools = exported("@agentool/tools-git", "createGitTools")({ root });
  return call(tools, "git_status", {});
}

/**
 * tools-code: find_symbol (ripgrep shortlists, a tree-sitter grammar's .wasm confirms) and
 * ast_search (@ast-grep/napi's native binary) on one TypeScript file.
 */
async function codeTools() {
  const root = join(workspace, "code");
  mkdirSync(root);
  writeFileSync(
    join(root, "count.ts"),
    "export class Counter {\n  add(items: string[]): number {\n    return items.length;\n  }\n}\n",
  );
  const tools = exported("@agentool/tools-code", "createCodeTools")({ root });
  return {
    symbol: await call(tools, "find_symbol", { name: "Counter.add" }),
    search: await call(tools, "ast_search", { pattern: "$X.length", language: "typescript" }),
  };
}

/**
 * A one-page PDF showing `text` in Helvetica, offsets computed so pdf.js reads it without repair.
 *
 * @param {string} text - the page's one line
 * @returns {Buffer} the file
 */
function onePagePdf(text) {
  const content = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/**
 * tools-office: read_document on a PDF (PDFium's wasm build, in the reader's worker thread),
 * read_image on an SVG (sharp's native binary rasterises it), and a .docx written by
 * write_document, edited by edit_document and read back.
 */
async function officeTools() {
  const root = join(workspace, "office");
  mkdirSync(root);
  writeFileSync(join(root, "notice.pdf"), onePagePdf("Office hours moved to Thursday."));
  writeFileSync(
    join(root, "dot.svg"),
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c00"/></svg>',
  );
  const tools = exported(
    "@agentool/tools-office",
    "createOfficeTools",
  )({
    root,
    mode: "read-write",
  });
  const pdf = await call(tools, "read_document", { path: "notice.pdf" });
  const image = await call(tools, "read_image", { path: "dot.svg" });
  await call(tools, "write_document", {
    path: "notes.docx",
    markdown: "# Notes\n\nTally listens on port 3000.\n",
  });
  await call(tools, "edit_document", {
    path: "notes.docx",
    old_text: "port 3000",
    new_text: "port 8080",
  });
  const docx = await call(tools, "read_document", { path: "notes.docx" });
  const { data, ...rest } = image.result;
  return {
    pdf,
    // The image's pixels stay out of the report: its size and how it was shown are enough.
    image: {
      result: {
        ...rest,
        ...(data === undefined
          ? {}
          : {
              data: {
                format: data.format,
                shown_as: data.shown_as,
                shown_width: data.shown_width,
                shown_height: data.shown_height,
              },
            }),
      },
      text: image.text,
    },
    docx,
  };
}

/** tools-knowledge: search_knowledge over two documents from /usr/share/doc. */
async function searchKnowledge() {
  const root = join(workspace, "corpus");
  mkdirSync(root);
  for (const { from, to } of DOCUMENTS) copyFileSync(from, join(root, to));
  const source = exported("@agentool/tools-knowledge/node", "createCorpusSource")({ root });
  const tools = [exported("@agentool/tools-knowledge", "createSearchKnowledgeTool")({ source })];
  try {
    return {
      git: await call(tools, "search_knowledge", { query: "distributed revision control system" }),
      mount: await call(tools, "search_knowledge", { query: "umount maintenance mode" }),
    };
  } finally {
    await source.close();
  }
}

/** tools-web: web_fetch of a page from an HTTP server on 127.0.0.1 (allowed by `allowHosts`). */
async function webFetch() {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(PAGE);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
    const create = exported("@agentool/tools-web/node", "createNodeWebFetchTool");
    const outcome = await call([create({ allowHosts: ["127.0.0.1"] })], "web_fetch", {
      url: `http://127.0.0.1:${port}/notes`,
    });
    return { port, ...outcome };
  } finally {
    server.close();
  }
}

/** tools-core, tools-interact, contract and an adapter: one basic call each. */
async function basicCalls() {
  const core = exported("@agentool/tools-core", "createCoreTools")();
  const interact = exported(
    "@agentool/tools-interact",
    "createInteractTools",
  )({
    handler: { ask: () => "Staging", confirm: () => true, notify: () => undefined },
  });
  const ok = exported("@agentool/contract", "ok");
  const addNumbers = exported(
    "@agentool/contract",
    "defineTool",
  )({
    name: "add_numbers",
    description: "Adds two numbers. Use it for every sum.",
    input: z.object({ a: z.number(), b: z.number() }),
    execute: async (/** @type {{ a: number, b: number }} */ { a, b }) => ok({ sum: a + b }),
    render: (/** @type {{ sum: number }} */ data) => `Sum: ${data.sum}`,
  });
  return {
    updatePlan: await call(core, "update_plan", {
      steps: [
        { step: "Read the notes", status: "completed" },
        { step: "Write the summary", status: "in_progress" },
      ],
    }),
    askUser: await call(interact, "ask_user", {
      question: "Where should I deploy?",
      options: ["Staging", "Production"],
    }),
    contract: await call([addNumbers], "add_numbers", { a: 2, b: 3 }),
    refusal: await call([addNumbers], "add_numbers", { a: "two" }),
    openAi: exported("@agentool/adapters/openai", "toOpenAiTools")([addNumbers]),
  };
}

/**
 * The MCP server's CLI under this same Node, over stdio: initialize, tools/list, one tools/call.
 *
 * @param {string} cli - `apps/mcp-server/dist/cli.js`
 */
async function mcpServer(cli) {
  const root = join(workspace, "repository");
  const child = spawn(
    process.execPath,
    [cli, "--root", root, "--fixed-root", "--families", "core,fs,git,web"],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  /** @type {Map<number, (message: any) => void>} */
  const waiting = new Map();
  let buffered = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      waiting.get(message.id)?.(message);
    }
  });
  const send = (/** @type {Record<string, unknown>} */ message) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const request = (/** @type {number} */ id, /** @type {string} */ method, params = {}) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer\n${stderr}`)), 20_000);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      send({ id, method, params });
    });
  try {
    const initialize = await request(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "node-versions-test", version: "1.0.0" },
    });
    send({ method: "notifications/initialized" });
    const list = await request(2, "tools/list");
    const status = await request(3, "tools/call", { name: "git_status", arguments: {} });
    child.stdin.end();
    const [code] = await once(child, "close");
    return { initialize, list, status, code, stderr };
  } finally {
    child.kill();
  }
}

const report = { version: process.version, execPath: process.execPath };
try {
  report.entries = [];
  for (const entry of entries)
    report.entries.push({ ...entry, ...(await attempt(() => importEntry(entry))) });
  report.readFile = await attempt(readFile);
  report.gitStatus = await attempt(gitStatus);
  report.codeTools = await attempt(codeTools);
  report.officeTools = await attempt(officeTools);
  report.designTools = await attempt(() => designTools(exported, call, workspace));
  if (x11 === true) report.guiTools = await attempt(() => guiTools(exported, call));
  report.searchKnowledge = await attempt(searchKnowledge);
  report.webFetch = await attempt(webFetch);
  report.basicCalls = await attempt(basicCalls);
  report.mcpServer = await attempt(() => mcpServer(cli));
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(report)}\n`);
