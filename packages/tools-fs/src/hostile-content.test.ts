import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { createCountWordsTool } from "./count-words.js";
import { createExtractTocTool } from "./extract-toc.js";
import { createGrepSearchTool } from "./grep-search.js";
import { createListDirectoryTool } from "./list-directory.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createWorkspace } from "./workspace.js";

/**
 * The longest event-loop stall a linear tool may show. Hostile input on a super-linear path
 * stalls for many seconds (exponential backtracking: hours), so 1 s still tells the two apart,
 * while a loaded CI machine's GC pauses and lazy module loads (up to a few hundred ms) do not
 * fail the test.
 */
const STALL_LIMIT_MS = 1_000;

/** Runs `work`, returning its result, the wall time and the longest event-loop stall (ms). */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; maxStallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last = performance.now();
  let maxStall = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxStall = Math.max(maxStall, now - last - 20);
    last = now;
  }, 20);
  const start = performance.now();
  try {
    const value = await work();
    const ms = performance.now() - start;
    // one more tick so a stall at the very end is seen by the probe
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { value, ms, maxStallMs: Math.max(maxStall, histogram.max / 1e6 - 10) };
  } finally {
    clearInterval(probe);
    histogram.disable();
  }
}

function workspaceOf(files: Record<string, string>) {
  return createWorkspace({ fileSystem: createMemoryFileSystem(files) });
}

describe("hostile content cannot freeze the host (tools-fs)", () => {
  it("a .gitignore line *a*a*a*a*a*b does not hang list_directory", async () => {
    const files: Record<string, string> = { ".gitignore": "*a*a*a*a*a*a*b\n" };
    for (let index = 0; index < 20; index += 1) files[`${"a".repeat(60)}${index}.txt`] = "x";
    const tool = createListDirectoryTool({ workspace: workspaceOf(files) });
    const { value, ms, maxStallMs } = await measured(() => tool.run({}));
    expect(value.success).toBe(true);
    expect(ms).toBeLessThan(2_000);
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 20_000);

  it("many headings and image links keep extract_toc and count_words linear", async () => {
    const headings = Array.from(
      { length: 20_000 },
      (_, index) => `# h${index} ${"\t".repeat(20)}x`,
    ).join("\n");
    const oneHeading = `# a${" ".repeat(60_000)}b`;
    const images = "![a](".repeat(40_000);
    const links = "[".repeat(40_000);
    const tags = "<a".repeat(40_000);
    const workspace = workspaceOf({
      "headings.md": headings,
      "one.md": oneHeading,
      "images.md": images,
      "links.md": links,
      "tags.md": tags,
    });
    const toc = createExtractTocTool({ workspace });
    const words = createCountWordsTool({ workspace });
    for (const path of ["headings.md", "one.md", "images.md", "links.md", "tags.md"]) {
      const a = await measured(() => toc.run({ path }));
      const b = await measured(() => words.run({ path }));
      expect([path, a.value.success, b.value.success]).toEqual([path, true, true]);
      expect([path, a.maxStallMs < STALL_LIMIT_MS, b.maxStallMs < STALL_LIMIT_MS]).toEqual([
        path,
        true,
        true,
      ]);
    }
  }, 30_000);

  it("the JS engine refuses (a+)+$ instead of backtracking for ever", async () => {
    const workspace = workspaceOf({ "a.txt": `${"a".repeat(40)}b\n` });
    const tool = createGrepSearchTool({ workspace, timeoutMs: 2_000 });
    const { value, ms, maxStallMs } = await measured(() => tool.run({ pattern: "(a+)+$" }));
    expect(value.success).toBe(false);
    if (!value.success) expect(["INVALID_INPUT", "TIMEOUT"]).toContain(value.error.code);
    expect(ms).toBeLessThan(2_500);
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 20_000);

  it("the JS engine stops a slow search at its time limit with TIMEOUT, yielding between lines", async () => {
    // polynomial (not refused statically): each long line costs a lot, many lines cost more
    const line = `${"a".repeat(3_000)}\n`;
    const files: Record<string, string> = {};
    for (let index = 0; index < 50; index += 1) files[`f${index}.txt`] = line.repeat(20);
    const tool = createGrepSearchTool({ workspace: workspaceOf(files), timeoutMs: 1_000 });
    const { value, ms, maxStallMs } = await measured(() => tool.run({ pattern: "a*a*a*b" }));
    expect(value.success).toBe(false);
    if (!value.success) expect(value.error.code).toBe("TIMEOUT");
    expect(ms).toBeLessThan(1_800);
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 60_000);

  it("a glob of many ** segments does not block the JS engine", async () => {
    const deep = `${Array.from({ length: 30 }, (_, index) => `d${index}`).join("/")}/y.txt`;
    const workspace = workspaceOf({ [deep]: "needle\n" });
    const tool = createGrepSearchTool({ workspace, timeoutMs: 2_000 });
    const glob = `${"**/".repeat(25)}z`;
    const { value, ms, maxStallMs } = await measured(() => tool.run({ pattern: "needle", glob }));
    expect(value.success).toBe(true);
    expect(ms).toBeLessThan(2_000);
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 20_000);
});
