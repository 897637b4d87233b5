// The supported Node versions for real (engines ">=20.19": 20.19, 22 and 24): Node 22 and Node 24
// come from npm on first use (scripts/node-runtimes.mjs, into the git-ignored .cache), and each —
// like the Node running the suite — runs ./node-versions/runtime-check.mjs, which imports every
// `exports` subpath of every published package from the built workspace, makes one real call per
// family (read_file, git_status, find_symbol and ast_search, read_document on a PDF and a .docx
// and read_image on an SVG, design_read and design_tokens against tools-design's recorded Figma
// server and svg_read, computer's screenshot of an Xvfb when X is here, search_knowledge over
// /usr/share/doc, web_fetch from 127.0.0.1, update_plan, ask_user, a contract tool, an adapter)
// and drives the MCP server's CLI over stdio.
// The test asserts the binary's version, every entry's exports, and each call's real output.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { x11TestSkipReason } from "@agentool/tools-gui/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { type PublishedEntry, publishedEntries } from "./node-versions/published-entries.js";

const repository = resolve(import.meta.dirname, "../../..");
const RUNTIMES_MODULE = join(repository, "scripts", "node-runtimes.mjs");
const CHECK_SCRIPT = fileURLToPath(new URL("./node-versions/runtime-check.mjs", import.meta.url));
const CLI = join(repository, "apps", "mcp-server", "dist", "bin", "agentool-mcp.js");
/** A first run downloads two Node binaries from npm (~60 MB each). */
const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** Why the gui step is left out here (an empty Xvfb, no Tk app), or undefined. */
const X11_MISSING = x11TestSkipReason("node-versions gui step", { tk: false });
/** The packages whose entries must be among those checked (a new package adds itself). */
const PUBLISHED_PACKAGES = [
  "@agentool/adapters",
  "@agentool/contract",
  "@agentool/tools-code",
  "@agentool/tools-core",
  "@agentool/tools-design",
  "@agentool/tools-fs",
  "@agentool/tools-git",
  "@agentool/tools-gui",
  "@agentool/tools-interact",
  "@agentool/tools-knowledge",
  "@agentool/tools-office",
  "@agentool/tools-preview",
  "@agentool/tools-web",
  "@agentool/mcp-server",
];

/** A step of the check script: its value, or the error it threw. */
interface Step<T> {
  value?: T;
  error?: string;
  milliseconds: number;
}

/** A tool's envelope and what the model reads. */
interface ToolCall {
  result: { success: boolean; data?: Record<string, unknown>; error?: { code: string } };
  text: string;
}

/** One search_knowledge hit. */
interface Hit {
  file: string;
  start_line: number;
  excerpt: string;
}

/** A JSON-RPC answer of the MCP server. */
interface RpcAnswer {
  result?: Record<string, unknown>;
  error?: unknown;
}

/** What runtime-check.mjs prints. */
interface RuntimeReport {
  version: string;
  execPath: string;
  entries: Array<PublishedEntry & Step<{ names: string[]; packageName?: string }>>;
  readFile: Step<ToolCall>;
  gitStatus: Step<ToolCall>;
  codeTools: Step<{ symbol: ToolCall; search: ToolCall }>;
  officeTools: Step<{ pdf: ToolCall; image: ToolCall; docx: ToolCall }>;
  designTools: Step<{ frame: ToolCall; tokens: ToolCall; svg: ToolCall }>;
  /** Absent when X is not here. */
  guiTools?: Step<{
    success: boolean;
    data: Record<string, unknown>;
    imageBytes: number;
    text: string;
    serverAlive: boolean;
  }>;
  searchKnowledge: Step<{ git: ToolCall; mount: ToolCall }>;
  webFetch: Step<ToolCall & { port: number }>;
  basicCalls: Step<{
    updatePlan: ToolCall;
    askUser: ToolCall;
    contract: ToolCall;
    refusal: ToolCall;
    openAi: unknown;
  }>;
  mcpServer: Step<{
    initialize: RpcAnswer;
    list: RpcAnswer;
    status: RpcAnswer;
    code: number | null;
    stderr: string;
  }>;
}

