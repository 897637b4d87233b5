import { appendFile, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileStatsTool } from "./file-stats.js";
import type { FileReader, FileSystem } from "./file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createReadFileTool, type ReadFileToolData } from "./read-file.js";
import { createWorkspace } from "./workspace.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

const LINES = 20_000;
const lineText = (number: number) => `row ${String(number).padStart(6, "0")} of the file`;

/** A workspace with `big.txt` (20,000 numbered lines, ~460 KB) and a seam counting bytes read. */
async function setUp(lineEnding = "\n") {
  const root = await realpath(await mkdtemp(join(tmpdir(), "agentool-known-total-")));
  roots.push(root);
  const text = Array.from({ length: LINES }, (_, index) => lineText(index + 1) + lineEnding).join(
    "",
  );
  await writeFile(join(root, "big.txt"), text);
  const inner = createNodeFileSystem({ root });
  const counts = { bytes: 0 };
  const fileSystem: FileSystem = {
    ...inner,
    openReader: async (path) => {
      const reader = await inner.openReader(path);
      const counted: FileReader = {
        size: reader.size,
        read: async (position, length) => {
          const bytes = await reader.read(position, length);
          counts.bytes += bytes.length;
          return bytes;
        },
        close: () => reader.close(),
      };
      return counted;
    },
  };
  const workspace = createWorkspace({ fileSystem });
  // Streamed and never given a full pass: the file behaves as a huge one does by default.
  const readFile = createReadFileTool({
    workspace,
    streamThresholdBytes: 1_000,
    fullPassMaxBytes: 1_000,
  });
  const fileStats = createFileStatsTool({
    workspace,
    streamThresholdBytes: 1_000,
    streamChunkBytes: 4_099,
  });
  return { root, readFile, fileStats, counts, size: text.length };
}

function data(result: { success: boolean; data?: unknown; error?: { message: string } }) {
  if (!result.success) throw new Error(result.error?.message);
  return result.data as ReadFileToolData;
}

describe("read_file near the end of a file another tool counted", () => {
  it("finds the page from the end, with the same lines and total as counting from the start", async () => {
    const { readFile, fileStats, counts, size } = await setUp();
    const slow = await setUp();
    const expected = data(await slow.readFile.run({ path: "big.txt", offset: 19_901, limit: 100 }));
    expect(expected.total).toBe(LINES);
    expect(slow.counts.bytes).toBeGreaterThan(size * 0.9); // counted from the start

    const stats = await fileStats.run({ path: "big.txt" });
    expect(stats.success && "lines" in stats.data && stats.data.lines).toBe(LINES);
    counts.bytes = 0;
    const page = data(await readFile.run({ path: "big.txt", offset: 19_901, limit: 100 }));
    expect(page.content).toBe(expected.content);
    expect(page.start_line).toBe(19_901);
    expect(page.end_line).toBe(LINES);
    expect(page.total).toBe(LINES);
    expect(page.content.split("\n")[0]).toBe(lineText(19_901));
    // Only the window near the end was read (a 64 KiB chunk back from the end, the sniff and
    // the page), not the 19,900 lines before it.
    expect(counts.bytes).toBeLessThan(size / 4);
  });

  it("answers an offset past the end from the known total, reading no line", async () => {
    const { readFile, fileStats, counts } = await setUp();
    await fileStats.run({ path: "big.txt" });
    counts.bytes = 0;
    const result = await readFile.run({ path: "big.txt", offset: LINES + 1 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.message).toContain("20,000 lines in all");
    expect(counts.bytes).toBeLessThan(10_000);
  });

  it("counts again when the file changed after it was counted", async () => {
    const { root, readFile, fileStats } = await setUp();
    await fileStats.run({ path: "big.txt" });
    await appendFile(join(root, "big.txt"), "one more line\nand another\n");
    const page = data(await readFile.run({ path: "big.txt", offset: 19_999, limit: 100 }));
    expect(page.total).toBe(LINES + 2);
    expect(page.content).toBe(
      `${lineText(19_999)}\n${lineText(20_000)}\none more line\nand another\n`,
    );
  });

  it("keeps reading forward for an offset nearer the start than the end", async () => {
    const { readFile, fileStats } = await setUp();
    await fileStats.run({ path: "big.txt" });
    const page = data(await readFile.run({ path: "big.txt", offset: 5_000, limit: 2 }));
    expect(page.content).toBe(`${lineText(5_000)}\n${lineText(5_001)}\n`);
  });
});

describe("file_stats streaming a UTF-8 file", () => {
  it("counts lines and CRLF endings across chunk edges (a \\r at one chunk's end, its \\n in the next)", async () => {
    const { fileStats } = await setUp("\r\n");
    const stats = await fileStats.run({ path: "big.txt" });
    expect(stats.success).toBe(true);
    if (!stats.success) return;
    if (!("line_ending" in stats.data)) throw new Error("expected a file's figures");
    expect(stats.data.lines).toBe(LINES);
    expect(stats.data.line_ending).toBe("crlf");
  });
});
