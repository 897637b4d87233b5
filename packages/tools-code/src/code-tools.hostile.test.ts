import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Tool } from "@agentool/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodeTools } from "./create-code-tools.js";
import { extractSymbols, LANGUAGE_RULES } from "./internal/tree-sitter/extract-symbols.js";
import { heuristicOutline } from "./internal/tree-sitter/heuristic-outline.js";
import { parsePoolMode, parseWorkerCount } from "./internal/tree-sitter/parse-pool.js";
import { withTree } from "./internal/tree-sitter/runtime.js";
import { walkSymbols } from "./internal/tree-sitter/walk-rules.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

/**
 * Hostile texts against the tree-sitter engine: no call blocks the event loop (DESIGN: 250 ms),
 * every call honours its time limit, one poisonous file never fails a whole-repository call.
 * The fixtures are generated here; each parse runs on the engine's parse workers (the compiled
 * worker in dist/, so the package must be built).
 */

/** Most the event loop may stall during a call (DESIGN's 250 ms plus the timer's resolution). */
const MAX_BLOCK_MS = 300;

async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; blockMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  return { value, ms, blockMs: histogram.max / 1e6 };
}

type AnyTool = Tool<never, unknown>;
const toolsOf = (root: string, timeoutMs: number) =>
  Object.fromEntries(
    createCodeTools({ root, timeoutMs }).map((tool) => [tool.name, tool as unknown as AnyTool]),
  ) as Record<string, AnyTool>;
const run = (tool: AnyTool | undefined, input: Record<string, unknown>) =>
  (
    tool as {
      run: (
        input: unknown,
      ) => Promise<{ success: boolean; error?: { code: string }; data?: unknown }>;
    }
  ).run(input);

/** ~960 KB that takes tree-sitter's TypeScript grammar over 5 s to parse (under the 2 MB cap). */
const SLOW_TS = "a<b,c>(d)<e>".repeat(80_000);

beforeAll(() => {
  expect(
    parsePoolMode(),
    "dist/ is missing or older than the engine's sources: run `pnpm build` in packages/tools-code",
  ).toBe("workers");
});

describe("hostile texts: time limits and the event loop", () => {
  const folder = workspaceFolder({
    "src/g1.ts": SLOW_TS,
    "src/g2.ts": SLOW_TS,
    "src/g3.ts": SLOW_TS,
    "src/g4.ts": SLOW_TS,
  });
  afterAll(() => folder.remove());

  it("find_symbol over four slow files ends with TIMEOUT at its 3 s limit, the loop never blocked", async () => {
    const tools = toolsOf(folder.root, 3_000);
    const { value, ms, blockMs } = await measured(() => run(tools.find_symbol, { name: "a" }));
    expect(value.success).toBe(false);
    expect(value.error?.code).toBe("TIMEOUT");
    expect(ms).toBeLessThan(3_000 + 1_000);
    expect(blockMs).toBeLessThan(MAX_BLOCK_MS);
  }, 20_000);

  it("code_outline of a slow file: the parse stops at its limit on the worker, the loop never blocked", async () => {
    const tools = toolsOf(folder.root, 3_000);
    const { value, ms, blockMs } = await measured(() =>
      run(tools.code_outline, { path: "src/g1.ts" }),
    );
    expect(value.error?.code).toBe("TIMEOUT");
    expect(ms).toBeLessThan(3_000 + 1_000);
    expect(blockMs).toBeLessThan(MAX_BLOCK_MS);
  }, 20_000);

  it("replace_symbol on a slow file ends with TIMEOUT and stops its parses (no worker left parsing)", async () => {
    const tools = Object.fromEntries(
      createCodeTools({ root: folder.root, timeoutMs: 2_000, mode: "read-write" }).map((tool) => [
        tool.name,
        tool as unknown as AnyTool,
      ]),
    ) as Record<string, AnyTool>;
    const { value, ms, blockMs } = await measured(() =>
      run(tools.replace_symbol, { path: "src/g2.ts", name: "a", new_body: "function a() {}" }),
    );
    expect(value.error?.code).toBe("TIMEOUT");
    expect(ms).toBeLessThan(2_000 + 1_000);
    expect(blockMs).toBeLessThan(MAX_BLOCK_MS);
    expect(parseWorkerCount()).toBe(0);
  }, 20_000);

  it("an aborted parse stops at once: its worker is terminated (its memory given back)", async () => {
    const { value, ms, blockMs } = await measured(() =>
      extractSymbols("typescript", SLOW_TS, { signal: AbortSignal.timeout(500) }).then(
        () => "finished",
        (error: Error) => error.name,
      ),
    );
    expect(value).toBe("TimeoutError");
    expect(ms).toBeLessThan(1_200);
    expect(blockMs).toBeLessThan(MAX_BLOCK_MS);
    expect(parseWorkerCount()).toBe(0);
  }, 20_000);

  it("a runaway parse (x<x<x<…) stops at the memory ceiling: a labelled heuristic outline", async () => {
    const { value, blockMs } = await measured(() =>
      extractSymbols("typescript", "x<".repeat(490_000)),
    );
    expect(value.method).toBe("heuristic");
    expect(value.heuristicReason).toBe("too_large");
    expect(blockMs).toBeLessThan(MAX_BLOCK_MS);
    // The worker whose WebAssembly memory grew is not kept.
    expect(parseWorkerCount()).toBe(0);
  }, 30_000);

  it("800 KB of nested [ is outlined and searched off the event loop", async () => {
    const nested = workspaceFolder({ "src/nest.js": `x=${"[".repeat(800_000)}\n` });
    try {
      const tools = toolsOf(nested.root, 20_000);
      for (const [name, input] of [
        ["code_outline", { path: "src/nest.js" }],
        ["find_references", { name: "x" }],
      ] as const) {
        const { value, blockMs } = await measured(() => run(tools[name], input));
        expect(value.success, name).toBe(true);
        expect(blockMs, name).toBeLessThan(MAX_BLOCK_MS);
      }
    } finally {
      nested.remove();
    }
  }, 60_000);
});

