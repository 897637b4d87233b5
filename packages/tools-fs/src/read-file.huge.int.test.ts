import { beforeAll, describe, expect, it } from "vitest";
import type { FileSystem } from "./file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import {
  createReadFileTool,
  formatReadFilePage,
  type ReadFileToolData,
  type ReadFileToolOptions,
} from "./read-file.js";
import {
  expectedFixtureLine,
  HUGE_FIXTURE_NAME,
  hugeNumberedFixture,
} from "./test-support/huge-fixture.js";
import { createWorkspace } from "./workspace.js";

/** A seam that counts the calls that scan a whole file. */
function countingSeam(inner: FileSystem) {
  const counts = { openReader: 0, digest: 0, readFile: 0 };
  const seam: FileSystem = {
    ...inner,
    kind: inner.kind,
    displayRoot: inner.displayRoot,
    realPath: (path) => inner.realPath(path),
    stat: (path) => inner.stat(path),
    readFile: (path) => {
      counts.readFile += 1;
      return inner.readFile(path);
    },
    openReader: (path) => {
      counts.openReader += 1;
      return inner.openReader(path);
    },
    digest: (path) => {
      counts.digest += 1;
      return inner.digest(path);
    },
  };
  return { seam, counts };
}

function tool(fileSystem: FileSystem, options: Partial<ReadFileToolOptions> = {}) {
  return createReadFileTool({ workspace: createWorkspace({ fileSystem }), ...options });
}

