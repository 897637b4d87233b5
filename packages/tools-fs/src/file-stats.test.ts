import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseNextCall } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import {
  createFileStatsTool,
  type FileStatsDirectoryData,
  type FileStatsToolData,
} from "./file-stats.js";
import type { FileSystem } from "./file-system.js";
import { encodeText } from "./internal/text-codec.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

useNodeWorkspace("agentool-stats-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

async function stats(path: string | undefined, options: Record<string, unknown> = {}) {
  const tool = createFileStatsTool({ workspace, ...options });
  const result = await tool.run(path === undefined ? {} : { path });
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return { data: result.data as FileStatsToolData, text: tool.renderResult(result) as string };
}

describe("createFileStatsTool", () => {
  it("reports lines, bytes, encoding, line endings and an ISO time for a text file", async () => {
    await writeFile(join(root, "a.md"), "one\r\ntwo\r\nthree");
    const { data, text } = await stats("a.md");
    expect(data).toMatchObject({
      kind: "file",
      bytes: 15,
      lines: 3,
      binary: false,
      encoding: "utf-8",
      line_ending: "crlf",
      streamed: false,
    });
    expect(data.kind === "file" && data.modified_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(text).toContain("a.md: 15 bytes, 3 lines, utf-8, CRLF line endings");
  });

  it("flags binary files and decodes UTF-16 and BOMs", async () => {
    await writeFile(join(root, "bin"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    await writeFile(join(root, "u16"), encodeText("a\nb\n", "utf-16le"));
    await writeFile(join(root, "bom"), encodeText("x\n", "utf-8-bom"));
    expect((await stats("bin")).data).toMatchObject({ binary: true, lines: null, encoding: null });
    expect((await stats("u16")).data).toMatchObject({
      lines: 2,
      encoding: "utf-16le",
      line_ending: "lf",
    });
    expect((await stats("bom")).data).toMatchObject({ lines: 1, encoding: "utf-8 with BOM" });
  });

  it("streams files above the threshold with the same figures", async () => {
    const text = "alpha\nbeta\r\ngamma\n".repeat(1000);
    await writeFile(join(root, "big.txt"), text);
    await writeFile(join(root, "u16.txt"), encodeText("a\r\nb\r\nc", "utf-16be"));
    const whole = (await stats("big.txt")).data;
    const streamed = (await stats("big.txt", { streamThresholdBytes: 10, streamChunkBytes: 4096 }))
      .data;
    expect(streamed).toMatchObject({ streamed: true, lines: 3000, line_ending: "mixed" });
    expect(whole).toMatchObject({ streamed: false, lines: 3000, line_ending: "mixed" });
    expect(
      (await stats("u16.txt", { streamThresholdBytes: 1, streamChunkBytes: 4096 })).data,
    ).toMatchObject({
      lines: 3,
      line_ending: "crlf",
      encoding: "utf-16be",
    });
  });

  it("counts lines of a file over 8 MiB by streaming", async () => {
    await writeFile(join(root, "huge.log"), "0123456789abcdef\n".repeat(600_000));
    const { data } = await stats("huge.log");
    expect(data).toMatchObject({ streamed: true, lines: 600_000, bytes: 17 * 600_000 });
  });

  it("lists a directory per file with totals, skipping hidden, ignored and secret entries", async () => {
    await mkdir(join(root, "src"));
    await writeFile(join(root, "src/a.ts"), "1\n2\n");
    await writeFile(join(root, "src/b.ts"), "1\n");
    await writeFile(join(root, "c.md"), "x");
    await writeFile(join(root, ".hidden"), "x\n");
    await writeFile(join(root, ".gitignore"), "*.log\n");
    await writeFile(join(root, "x.log"), "x\n");
    await writeFile(join(root, "id_rsa"), "KEY\n");
    const { data, text } = await stats(undefined);
    expect(data.kind).toBe("directory");
    if (data.kind !== "directory") return;
    expect(data.files.map((file) => [file.path, file.lines])).toEqual([
      ["c.md", 1],
      ["src/a.ts", 2],
      ["src/b.ts", 1],
    ]);
    expect(data).toMatchObject({
      total: 3,
      directories: 1,
      bytes: 7,
      complete: true,
      truncated: false,
      listed: { files: 3, bytes: 7, lines: 4, binary_files: 0 },
    });
    expect(data.skipped_hidden).toBe(2);
    expect(data.skipped_ignored).toBe(1);
    expect(text).toContain(".: 3 files in 1 subdirectory, 7 bytes in all;");
    expect(text).toContain("Lines: 4 in all.");
    expect(text).toContain("Not counted: 2 hidden and 1 .gitignored entries.");
    expect(text).not.toContain("id_rsa");
  });

  it("says entry, not entries, for one left-out entry", async () => {
    await mkdir(join(root, "build"), { recursive: true });
    await writeFile(join(root, ".gitignore"), "build/\n");
    await writeFile(join(root, "build/out.js"), "x\n");
    const { text } = await stats("build");
    expect(text).toContain("Not counted: 1 .gitignored entry.");
  });

  it("pages a directory's files by path; every count says what it covers", async () => {
    await mkdir(join(root, "src/lib"), { recursive: true });
    await writeFile(join(root, "src/lib/z.ts"), "1\n2\n3\n");
    await writeFile(join(root, "src/a.ts"), "1\n2\n");
    await writeFile(join(root, "src/b.ts"), "x".repeat(3000));
    await writeFile(join(root, "c.md"), "x\n");
    await writeFile(join(root, "src-notes.txt"), "n\n");
    const tool = createFileStatsTool({ workspace });
    const all = await tool.run({});
    if (!all.success || all.data.kind !== "directory") throw new Error("expected a directory");
    expect(all.data.files.map((file) => file.path)).toEqual([
      "c.md",
      "src/a.ts",
      "src/b.ts",
      "src/lib/z.ts",
      "src-notes.txt",
    ]);
    const first = await tool.run({ limit: 2 });
    if (!first.success || first.data.kind !== "directory") throw new Error("expected a directory");
    expect(first.data).toMatchObject({
      total: 5,
      next_offset: 3,
      truncated: true,
      bytes: 3014,
      directories: 2,
      listed: { files: 2, bytes: 6, lines: 3 },
    });
    const text = tool.renderResult(first) as string;
    // The whole tree's files and bytes, and the lines of the listed files only — each says so.
    expect(text).toContain(".: 5 files in 2 subdirectories, 2.9 KB (3,014 bytes) in all;");
    expect(text).toContain("Files 1–2 (by path): 3 lines, 6 B.");
    expect(text).toContain(
      '…[truncated: 3 more files — call file_stats again with path=".", limit=2, offset=3]',
    );
    // The marker carries the limit: followed literally, the next page has the same size.
    const next = parseNextCall(text);
    expect(next).toEqual({ tool: "file_stats", args: { path: ".", limit: 2, offset: 3 } });
    const second = await tool.run({ ...next?.args });
    if (!second.success || second.data.kind !== "directory")
      throw new Error("expected a directory");
    expect(second.data.files.map((file) => file.path)).toEqual(["src/b.ts", "src/lib/z.ts"]);
    expect(second.data).toMatchObject({ offset: 3, next_offset: 5, listed: { lines: 4 } });
    const last = await tool.run({ offset: 5, limit: 2 });
    expect(last.success && last.data).toMatchObject({ truncated: false });
    expect(last.success && "next_offset" in last.data).toBe(false);
    const past = await tool.run({ offset: 6 });
    expect(past.success ? undefined : past.error).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("offset=6 is past the end: there are 5 files in all"),
    });
    const again = await tool.run({ limit: 2 });
    expect(again).toEqual(first);
  });

  it("says 'at least' when the walk stops counting, and the next page is still reachable", async () => {
    for (let index = 0; index < 20; index += 1) {
      await writeFile(join(root, `f${String(index).padStart(2, "0")}.txt`), "x\n");
    }
    const tool = createFileStatsTool({ workspace, maxScanEntries: 5 });
    const first = await tool.run({ limit: 3 });
    if (!first.success || first.data.kind !== "directory") throw new Error("expected a directory");
    expect(first.data.total).toBeUndefined();
    expect(first.data).toMatchObject({
      complete: false,
      total_at_least: 5,
      next_offset: 4,
      truncated: true,
    });
    const text = tool.renderResult(first) as string;
    expect(text).toContain(".: at least 5 files in at least 0 subdirectories, at least 10 bytes");
    expect(text).toContain("…[truncated: at least 2 more files — call file_stats again");
    const end = await tool.run({ offset: 19, limit: 3 });
    expect(end.success && end.data).toMatchObject({ complete: true, total: 20, truncated: false });
  });

  it("refuses escapes and secrets", async () => {
    await symlink(outside, join(root, "escape"));
    await writeFile(join(root, ".env"), "KEY=1");
    const tool = createFileStatsTool({ workspace });
    for (const path of ["../x", "/etc/passwd", "escape"]) {
      const result = await tool.run({ path });
      expect(result.success ? undefined : result.error.code, path).toBe("INVALID_PATH");
    }
    const secret = await tool.run({ path: ".env" });
    expect(secret.success ? undefined : secret.error.code).toBe("BLOCKED");
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({
      fileSystem: createMemoryFileSystem({ sample: "a\nb\n", "dir/other.md": "x" }),
    });
    const tool = createFileStatsTool({ workspace: memory });
    const result = await tool.run({ path: "sample" });
    expect(result.success && result.data).toMatchObject({ lines: 2 });
    await assertConformance([tool], {
      samples: { file_stats: {} },
      cutSamples: { file_stats: { path: ".", limit: 1 } },
    });
    const aliased = await tool.run({ file_path: "sample" });
    expect(aliased.success && aliased.data.path).toBe("sample");
  });
});

describe("file_stats's description", () => {
  it("names read_file only when it is mounted", () => {
    expect(createFileStatsTool({ workspace }).description).not.toContain("read_file");
    expect(createFileStatsTool({ workspace, mountedTools: ["read_file"] }).description).toContain(
      "before read_file",
    );
  });
});

/** What a {@link countingFileSystem} saw: the paths of each call (sized names joined to their folder). */
interface SeamCalls {
  stat: string[];
  readFile: string[];
  listed: string[];
  sized: string[];
}

/** Wraps a seam, recording the paths it is asked to stat, read, list and size. */
function countingFileSystem(inner: FileSystem): { fileSystem: FileSystem; calls: SeamCalls } {
  const calls: SeamCalls = { stat: [], readFile: [], listed: [], sized: [] };
  const fileSystem: FileSystem = Object.assign(Object.create(inner) as FileSystem, {
    stat(path: string) {
      calls.stat.push(path);
      return inner.stat(path);
    },
    readFile(path: string) {
      calls.readFile.push(path);
      return inner.readFile(path);
    },
    readDirectory(path: string) {
      calls.listed.push(path);
      return inner.readDirectory(path);
    },
    ...(inner.readDirectoryNames === undefined
      ? {}
      : {
          readDirectoryNames(path: string) {
            calls.listed.push(path);
            return inner.readDirectoryNames?.(path) ?? Promise.resolve([]);
          },
        }),
    ...(inner.readEntrySizes === undefined
      ? {}
      : {
          readEntrySizes(path: string, names: readonly string[]) {
            for (const name of names)
              calls.sized.push(path.length === 0 ? name : `${path}/${name}`);
            return inner.readEntrySizes?.(path, names) ?? Promise.resolve([]);
          },
        }),
  });
  return { fileSystem, calls };
}

async function directoryStats(
  fileSystem: FileSystem,
  input: Record<string, unknown>,
  options: Record<string, unknown> = {},
): Promise<FileStatsDirectoryData> {
  const tool = createFileStatsTool({ workspace: createWorkspace({ fileSystem }), ...options });
  const result = await tool.run(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  if (result.data.kind !== "directory") throw new Error("expected a directory");
  return result.data;
}

/** A tree of 4 folders × 5 files (with hidden, ignored and secret entries beside them). */
async function writeTree(): Promise<void> {
  await writeFile(join(root, ".gitignore"), "*.log\n");
  for (const folder of ["a", "b", "c", "d"]) {
    await mkdir(join(root, "tree", folder), { recursive: true });
    for (let index = 0; index < 5; index += 1) {
      await writeFile(join(root, "tree", folder, `f${index}.txt`), `${folder}\n`.repeat(index + 1));
    }
    await writeFile(join(root, "tree", folder, "skip.log"), "ignored\n");
    await writeFile(join(root, "tree", folder, ".hidden"), "hidden\n");
    await writeFile(join(root, "tree", folder, "id_rsa"), "KEY\n");
  }
}

describe("file_stats of a directory: only the page is read", () => {
  it("keeps exact totals past the page while statting and reading only the page's files", async () => {
    await writeTree();
    const { fileSystem, calls } = countingFileSystem(createNodeFileSystem({ root }));
    const page = await directoryStats(fileSystem, { path: "tree", offset: 7, limit: 3 });
    const whole = await directoryStats(createNodeFileSystem({ root }), { path: "tree" });
    expect(page.files.map((file) => [file.path, file.lines, file.bytes])).toEqual([
      ["tree/b/f1.txt", 2, 4],
      ["tree/b/f2.txt", 3, 6],
      ["tree/b/f3.txt", 4, 8],
    ]);
    // The whole tree's figures, exact, as a call that lists every file gives them.
    expect(page).toMatchObject({
      total: 20,
      directories: 4,
      bytes: whole.bytes,
      complete: true,
      truncated: true,
      next_offset: 10,
      skipped_hidden: 4,
      skipped_ignored: 4,
    });
    expect(whole.bytes).toBe(4 * (2 + 4 + 6 + 8 + 10));
    // No stat of any entry (the walked folder, and the ignore files looked for on its way, only);
    // only the page's files are read; only counted files are sized, each once.
    expect(
      calls.stat.filter((path) => path.startsWith("tree/") && !/\/\.(git)?ignore$/.test(path)),
    ).toEqual([]);
    expect(calls.readFile.filter((path) => !path.endsWith(".gitignore"))).toEqual([
      "tree/b/f1.txt",
      "tree/b/f2.txt",
      "tree/b/f3.txt",
    ]);
    expect([...calls.sized].sort()).toEqual(
      ["a", "b", "c", "d"].flatMap((folder) =>
        [0, 1, 2, 3, 4].map((index) => `tree/${folder}/f${index}.txt`),
      ),
    );
    expect(calls.listed).toEqual(["tree", "tree/a", "tree/b", "tree/c", "tree/d"]);
  });

  it("lists, sizes and reads nothing past the scan cap once the page is full", async () => {
    await writeTree();
    const { fileSystem, calls } = countingFileSystem(createNodeFileSystem({ root }));
    const data = await directoryStats(
      fileSystem,
      { path: "tree", limit: 2 },
      { maxScanEntries: 8 },
    );
    expect(data.files.map((file) => file.path)).toEqual(["tree/a/f0.txt", "tree/a/f1.txt"]);
    // a, its 5 files, b and b's first file are the 8 entries counted; the walk stops there.
    expect(data).toMatchObject({
      complete: false,
      total_at_least: 6,
      directories: 2,
      bytes: 2 + 4 + 6 + 8 + 10 + 2,
      next_offset: 3,
      skipped_hidden: 2,
      skipped_ignored: 1,
    });
    expect(data.total).toBeUndefined();
    expect(calls.listed).toEqual(["tree", "tree/a", "tree/b"]);
    expect([...calls.sized].sort()).toEqual([
      "tree/a/f0.txt",
      "tree/a/f1.txt",
      "tree/a/f2.txt",
      "tree/a/f3.txt",
      "tree/a/f4.txt",
      "tree/b/f0.txt",
    ]);
    expect(calls.readFile.filter((path) => !path.endsWith(".gitignore"))).toEqual([
      "tree/a/f0.txt",
      "tree/a/f1.txt",
    ]);
  });

  it("gives the same figures over a seam without the names-only fast path", async () => {
    await writeTree();
    const files: Record<string, string> = { ".gitignore": "*.log\n" };
    for (const folder of ["a", "b", "c", "d"]) {
      for (let index = 0; index < 5; index += 1) {
        files[`tree/${folder}/f${index}.txt`] = `${folder}\n`.repeat(index + 1);
      }
      files[`tree/${folder}/skip.log`] = "ignored\n";
      files[`tree/${folder}/.hidden`] = "hidden\n";
      files[`tree/${folder}/id_rsa`] = "KEY\n";
    }
    const memory = createMemoryFileSystem(files);
    expect(memory.readDirectoryNames).toBeUndefined();
    for (const input of [{ path: "tree" }, { path: "tree", offset: 4, limit: 5 }]) {
      const onDisk = await directoryStats(createNodeFileSystem({ root }), input);
      const inMemory = await directoryStats(memory, input);
      const { modified_at: _disk, ...diskFigures } = onDisk;
      const { modified_at: _memory, ...memoryFigures } = inMemory;
      expect(memoryFigures).toEqual(diskFigures);
    }
  });

  it("applies nested .gitignore and .ignore files to their own folder only", async () => {
    await mkdir(join(root, "src/generated"), { recursive: true });
    await writeFile(join(root, "src/.gitignore"), "*.tmp\n!keep.tmp\n");
    await writeFile(join(root, "src/generated/.ignore"), "*.js\n");
    await writeFile(join(root, "src/a.tmp"), "x\n");
    await writeFile(join(root, "src/keep.tmp"), "x\n");
    await writeFile(join(root, "src/generated/out.js"), "x\n");
    await writeFile(join(root, "src/generated/out.ts"), "x\n");
    await writeFile(join(root, "top.tmp"), "x\n");
    await writeFile(join(root, "top.js"), "x\n");
    const data = await directoryStats(createNodeFileSystem({ root }), {});
    expect(data.files.map((file) => file.path)).toEqual([
      "src/generated/out.ts",
      "src/keep.tmp",
      "top.js",
      "top.tmp",
    ]);
    expect(data).toMatchObject({ total: 4, skipped_ignored: 2, skipped_hidden: 2 });
    // Walked from inside, the folders above still apply their rules.
    const inner = await directoryStats(createNodeFileSystem({ root }), { path: "src/generated" });
    expect(inner.files.map((file) => file.path)).toEqual(["src/generated/out.ts"]);
    expect(inner).toMatchObject({ total: 1, skipped_ignored: 1, skipped_hidden: 1 });
  });

  it("keeps secret paths out when the walked folder is reached through a symlink", async () => {
    // `settings` shows as a plain folder, but its real path is `.config`, where gcloud and
    // gh/hosts.yml are secret: they are judged on the real path too.
    await mkdir(join(root, ".config/gcloud"), { recursive: true });
    await mkdir(join(root, ".config/gh"), { recursive: true });
    await writeFile(join(root, ".config/gcloud/credentials.db"), "TOKEN\n");
    await writeFile(join(root, ".config/gh/hosts.yml"), "oauth_token: x\n");
    await writeFile(join(root, ".config/gh/config.yml"), "editor: vi\n");
    await writeFile(join(root, ".config/app.json"), "{}\n");
    await writeFile(join(root, ".config/.env"), "KEY=1\n");
    await writeFile(join(root, ".config/server.pem"), "KEY\n");
    await symlink(join(root, ".config"), join(root, "settings"));
    await symlink(join(root, ".config/gh/hosts.yml"), join(root, ".config/hosts-link.yml"));
    const { fileSystem, calls } = countingFileSystem(createNodeFileSystem({ root }));
    const tool = createFileStatsTool({ workspace: createWorkspace({ fileSystem }) });
    const result = await tool.run({ path: "settings" });
    if (!result.success || result.data.kind !== "directory")
      throw new Error("expected a directory");
    expect(result.data.files.map((file) => file.path)).toEqual([
      "settings/app.json",
      "settings/gh/config.yml",
    ]);
    // Secret entries are not counted at all (not even as hidden); the symlink is not followed.
    expect(result.data).toMatchObject({ total: 2, directories: 1, skipped_hidden: 0 });
    const text = tool.renderResult(result) as string;
    for (const secret of ["gcloud", "hosts.yml", ".env", "server.pem", "credentials"]) {
      expect(text).not.toContain(secret);
    }
    const touched = [...calls.readFile, ...calls.sized, ...calls.listed];
    expect(touched.filter((path) => /gcloud|hosts\.yml|\.env|\.pem/.test(path))).toEqual([]);
    expect(touched.filter((path) => path.includes("hosts-link"))).toEqual([]);
  });

  it("analyses a page a few files at a time and keeps it in path order", async () => {
    await mkdir(join(root, "logs"));
    for (let index = 0; index < 30; index += 1) {
      await writeFile(
        join(root, "logs", `l${String(index).padStart(2, "0")}.txt`),
        "line\n".repeat(index + 1),
      );
    }
    await writeFile(join(root, "logs", "l99.bin"), new Uint8Array([0, 1, 2, 0, 3]));
    const progress: number[] = [];
    const tool = createFileStatsTool({ workspace, streamThresholdBytes: 40 });
    const result = await tool.run(
      { path: "logs", limit: 31 },
      { progress: (update) => progress.push(update.completed ?? -1) },
    );
    if (!result.success || result.data.kind !== "directory")
      throw new Error("expected a directory");
    expect(result.data.files.map((file) => file.lines)).toEqual([
      ...Array.from({ length: 30 }, (_, index) => index + 1),
      null,
    ]);
    expect(result.data.listed).toEqual({
      files: 31,
      bytes: 5 * ((30 * 31) / 2) + 5,
      lines: (30 * 31) / 2,
      binary_files: 1,
    });
    expect(progress).toEqual(Array.from({ length: 31 }, (_, index) => index));
    const again = await tool.run({ path: "logs", limit: 31 });
    expect(again).toEqual(result);
  });
});