/**
 * Runs the check script under one Node binary.
 *
 * @param node - the binary
 * @param entries - the entries to import
 * @returns its report
 * @throws Error with the script's output when it fails or outlives 60 s
 */
function runCheck(node: string, entries: PublishedEntry[]): Promise<RuntimeReport> {
  return new Promise((resolvePromise, reject) => {
    const input = JSON.stringify({ entries, cli: CLI, x11: X11_MISSING === undefined });
    const child = spawn(node, [CHECK_SCRIPT, input], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${node} ${CHECK_SCRIPT} did not finish in 60 s:\n${stderr}`));
    }, 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) {
        reject(new Error(`${node} ${CHECK_SCRIPT} exited with ${code}:\n${stdout}\n${stderr}`));
      } else {
        resolvePromise(JSON.parse(line) as RuntimeReport);
      }
    });
  });
}

/**
 * A step's value, failing with the step's own error when it threw.
 *
 * @param step - the step
 * @param name - its name, for the message
 * @returns the value
 */
function stepValue<T>(step: Step<T>, name: string): T {
  expect(step.error, `${name} threw`).toBeUndefined();
  return step.value as T;
}

/** A line of one of the real documents the knowledge search read (1-based). */
function documentLine(path: string, line: number): string {
  return readFileSync(path, "utf8").split("\n")[line - 1] ?? "";
}

const entries = publishedEntries(repository);
const reports = new Map<string, RuntimeReport>();
const runtimes: Array<{ name: string; versionPrefix: string; binary: string }> = [];

beforeAll(async () => {
  const module = (await import(pathToFileURL(RUNTIMES_MODULE).href)) as {
    provisionNodeRuntimes(): Promise<{ node22: string; node24: string }>;
  };
  const { node22, node24 } = await module.provisionNodeRuntimes();
  const current = `v${process.versions.node.split(".")[0]}.`;
  runtimes.push(
    {
      name: `the suite's Node (${process.version})`,
      versionPrefix: current,
      binary: process.execPath,
    },
    { name: "Node 22", versionPrefix: "v22.", binary: node22 },
    { name: "Node 24", versionPrefix: "v24.", binary: node24 },
  );
  // One after the other: two cores are shared with the rest of the suite.
  for (const runtime of runtimes) {
    reports.set(runtime.name, await runCheck(runtime.binary, entries));
  }
}, INSTALL_TIMEOUT_MS);

it("checks every exports subpath of every published package", () => {
  const packages = new Set(entries.map((entry) => entry.packageName));
  expect([...packages]).toEqual(expect.arrayContaining(PUBLISHED_PACKAGES));
  for (const packageName of packages) {
    const subpaths = entries.filter((entry) => entry.packageName === packageName);
    expect(subpaths.map((entry) => entry.subpath)).toContain("./package.json");
  }
  expect(entries.find((entry) => entry.subpath === "./node")?.file).toMatch(
    /\/dist\/node\/index\.js$/,
  );
});