describe("hostile texts: linear walks", () => {
  it("walks 160 KB of (a)=>(b)=> in linear time (namedChild(i) in a loop took 6.1 s)", async () => {
    const text = "(a)=>(b)=>".repeat(16_000);
    const walkMs = await withTree(
      "typescript",
      text,
      (tree) => {
        const started = performance.now();
        walkSymbols(tree.rootNode, text, LANGUAGE_RULES.typescript);
        return performance.now() - started;
      },
      { timeoutMs: 30_000 },
    );
    expect(walkMs).toBeLessThan(1_000);
  }, 30_000);

  it("a Markdown heading line of 4,000 spaces is outlined at once (the old pattern took 38 s)", () => {
    const started = performance.now();
    const symbols = heuristicOutline(`# a${" ".repeat(4_000)}b \n## Title ##\n# C#\n`, "markdown");
    expect(performance.now() - started).toBeLessThan(100);
    expect(symbols.map((symbol) => symbol.name)).toEqual([`a${" ".repeat(4_000)}b`, "Title", "C#"]);
  });
});

describe("hostile texts: one poisonous file never fails a whole-repository call", () => {
  const folder = workspaceFolder({
    "src/ns.cpp": "namespace a{".repeat(4_000),
    "src/deep.cpp": `${"namespace a{".repeat(4_000)}int x;${"}".repeat(4_000)}`,
    "src/ok.ts": "export function helper(x: number) {\n  return x;\n}\n",
    "src/use.ts": 'import { helper } from "./ok";\nexport const x = helper(1);\n',
  });
  afterAll(() => folder.remove());

  it("repo_map, find_symbol and find_references succeed beside 4,000 nested namespaces", async () => {
    const tools = toolsOf(folder.root, 20_000);
    for (const [name, input] of [
      ["repo_map", {}],
      ["find_symbol", { name: "x" }],
      ["find_symbol", { name: "helper" }],
      ["find_references", { name: "x" }],
      ["find_references", { name: "helper" }],
    ] as const) {
      const { value, blockMs } = await measured(() => run(tools[name], input));
      expect(value.error?.code, `${name} ${JSON.stringify(input)}`).toBeUndefined();
      expect(value.success).toBe(true);
      expect(blockMs).toBeLessThan(MAX_BLOCK_MS);
    }
  }, 60_000);

  it("deep nesting is outlined to a bounded depth, iteratively", async () => {
    const tools = toolsOf(folder.root, 20_000);
    const result = await run(tools.code_outline, { path: "src/deep.cpp", limit: 1_000 });
    expect(result.success).toBe(true);
    const data = result.data as {
      method: string;
      symbols: Array<{ depth: number }>;
      total: number;
    };
    expect(data.method).toBe("tree-sitter");
    expect(data.total).toBe(65);
    expect(Math.max(...data.symbols.map((symbol) => symbol.depth))).toBe(64);
  }, 30_000);
});

describe("special files", () => {
  const folder = workspaceFolder({ "src/ok.js": "function x() {}\n" });
  beforeAll(() => execFileSync("mkfifo", [join(folder.root, "src/fifo.js")]));
  afterAll(() => folder.remove());

  it("find_symbol and find_references refuse a FIFO at once (UNSUPPORTED), not after the time limit", async () => {
    const tools = toolsOf(folder.root, 5_000);
    for (const name of ["find_symbol", "find_references"]) {
      const { value, ms } = await measured(() =>
        run(tools[name], { name: "x", path: "src/fifo.js" }),
      );
      expect(value.error?.code, name).toBe("UNSUPPORTED");
      expect(ms).toBeLessThan(1_000);
    }
  }, 20_000);
});
