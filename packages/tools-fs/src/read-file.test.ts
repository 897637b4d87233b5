import { mkdir, open, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FileSystem } from "./file-system.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import {
  createReadFileTool,
  DEFAULT_READ_LIMIT,
  formatReadFilePage,
  type ReadFileToolData,
  type ReadFileToolOptions,
} from "./read-file.js";
import { seamFactories, useTemporaryDirectories } from "./test-support/seams.js";
import { createWorkspace } from "./workspace.js";

const temporaryRoot = useTemporaryDirectories("agentool-read-");
const seams = seamFactories("agentool-read-");

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

async function read(
  fileSystem: FileSystem,
  input: Record<string, unknown>,
  options: Partial<ReadFileToolOptions> = {},
) {
  return tool(fileSystem, options).run(input);
}

function data(result: Awaited<ReturnType<typeof read>>): ReadFileToolData {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

const numbered = (count: number, prefix = "line") =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join("\n");

/** `[offset, limit]` pairs around the checkpoints (every 256 lines) and the end of a 3,000-line file. */
const STREAMED_PAGES = [
  [1, 10],
  [255, 3],
  [256, 2],
  [257, 300],
  [1500, 400],
  [2990, 50],
  [3000, 1],
] as const;

describe.each(seams)("read_file over the %s seam", (_label, makeSeam) => {
  it("returns a numbered page with a header, sha and the next offset", async () => {
    const fileSystem = await makeSeam({ "src/a.txt": `${numbered(1000)}\n` });
    const result = data(await read(fileSystem, { path: "src/a.txt" }));
    expect(result).toMatchObject({
      start_line: 1,
      end_line: DEFAULT_READ_LIMIT,
      total: 1000,
      next_offset: 401,
      encoding: "utf-8",
      line_ending: "lf",
    });
    expect(result.sha).toBe(await fileSystem.digest("src/a.txt"));
    const text = formatReadFilePage(result);
    expect(text.split("\n")[0]).toBe(
      `src/a.txt — lines 1–400 of 1000 (utf-8, sha: ${(result.sha ?? "").slice(0, 12)})`,
    );
    expect(text).toContain("\n     1\tline 1\n     2\tline 2\n");
    expect(
      text.endsWith(
        '…[truncated: 600 more lines — call read_file again with path="src/a.txt", limit=400, offset=401]',
      ),
    ).toBe(true);
    // Data is the file's text as it is: no line numbers, its own line breaks.
    expect(result.content).toBe(`${numbered(400)}\n`);
    expect(result.truncated).toBe(true);
    const last = data(await read(fileSystem, { path: "src/a.txt", offset: 901, limit: 500 }));
    expect(last).toMatchObject({ start_line: 901, end_line: 1000 });
    expect(last.next_offset).toBeUndefined();
    expect(last.truncated).toBe(false);
    expect(last.content.endsWith("line 999\nline 1000\n")).toBe(true);
    expect(formatReadFilePage(last).split("\n").at(-1)).toBe("  1000\tline 1000");
    expect(formatReadFilePage(last)).not.toContain("truncated");
  });

  it("ends a page early at the character cap and cuts long lines with a marker", async () => {
    const long = "x".repeat(5000);
    const fileSystem = await makeSeam({
      "long.txt": `short\n${long}\n${"y".repeat(900)}\n`.repeat(200),
    });
    const result = data(
      await read(fileSystem, { path: "long.txt" }, { maxPageCharacters: 10_000 }),
    );
    const page = formatReadFilePage(result);
    expect(page.length - (page.split("\n")[0] ?? "").length).toBeLessThanOrEqual(10_000 + 200);
    expect(result.next_offset).toBe(result.end_line + 1);
    expect(result.cut_lines[0]).toEqual({ line: 2, omitted: 3000, unit: "characters" });
    // Data keeps the kept part of the line without a marker; the rendered page adds the marker.
    expect(result.content.startsWith(`short\n${"x".repeat(2000)}\n${"y".repeat(900)}\n`)).toBe(
      true,
    );
    expect(result.content).not.toContain("truncated");
    expect(page).toContain(
      `     2\t${"x".repeat(2000)} …[truncated: 3,000 more characters — line 2 is too long to show whole]`,
    );
    // With grep_search mounted, the marker says how to search inside the line.
    const beside = tool(fileSystem, { maxPageCharacters: 10_000, mountedTools: ["grep_search"] });
    expect(beside.renderResult(await beside.run({ path: "long.txt" }))).toContain(
      "line 2 is too long to show whole; grep_search finds text inside it]",
    );
  });

  it("reads an empty file and says why it is empty", async () => {
    const fileSystem = await makeSeam({ "empty.txt": "" });
    const result = data(await read(fileSystem, { path: "empty.txt" }));
    expect(result).toMatchObject({ total: 0, start_line: 0, end_line: 0, content: "" });
    expect(formatReadFilePage(result)).toContain("The file is empty");
    const past = await read(fileSystem, { path: "empty.txt", offset: 2 });
    expect(past).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
  });

  it("says how many lines the file has when the offset is past the end", async () => {
    const fileSystem = await makeSeam({ "a.txt": "one\ntwo\nthree" });
    const result = await read(fileSystem, { path: "a.txt", offset: 10 });
    expect(result).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    // The contract's one failure for an offset past the end.
    expect(!result.success && result.error.message).toBe(
      "offset=10 is past the end: there are 3 lines in all.",
    );
    expect(!result.success && result.error.hint).toBe(
      "Call read_file again with an offset between 1 and 3.",
    );
    expect(data(await read(fileSystem, { path: "a.txt", offset: 3 })).content).toBe("three");
  });

  it("says so when a negative offset counts back past the first line (the page starts at line 1)", async () => {
    const fileSystem = await makeSeam({ "a.txt": `${numbered(50)}\n` });
    const result = data(await read(fileSystem, { path: "a.txt", offset: -60, limit: 5 }));
    expect(result).toMatchObject({ start_line: 1, end_line: 5, total: 50, requested_offset: -60 });
    const text = formatReadFilePage(result).split("\n");
    expect(text[1]).toBe(
      "(offset=-60 counts back past the first line: the file has 50 lines, so the page starts at line 1.)",
    );
    expect(text[2]).toBe("     1\tline 1");
    // A tail that fits says nothing more.
    const tail = data(await read(fileSystem, { path: "a.txt", offset: -50, limit: 5 }));
    expect(tail.requested_offset).toBeUndefined();
    expect(formatReadFilePage(tail)).not.toContain("counts back past");
  });

  it("refuses directories, missing files, binary files and secret paths", async () => {
    const fileSystem = await makeSeam({
      "dir/a.txt": "a",
      "image.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]),
      ".env": "KEY=1",
    });
    const directory = await read(fileSystem, { path: "dir" });
    expect(directory).toMatchObject({ success: false, error: { code: "INVALID_PATH" } });
    expect(!directory.success && directory.error.hint).toContain("list_directory");
    expect(await read(fileSystem, { path: "nope.txt" })).toMatchObject({
      success: false,
      error: { code: "FILE_NOT_FOUND" },
    });
    const binary = await read(fileSystem, { path: "image.png" }, { mountedTools: ["file_stats"] });
    expect(binary).toMatchObject({ success: false, error: { code: "UNSUPPORTED" } });
    expect(!binary.success && binary.error.hint).toContain("file_stats");
    const alone = await read(fileSystem, { path: "image.png" });
    expect(!alone.success && alone.error.hint).not.toContain("file_stats");
    expect(await read(fileSystem, { path: ".env" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(await read(fileSystem, { path: "../outside.txt" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await read(fileSystem, { path: "/etc/passwd" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
  });

  it("decodes a BOM, UTF-16 and CRLF, and notes invalid bytes", async () => {
    const utf16le = new Uint8Array([
      0xff,
      0xfe,
      ...[..."hé\r\nok"].flatMap((character) => [character.charCodeAt(0), 0]),
    ]);
    const utf16be = new Uint8Array([
      0xfe,
      0xff,
      ...[..."be\nok"].flatMap((character) => [0, character.charCodeAt(0)]),
    ]);
    const fileSystem = await makeSeam({
      "bom.txt": "\uFEFFfirst\nsecond\n",
      "le.txt": utf16le,
      "be.txt": utf16be,
      "crlf.txt": "a\r\nb\r\n",
      "bad.txt": new Uint8Array([0x61, 0xff, 0x62, 0x0a]),
    });
    const bom = data(await read(fileSystem, { path: "bom.txt" }));
    expect(bom).toMatchObject({ encoding: "utf-8-bom", content: "first\nsecond\n" });
    expect(formatReadFilePage(bom)).toContain("(utf-8 with BOM, sha: ");
    expect(data(await read(fileSystem, { path: "le.txt" }))).toMatchObject({
      encoding: "utf-16le",
      content: "hé\r\nok",
    });
    expect(data(await read(fileSystem, { path: "be.txt" }))).toMatchObject({
      encoding: "utf-16be",
      content: "be\nok",
    });
    const crlf = data(await read(fileSystem, { path: "crlf.txt" }));
    // The text as it is (CRLF kept); the rendered lines show no \r.
    expect(crlf).toMatchObject({ line_ending: "crlf", content: "a\r\nb\r\n" });
    expect(formatReadFilePage(crlf)).toContain("CRLF line endings");
    expect(formatReadFilePage(crlf)).toContain("     1\ta\n     2\tb");
    expect(formatReadFilePage(crlf)).not.toContain("\r");
    const bad = data(await read(fileSystem, { path: "bad.txt" }));
    expect(bad).toMatchObject({ invalid_bytes: true, content: "a\uFFFDb\n" });
    expect(formatReadFilePage(bad)).toContain("invalid bytes shown as \uFFFD");
  });

  it("streams files above the threshold with the same pages as a whole read", async () => {
    const lines = Array.from({ length: 3000 }, (_, index) =>
      index % 97 === 0 ? "é".repeat(index % 300) : `row ${index + 1}\r`,
    );
    const text = `\uFEFF${lines.join("\n")}`;
    const fileSystem = await makeSeam({ "big.txt": text });
    const whole = tool(fileSystem);
    const streamed = tool(fileSystem, { streamThresholdBytes: 100, maxLineCharacters: 50 });
    const wholeCut = tool(fileSystem, { maxLineCharacters: 50 });
    for (const [offset, limit] of STREAMED_PAGES) {
      const expected = data(await wholeCut.run({ path: "big.txt", offset, limit }));
      const actual = data(await streamed.run({ path: "big.txt", offset, limit }));
      expect(actual.streamed).toBe(true);
      expect({ ...actual, streamed: false, line_ending: expected.line_ending }).toEqual(expected);
    }
    expect(data(await whole.run({ path: "big.txt", offset: 3000 })).total).toBe(3000);
    expect(await streamed.run({ path: "big.txt", offset: 3001 })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });
});

describe.each(seams)(
  "read_file of a file read only in part, over the %s seam",
  (_label, makeSeam) => {
    const lines = Array.from({ length: 3000 }, (_, index) =>
      index % 97 === 0 ? "é".repeat(index % 300) : `row ${index + 1}\r`,
    );
    const text = `\uFEFF${lines.join("\n")}`;

    it("serves the same lines as a whole read, head, middle and tail, with lower bounds", async () => {
      const fileSystem = await makeSeam({ "big.txt": text });
      const wholeCut = tool(fileSystem, { maxLineCharacters: 50 });
      const partial = () =>
        tool(fileSystem, { streamThresholdBytes: 100, fullPassMaxBytes: 0, maxLineCharacters: 50 });
      for (const [offset, limit] of STREAMED_PAGES) {
        const expected = data(await wholeCut.run({ path: "big.txt", offset, limit }));
        // A fresh tool each time: nothing learned by an earlier page helps.
        const actual = data(await partial().run({ path: "big.txt", offset, limit }));
        expect(actual.streamed).toBe(true);
        expect(actual.sha).toBeUndefined();
        expect(actual.content).toBe(expected.content);
        expect(actual.cut_lines).toEqual(expected.cut_lines);
        expect([actual.start_line, actual.end_line, actual.next_offset, actual.truncated]).toEqual([
          expected.start_line,
          expected.end_line,
          expected.next_offset,
          expected.truncated,
        ]);
        // Exact once the page reached the end; a lower bound that holds before.
        if (actual.total !== undefined) expect(actual.total).toBe(3000);
        else expect(actual.total_at_least).toBeLessThanOrEqual(3000);
        expect(actual.total ?? actual.total_at_least).toBeGreaterThan(actual.end_line - 1);
      }
      for (const [offset, limit] of [
        [-1, 400],
        [-3, 400],
        [-100, 40],
        [-400, 400],
      ] as const) {
        const expected = data(await wholeCut.run({ path: "big.txt", offset, limit }));
        const actual = data(await partial().run({ path: "big.txt", offset, limit }));
        expect(actual.content).toBe(expected.content);
        expect(actual.start_line).toBe(offset);
        expect(expected.start_line).toBe(3000 + offset + 1);
        expect(actual.end_line - actual.start_line).toBe(expected.end_line - expected.start_line);
        expect(actual.total_at_least).toBe(-offset + 256 + 1);
        if (expected.next_offset === undefined) expect(actual.next_offset).toBeUndefined();
        else expect(actual.next_offset).toBe(actual.end_line + 1);
      }
    });

    it("a page that reads to the end knows the total; a tail racing a full count stays numbered from the end", async () => {
      const fileSystem = await makeSeam({ "big.txt": text });
      const partial = tool(fileSystem, { streamThresholdBytes: 100, fullPassMaxBytes: 0 });
      const last = data(await partial.run({ path: "big.txt", offset: 2990, limit: 50 }));
      expect(last).toMatchObject({
        start_line: 2990,
        end_line: 3000,
        total: 3000,
        truncated: false,
      });
      expect(formatReadFilePage(last).split("\n")[0]).toContain(
        "of 3000 (utf-8 with BOM, mixed line endings, 37 KB, no sha)",
      );
      expect(formatReadFilePage(last).split("\n")[0]).not.toContain("not all counted");
      // A past-the-end call completes the shared index while tails are being read.
      const racing = tool(fileSystem, { streamThresholdBytes: 100, fullPassMaxBytes: 0 });
      const results = await Promise.all([
        racing.run({ path: "big.txt", offset: 5000 }),
        ...Array.from({ length: 8 }, () => racing.run({ path: "big.txt", offset: -40 })),
      ]);
      for (const result of results.slice(1)) {
        const tail = data(result);
        if (tail.start_line < 0) {
          expect(tail).toMatchObject({ start_line: -40, end_line: -1, truncated: false });
          expect(tail.total).toBeUndefined();
          expect(tail.next_offset).toBeUndefined();
        } else expect(tail).toMatchObject({ start_line: 2961, end_line: 3000, total: 3000 });
      }
    });

    it("a tail longer than the file is the whole file, counted exactly", async () => {
      const fileSystem = await makeSeam({ "big.txt": text });
      const partial = tool(fileSystem, { streamThresholdBytes: 100, fullPassMaxBytes: 0 });
      const page = data(await partial.run({ path: "big.txt", offset: -5000, limit: 2 }));
      expect(page).toMatchObject({ start_line: 1, end_line: 2, total: 3000, next_offset: 3 });
      const wide = data(await partial.run({ path: "big.txt", offset: -3000 + 256, limit: 1 }));
      expect(wide).toMatchObject({ start_line: 257, total: 3000 });
      expect(wide.content).toBe(`${lines[256]}\n`);
    });

    it("a later page goes on from where an earlier scan stopped, and a past-the-end offset is exact", async () => {
      const { seam, counts } = countingSeam(await makeSeam({ "big.txt": text }));
      const partial = tool(seam, { streamThresholdBytes: 100, fullPassMaxBytes: 0 });
      const first = data(await partial.run({ path: "big.txt", offset: 1000, limit: 2 }));
      expect(first.total_at_least).toBe(1002);
      const back = data(await partial.run({ path: "big.txt", offset: 10, limit: 1 }));
      expect(back.total_at_least).toBe(1000);
      expect(back.content).toBe(`${lines[9]}\n`);
      const past = await partial.run({ path: "big.txt", offset: 3001 });
      expect(past).toMatchObject({
        success: false,
        error: { code: "INVALID_INPUT", message: expect.stringContaining("3,000 lines") },
      });
      const tail = data(await partial.run({ path: "big.txt", offset: -2 }));
      expect(tail).toMatchObject({ start_line: 2999, end_line: 3000, total: 3000 });
      expect(counts).toMatchObject({ digest: 0, readFile: 0 });
    });
  },
);

describe("read_file negative offsets", () => {
  it("counts from the end of a small file, and refuses offset 0", async () => {
    const fileSystem = createMemoryFileSystem({ "a.txt": `${numbered(10)}\n` });
    const tail = data(await read(fileSystem, { path: "a.txt", offset: -2 }));
    expect(tail).toMatchObject({
      start_line: 9,
      end_line: 10,
      total: 10,
      content: "line 9\nline 10\n",
    });
    const all = data(await read(fileSystem, { path: "a.txt", offset: -50, limit: 3 }));
    expect(all).toMatchObject({ start_line: 1, end_line: 3, next_offset: 4 });
    const zero = await read(fileSystem, { path: "a.txt", offset: 0 });
    expect(zero).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(!zero.success && zero.error.message).toContain("negative offset for the tail");
  });
});

describe("read_file streaming and its line index cache", () => {
  it("reuses the index for later pages and rebuilds it after a change", async () => {
    const { seam, counts } = countingSeam(
      createMemoryFileSystem({ "big.log": `${numbered(5000)}\n` }),
    );
    const readFile = tool(seam, { streamThresholdBytes: 1_000 });
    data(await readFile.run({ path: "big.log", offset: 2500, limit: 5 }));
    expect(counts).toMatchObject({ digest: 1, readFile: 0 });
    const readersAfterFirst = counts.openReader;
    const page = data(await readFile.run({ path: "big.log", offset: 4999 }));
    expect(page.content).toBe("line 4999\nline 5000\n");
    expect(counts.digest).toBe(1);
    // One reader for the page; the index came from the cache.
    expect(counts.openReader).toBe(readersAfterFirst + 1);
    await seam.writeFile("big.log", new TextEncoder().encode(`${numbered(6000)}\n`));
    const changed = data(await readFile.run({ path: "big.log", offset: 5999 }));
    expect(changed).toMatchObject({
      total: 6000,
      content: "line 5999\nline 6000\n",
    });
    expect(counts.digest).toBe(2);
  });

  it("keeps a small file's text for the next page and reads it again after any change", async () => {
    const root = await temporaryRoot();
    await writeFile(join(root, "notes.txt"), `${numbered(300)}\n`);
    // Changed a minute ago: settled, so its text may be kept.
    const past = new Date(Date.now() - 60_000);
    await utimes(join(root, "notes.txt"), past, past);
    const { seam, counts } = countingSeam(createNodeFileSystem({ root }));
    const readFile = tool(seam);
    expect(data(await readFile.run({ path: "notes.txt", limit: 2 })).content).toBe(
      "line 1\nline 2\n",
    );
    expect(data(await readFile.run({ path: "notes.txt", offset: 299 })).content).toBe(
      "line 299\nline 300\n",
    );
    expect(counts.readFile).toBe(1);
    // Same size, same inode, written in place: the time differs, so the text is read again.
    const handle = await open(join(root, "notes.txt"), "r+");
    await handle.write("LINE", 0);
    await handle.close();
    const changed = data(await readFile.run({ path: "notes.txt", limit: 1 }));
    expect(changed.content).toBe("LINE 1\n");
    expect(counts.readFile).toBe(2);
    // Just changed: not kept, so the next page is read again (a same-size change within one
    // timestamp tick would not be seen otherwise).
    data(await readFile.run({ path: "notes.txt", offset: 2, limit: 1 }));
    expect(counts.readFile).toBe(3);
  });

  it("refuses huge UTF-16 and binary files", async () => {
    const utf16 = new Uint8Array(4_002);
    utf16.set([0xff, 0xfe]);
    for (let index = 2; index < utf16.length; index += 2) utf16[index] = 0x61;
    const binary = new Uint8Array(4_000);
    const fileSystem = createMemoryFileSystem({ "wide.txt": utf16, "blob.bin": binary });
    const readFile = tool(fileSystem, {
      streamThresholdBytes: 1_000,
      mountedTools: ["grep_search"],
    });
    const wide = await readFile.run({ path: "wide.txt" });
    expect(wide).toMatchObject({ success: false, error: { code: "TOO_LARGE" } });
    expect(!wide.success && wide.error.hint).toContain("grep_search");
    expect(await readFile.run({ path: "blob.bin" })).toMatchObject({
      success: false,
      error: { code: "UNSUPPORTED" },
    });
  });

  it("cuts a giant line after reading only its first bytes", async () => {
    const fileSystem = createMemoryFileSystem({
      "minified.js": `start\n${"z".repeat(200_000)}\nend\n`,
    });
    const result = data(
      await read(fileSystem, { path: "minified.js" }, { streamThresholdBytes: 1_000 }),
    );
    expect(result.total).toBe(3);
    expect(result.cut_lines).toEqual([{ line: 2, omitted: 198_000, unit: "bytes" }]);
    expect(result.content).toBe(`start\n${"z".repeat(2000)}\nend\n`);
    const page = formatReadFilePage(result);
    expect(page).toContain("…[truncated: 198,000 more bytes — line 2 is too long to show whole]");
    expect(page.endsWith("     3\tend")).toBe(true);
  });
});

describe("read_file confinement on disk", () => {
  it("refuses a symlink that escapes the root and follows one that stays inside", async () => {
    const outside = await temporaryRoot();
    await writeFile(join(outside, "secret.txt"), "outside\n");
    const root = await temporaryRoot();
    await writeFile(join(root, "inside.txt"), "inside\n");
    await symlink(join(outside, "secret.txt"), join(root, "escape.txt"));
    await symlink(outside, join(root, "escape-dir"));
    await symlink("inside.txt", join(root, "alias.txt"));
    await mkdir(join(root, "keys"));
    await writeFile(join(root, "keys", "id_rsa"), "PRIVATE");
    await symlink(join(root, "keys", "id_rsa"), join(root, "innocent.txt"));
    const fileSystem = createNodeFileSystem({ root });
    expect(await read(fileSystem, { path: "escape.txt" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await read(fileSystem, { path: "escape-dir/secret.txt" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await read(fileSystem, { path: "innocent.txt" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(data(await read(fileSystem, { path: "alias.txt" })).content).toBe("inside\n");
    expect(data(await read(fileSystem, { path: join(root, "inside.txt") })).content).toBe(
      "inside\n",
    );
  });
});

describe("read_file boundary", () => {
  it("accepts well-known names for path silently and suggests the rest", async () => {
    const fileSystem = createMemoryFileSystem({ "a.txt": "one\ntwo\n" });
    const readFile = tool(fileSystem);
    expect(data(await readFile.run({ file_path: "a.txt" })).content).toBe("one\ntwo\n");
    expect(data(await readFile.run({ target_file: "a.txt", offset: 2 })).content).toBe("two\n");
    const wrong = await readFile.run({ path: "a.txt", start_line: 2 });
    expect(wrong).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(!wrong.success && wrong.error.message).toContain('did you mean "offset"');
  });

  it("names in its description only the tools mounted beside it", () => {
    const fileSystem = createMemoryFileSystem({});
    const alone = tool(fileSystem).description;
    for (const absent of ["edit_file", "multi_edit", "write_file", "grep_search", "file_stats"]) {
      expect(alone).not.toContain(absent);
    }
    const readOnly = tool(fileSystem, {
      mountedTools: ["read_file", "list_directory", "grep_search", "file_stats"],
    }).description;
    expect(readOnly).not.toContain("edit_file");
    expect(readOnly).not.toContain("expected_sha");
    expect(readOnly).toContain("grep_search finds line 900");
    const readWrite = tool(fileSystem, {
      mountedTools: ["read_file", "edit_file", "multi_edit", "write_file"],
    }).description;
    expect(readWrite).toContain("expected_sha to edit_file, multi_edit or write_file");
  });

  it("names its own (renamed) tool in the next-call marker", async () => {
    const fileSystem = createMemoryFileSystem({ "a.txt": `${numbered(10)}\n` });
    const view = tool(fileSystem, { name: "view_file" });
    const text = String(view.renderResult(await view.run({ path: "a.txt", limit: 4 })));
    // The next call repeats every argument but offset: the path and the limit.
    expect(text.split("\n").at(-1)).toBe(
      '…[truncated: 6 more lines — call view_file again with path="a.txt", limit=4, offset=5]',
    );
  });
});

describe("read_file contract", () => {
  it("validates options", async () => {
    const fileSystem = createMemoryFileSystem({ "sample.txt": "hello\n" });
    const readFile = tool(fileSystem);
    expect(readFile.annotations).toMatchObject({ readOnly: true, idempotent: true });
    expect(readFile.tags).toEqual(["fs:read"]);
    expect(readFile.description.length).toBeLessThanOrEqual(1024);
    expect(() =>
      createReadFileTool({ workspace: createWorkspace({ fileSystem }), maxLimt: 3 } as never),
    ).toThrow(/maxLimt/);
    expect(await readFile.run({ path: "sample.txt", limit: 5000 })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });
});