describe.each(["the suite's Node", "Node 22", "Node 24"])("%s", (label) => {
  const report = (): RuntimeReport => {
    const runtime = runtimes.find((candidate) => candidate.name.startsWith(label));
    const found = runtime === undefined ? undefined : reports.get(runtime.name);
    if (runtime === undefined || found === undefined) throw new Error(`no report for ${label}`);
    return found;
  };

  it("runs the binary it was given, at the version it names", () => {
    const runtime = runtimes.find((candidate) => candidate.name.startsWith(label));
    expect(report().version.startsWith(runtime?.versionPrefix ?? "?")).toBe(true);
    expect(report().execPath).toBe(runtime?.binary);
  });

  it("imports every entry, with the same exports as the suite's Node", () => {
    const baseline = reports.get(runtimes[0]?.name ?? "");
    expect(report().entries.map(({ packageName, subpath }) => `${packageName} ${subpath}`)).toEqual(
      entries.map(({ packageName, subpath }) => `${packageName} ${subpath}`),
    );
    for (const [index, entry] of report().entries.entries()) {
      const loaded = stepValue(entry, `import ${entry.packageName} ${entry.subpath}`);
      expect(loaded.names.length, `${entry.packageName} ${entry.subpath}`).toBeGreaterThan(0);
      expect(loaded.names).toEqual(baseline?.entries[index]?.value?.names);
      if (entry.subpath === "./package.json") expect(loaded.packageName).toBe(entry.packageName);
    }
  });

  it("reads a file with tools-fs", () => {
    const { result, text } = stepValue(report().readFile, "read_file");
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({
      path: "notes.md",
      content: "# Notes\nfirst line\nsecond line\n",
      total: 3,
      truncated: false,
    });
    expect(text).toContain("notes.md — lines 1–3 of 3");
    expect(text).toContain("     2\tfirst line");
  });

  it("reads the status of a fresh repository with tools-git", () => {
    const { result, text } = stepValue(report().gitStatus, "git_status");
    expect(result.data).toMatchObject({
      branch: "main",
      no_commits: true,
      clean: false,
      changes: [{ file: "notes.md", status: "untracked", staged: false }],
    });
    expect(text).toBe("On branch main — no commits yet.\nUntracked:\n  notes.md");
  });

  it("finds a method and a pattern with tools-code (tree-sitter's wasm, ast-grep's native binary)", () => {
    const { symbol, search } = stepValue(report().codeTools, "tools-code");
    expect(symbol.result.success).toBe(true);
    expect(symbol.text).toBe(
      "1 definition of Counter.add:\ncount.ts:2-4  method add(items: string[]): number  (in Counter)",
    );
    expect(search.result.success).toBe(true);
    expect(search.text).toContain("count.ts:3");
    expect(search.text).toContain("$X = items");
  });

  it("reads a PDF, an SVG and a .docx with tools-office (PDFium's wasm in its worker, sharp's native binary)", () => {
    const { pdf, image, docx } = stepValue(report().officeTools, "tools-office");
    expect(pdf.result.success, pdf.text).toBe(true);
    expect(pdf.text).toMatch(/^notice\.pdf — PDF document/);
    expect(pdf.text).toContain("Office hours moved to Thursday.");
    expect(image.result.success, image.text).toBe(true);
    expect(image.result.data).toEqual({
      format: "svg",
      shown_as: "image",
      shown_width: 40,
      shown_height: 20,
    });
    expect(docx.result.success, docx.text).toBe(true);
    expect(docx.text).toContain("# Notes");
    expect(docx.text).toContain("Tally listens on port 8080.");
  });

  it("reads a recorded Figma frame and its tokens, and a local SVG, with tools-design (its ./testing server)", () => {
    const { frame, tokens, svg } = stepValue(report().designTools, "tools-design");
    expect(frame.result.success, frame.text).toBe(true);
    expect(frame.text).toContain(
      'frame "Summary card" #1:8 @0,0 448×320 size=fixed/hug column gap=16 pad=24,24,24,24',
    );
    expect(tokens.result.success, tokens.text).toBe(true);
    expect(tokens.text).toContain("--color-brand-primary: #2563eb;");
    expect(svg.result.success, svg.text).toBe(true);
    expect(svg.text).toContain("text #2 @24,40");
    expect(svg.text).toContain('"Order summary"');
  });

  it.skipIf(X11_MISSING !== undefined)(
    "takes a screenshot of its own Xvfb with tools-gui, and leaves no Xvfb after close()",
    () => {
      const shot = stepValue(report().guiTools ?? { milliseconds: 0 }, "tools-gui");
      expect(shot.success, shot.text).toBe(true);
      expect(shot.data).toMatchObject({ action: "screenshot" });
      expect(shot.text).toContain("Screen 320×200 (scale 1)");
      expect(shot.imageBytes).toBeGreaterThan(100);
      expect(shot.serverAlive).toBe(false);
    },
  );

  it("searches two documents from /usr/share/doc with tools-knowledge", () => {
    const { git, mount } = stepValue(report().searchKnowledge, "search_knowledge");
    const sources = [
      { call: git, file: "git-readme.md", path: "/usr/share/doc/git/README.md" },
      { call: mount, file: "mount.txt", path: "/usr/share/doc/mount/mount.txt" },
    ];
    for (const { call, file, path } of sources) {
      expect(call.result.success).toBe(true);
      const [best] = (call.result.data?.hits ?? []) as Hit[];
      expect(best?.file).toBe(file);
      const firstLine = documentLine(path, best?.start_line ?? 0);
      expect(firstLine.length).toBeGreaterThan(0);
      expect(best?.excerpt.startsWith(firstLine)).toBe(true);
      expect(call.text).toContain("(best first; 2 documents,");
      expect(call.text).toContain(`1. ${file}:${best?.start_line}-`);
    }
    expect(git.text).toContain("distributed revision control system");
    expect(mount.text).toContain("maintenance mode");
  });

  it("fetches a page from a server on 127.0.0.1 with tools-web", () => {
    const { result, text, port } = stepValue(report().webFetch, "web_fetch");
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({
      final_url: `http://127.0.0.1:${port}/notes`,
      title: "Release notes",
      kind: "html",
      content:
        "# Release notes\n\nVersion 3 adds the frobnicate command, which reticulates splines in parallel.\n\n" +
        "It also fixes a crash on startup when the configuration file is empty.",
    });
    expect(text).toContain("Type: HTML → Markdown");
  });

  it("runs tools-core, tools-interact, a contract tool and the OpenAI adapter", () => {
    const calls = stepValue(report().basicCalls, "basic calls");
    expect(calls.updatePlan.result.data).toMatchObject({ completed_steps: 1, total_steps: 2 });
    expect(calls.updatePlan.text).toContain("[x] Read the notes\n[~] Write the summary");
    expect(calls.askUser.result.data).toMatchObject({
      answered: true,
      selected_options: ["Staging"],
    });
    expect(calls.askUser.text).toBe("The user chose: Staging");
    expect(calls.contract.result).toEqual({ success: true, data: { sum: 5 } });
    expect(calls.contract.text).toBe("Sum: 5");
    expect(calls.refusal.result.success).toBe(false);
    expect(calls.refusal.result.error?.code).toBe("INVALID_INPUT");
    expect(calls.refusal.text).toMatch(/^Error \[INVALID_INPUT\]: .*a: expected number/);
    expect(calls.openAi).toMatchObject([
      {
        type: "function",
        function: { name: "add_numbers", parameters: { type: "object", required: ["a", "b"] } },
      },
    ]);
  });

  it("serves MCP over stdio from the CLI: initialize, tools/list, tools/call", () => {
    const server = stepValue(report().mcpServer, "mcp-server CLI");
    const manifest = JSON.parse(
      readFileSync(join(CLI, "..", "..", "..", "package.json"), "utf8"),
    ) as {
      version: string;
    };
    expect(server.initialize.result).toMatchObject({
      protocolVersion: "2025-06-18",
      serverInfo: { name: "agentool", version: manifest.version },
    });
    const names = ((server.list.result?.tools ?? []) as Array<{ name: string }>).map(
      (tool) => tool.name,
    );
    expect(names).toEqual(
      expect.arrayContaining(["think", "read_file", "git_status", "web_fetch"]),
    );
    const baseline = reports.get(runtimes[0]?.name ?? "")?.mcpServer.value?.list.result?.tools;
    expect(names).toEqual((baseline as Array<{ name: string }>).map((tool) => tool.name));
    expect(server.status.result).toMatchObject({
      content: [{ type: "text", text: "On branch main — no commits yet.\nUntracked:\n  notes.md" }],
    });
    expect(server.code).toBe(0);
    expect(server.stderr).toContain("shutting down (stdin closed)");
  });
});