function data(result: Awaited<ReturnType<ReturnType<typeof tool>["run"]>>): ReadFileToolData {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe("read_file on a 1 GiB file", () => {
  const size = 1_073_741_824;
  let root = "";
  let totalLines = 0;
  beforeAll(async () => {
    // Made once per machine and reused (see hugeNumberedFixture).
    ({ directory: root, totalLines } = await hugeNumberedFixture(size));
  }, 120_000);

  /** Runs `work` and returns the largest rise of the resident set while it ran. */
  async function peakGrowth(work: () => Promise<void>): Promise<number> {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      await work();
    } finally {
      clearInterval(sampler);
    }
    return Math.max(peak, process.memoryUsage().rss) - baseline;
  }

  it("with a full pass: pages from the middle and the end with bounded memory, reusing the index", async () => {
    const { seam, counts } = countingSeam(createNodeFileSystem({ root }));
    // fullPassMaxBytes above the file's size: the first page counts every line and hashes it.
    const readFile = tool(seam, { fullPassMaxBytes: 2 * size });
    const growth = await peakGrowth(async () => {
      const middle = Math.floor(totalLines / 2);
      const first = data(
        await readFile.run({ path: HUGE_FIXTURE_NAME, offset: middle, limit: 100 }),
      );
      expect(first).toMatchObject({
        streamed: true,
        total: totalLines,
        truncated: true,
        start_line: middle,
        end_line: middle + 99,
        next_offset: middle + 100,
        bytes: size,
      });
      expect(first.content.split("\n")[0]).toBe(expectedFixtureLine(middle));
      expect(first.content.split("\n")[99]).toBe(expectedFixtureLine(middle + 99));
      expect(formatReadFilePage(first).split("\n")[1]).toBe(
        `${String(middle).padStart(6)}\t${expectedFixtureLine(middle)}`,
      );
      const end = data(await readFile.run({ path: HUGE_FIXTURE_NAME, offset: totalLines - 9 }));
      expect(end.end_line).toBe(totalLines);
      expect(end.next_offset).toBeUndefined();
      expect(end.content.split("\n")).toHaveLength(11);
      expect(end.content.split("\n")[9]).toBe(expectedFixtureLine(totalLines));
      expect(end.sha).toBe(first.sha);
      expect(end.sha).toMatch(/^[0-9a-f]{64}$/);
      // The second page reused the cached index and sha: no second scan.
      expect(counts).toMatchObject({ digest: 1, readFile: 0 });
    });
    expect(growth).toBeLessThan(64 * 1_048_576);
  }, 120_000);

  it("by default: the head, the tail and a middle page without a full pass, no sha, bounded memory", async () => {
    const { seam, counts } = countingSeam(createNodeFileSystem({ root }));
    const readFile = tool(seam);
    const growth = await peakGrowth(async () => {
      // The head: read at once, nothing counted past the page.
      const head = data(await readFile.run({ path: HUGE_FIXTURE_NAME, limit: 3 }));
      expect(head).toMatchObject({
        streamed: true,
        start_line: 1,
        end_line: 3,
        total_at_least: 4,
        truncated: true,
        next_offset: 4,
        bytes: size,
      });
      expect(head.total).toBeUndefined();
      expect(head.sha).toBeUndefined();
      expect(head.content).toBe(
        `${expectedFixtureLine(1)}\n${expectedFixtureLine(2)}\n${expectedFixtureLine(3)}\n`,
      );
      const headText = formatReadFilePage(head);
      expect(headText.split("\n")[0]).toBe(
        "huge.log — lines 1–3 of at least 4 (utf-8, 1 GB, lines not all counted, no sha)",
      );
      expect(headText.split("\n").at(-1)).toBe(
        '…[truncated: at least 1 more line — call read_file again with path="huge.log", limit=3, offset=4]',
      );
      // The tail: found backwards from the end, numbered from the end.
      const tail = data(await readFile.run({ path: HUGE_FIXTURE_NAME, offset: -3 }));
      expect(tail).toMatchObject({
        start_line: -3,
        end_line: -1,
        truncated: false,
        total_at_least: 3 + 256 + 1,
      });
      expect(tail.next_offset).toBeUndefined();
      expect(tail.content).toBe(
        `${expectedFixtureLine(totalLines - 2)}\n${expectedFixtureLine(totalLines - 1)}\n${expectedFixtureLine(totalLines)}\n`,
      );
      const tailText = formatReadFilePage(tail).split("\n");
      expect(tailText[0]).toContain(
        "lines -3 to -1 counted from the end (-1 is the last line; more than 259 lines in all;",
      );
      expect(tailText[1]).toBe(`    -3\t${expectedFixtureLine(totalLines - 2)}`);
      expect(tailText.at(-1)).toBe(`    -1\t${expectedFixtureLine(totalLines)}`);
      // Part of a tail: the next call is the rest, counted from the end.
      const before = data(await readFile.run({ path: HUGE_FIXTURE_NAME, offset: -10, limit: 4 }));
      expect(before).toMatchObject({ start_line: -10, end_line: -7, next_offset: -6 });
      expect(before.content.split("\n")[0]).toBe(expectedFixtureLine(totalLines - 9));
      expect(formatReadFilePage(before).split("\n").at(-1)).toBe(
        '…[truncated: 6 more lines — call read_file again with path="huge.log", limit=4, offset=-6]',
      );
      // A middle page: lines counted up to it, never past it.
      const middle = Math.floor(totalLines / 2);
      const page = data(
        await readFile.run({ path: HUGE_FIXTURE_NAME, offset: middle, limit: 100 }),
      );
      expect(page).toMatchObject({
        start_line: middle,
        end_line: middle + 99,
        next_offset: middle + 100,
        total_at_least: middle + 100,
        truncated: true,
      });
      expect(page.total).toBeUndefined();
      expect(page.content.split("\n")[0]).toBe(expectedFixtureLine(middle));
      expect(page.content.split("\n")[99]).toBe(expectedFixtureLine(middle + 99));
      // An earlier page reuses what that scan learned; a later one goes on from there.
      const earlier = data(
        await readFile.run({ path: HUGE_FIXTURE_NAME, offset: 1_000_000, limit: 1 }),
      );
      expect(earlier.content).toBe(`${expectedFixtureLine(1_000_000)}\n`);
      expect(earlier.total_at_least).toBe(middle);
      // Past the end: the scan reaches it, and the exact total is known from then on.
      const past = await readFile.run({ path: HUGE_FIXTURE_NAME, offset: totalLines + 1 });
      expect(past).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
      expect(!past.success && past.error.message).toContain(
        new Intl.NumberFormat("en-US").format(totalLines),
      );
      const last = data(await readFile.run({ path: HUGE_FIXTURE_NAME, offset: -2 }));
      expect(last).toMatchObject({
        total: totalLines,
        start_line: totalLines - 1,
        end_line: totalLines,
      });
      expect(last.sha).toBeUndefined();
      // Never a digest (a second full read) nor a whole-file read.
      expect(counts).toMatchObject({ digest: 0, readFile: 0 });
    });
    expect(growth).toBeLessThan(64 * 1_048_576);
  }, 120_000);
});
