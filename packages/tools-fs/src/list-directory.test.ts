import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseNextCall } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createListDirectoryTool, type ListDirectoryToolData } from "./list-directory.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

useNodeWorkspace("agentool-list-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

async function list(input: Record<string, unknown>, options: Record<string, unknown> = {}) {
  const tool = createListDirectoryTool({ workspace, ...options });
  const result = await tool.run(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return { data: result.data as ListDirectoryToolData, text: tool.renderResult(result) as string };
}

describe("createListDirectoryTool", () => {
  it("lists directories first, then by name, with types (and sizes in the data)", async () => {
    await writeFile(join(root, "b.txt"), "12345");
    await writeFile(join(root, "A.md"), "x");
    await mkdir(join(root, "zdir"));
    await mkdir(join(root, "adir"));
    const { data, text } = await list({});
    expect(data.entries.map((entry) => [entry.name, entry.type, entry.size])).toEqual([
      ["adir", "directory", 0],
      ["zdir", "directory", 0],
      ["A.md", "file", 1],
      ["b.txt", "file", 5],
    ]);
    // A small file's size is data only: on every line it would cost tokens and teach nothing.
    expect(text.split("\n").slice(1)).toEqual(["adir/", "zdir/", "A.md", "b.txt"]);
  });

  it("recurses to depth in tree order", async () => {
    await mkdir(join(root, "src/lib/deep"), { recursive: true });
    await writeFile(join(root, "src/lib/deep/x.ts"), "x");
    await writeFile(join(root, "src/index.ts"), "x");
    const { data, text } = await list({ depth: 2 });
    expect(data.entries.map((entry) => entry.path)).toEqual(["src", "src/lib", "src/index.ts"]);
    expect(text.split("\n").slice(1)).toEqual(["src/", "  lib/", "  index.ts"]);
    const deeper = await list({ path: "src", depth: 3 });
    expect(deeper.data.entries.map((entry) => entry.path)).toContain("src/lib/deep/x.ts");
  });

  it("hides dot entries unless include_hidden, and never shows secrets", async () => {
    await writeFile(join(root, ".hidden"), "x");
    await writeFile(join(root, ".env"), "KEY=1");
    await writeFile(join(root, "server.pem"), "KEY");
    await mkdir(join(root, ".ssh"));
    const hidden = await list({});
    expect(hidden.data.entries).toEqual([]);
    // One name for the count across the family (file_stats says skipped_hidden too).
    expect(hidden.data.skipped_hidden).toBe(1);
    expect(hidden.data).not.toHaveProperty("hidden_skipped");
    expect(hidden.text).toMatch(
      /1 hidden entry is not shown — call again with include_hidden=true/,
    );
    const shown = await list({ include_hidden: true });
    expect(shown.data.entries.map((entry) => entry.name)).toEqual([".hidden"]);
    expect(shown.text).not.toMatch(/\.env|pem|\.ssh/);
    const blocked = await createListDirectoryTool({ workspace }).run({ path: ".ssh" });
    expect(blocked.success ? undefined : blocked.error.code).toBe("BLOCKED");
  });

  it("marks .gitignored entries and does not expand ignored directories", async () => {
    await writeFile(join(root, ".gitignore"), "node_modules/\n*.log\n");
    await mkdir(join(root, "node_modules/pkg"), { recursive: true });
    await writeFile(join(root, "debug.log"), "x");
    await writeFile(join(root, "keep.ts"), "x");
    const { data, text } = await list({ depth: 3 });
    expect(data.entries.map((entry) => [entry.name, entry.ignored])).toEqual([
      ["node_modules", true],
      ["debug.log", true],
      ["keep.ts", false],
    ]);
    expect(text).toContain("node_modules/  (ignored)");
  });

  it("shows symlinks with their target only inside the root, never following them", async () => {
    await writeFile(join(root, "target.txt"), "x");
    await writeFile(join(outside, "secret.txt"), "x");
    await symlink(join(root, "target.txt"), join(root, "inside-link"));
    await symlink(outside, join(root, "outside-link"));
    const { data, text } = await list({ depth: 2 });
    const inside = data.entries.find((entry) => entry.name === "inside-link");
    expect(inside).toMatchObject({ type: "symlink", target: "target.txt", target_type: "file" });
    const outsideLink = data.entries.find((entry) => entry.name === "outside-link");
    expect(outsideLink).toMatchObject({ type: "symlink", target_type: "outside" });
    expect(outsideLink?.target).toBeUndefined();
    expect(text).not.toContain(outside);
    expect(text).not.toContain("secret.txt");
  });

  it("shows the sizes of files from 100 KB up, human-readable; the data has every size exact", async () => {
    await writeFile(join(root, "small.txt"), "x".repeat(4300));
    await writeFile(join(root, "edge.txt"), "x".repeat(100 * 1024));
    await writeFile(join(root, "below.txt"), "x".repeat(100 * 1024 - 1));
    await writeFile(join(root, "big.bin"), new Uint8Array(3 * 1024 * 1024 + 200_000));
    const { data, text } = await list({});
    expect(data.entries.map((entry) => [entry.name, entry.size])).toEqual([
      ["below.txt", 100 * 1024 - 1],
      ["big.bin", 3 * 1024 * 1024 + 200_000],
      ["edge.txt", 100 * 1024],
      ["small.txt", 4300],
    ]);
    expect(text.split("\n").slice(1)).toEqual([
      "below.txt",
      "big.bin  (3.2 MB)",
      "edge.txt  (100 KB)",
      "small.txt",
    ]);
    expect(text).not.toContain("4300");
    // The host may show every size (0) or another threshold.
    const every = await list({}, { sizeThresholdBytes: 0 });
    expect(every.text).toContain("small.txt  (4.2 KB)");
    const description = createListDirectoryTool({ workspace }).description;
    expect(description).toContain("each entry's name and type (a file's size from 100 KB up)");
  });

  it("costs about as much as a listing without sizes: 500 entries", async () => {
    const files: Record<string, string> = {};
    for (let folder = 0; folder < 20; folder += 1)
      for (let file = 0; file < 24; file += 1)
        files[`src/module${folder}/file_${file}.ts`] = "x".repeat(
          file % 12 === 11 ? 200_000 : 3_000,
        );
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem(files) });
    const render = async (sizeThresholdBytes?: number) => {
      const tool = createListDirectoryTool({
        workspace: memory,
        ...(sizeThresholdBytes === undefined ? {} : { sizeThresholdBytes }),
      });
      return String(tool.renderResult(await tool.run({ path: "src", depth: 2 })));
    };
    const everySize = await render(0);
    const bySize = await render();
    expect(everySize.split("\n")[0]).toContain("500 entries");
    // Sizes only on the 40 large files: about 62% of the characters of a size on every file.
    expect(bySize.length / everySize.length).toBeLessThan(0.7);
    expect(bySize.match(/\(195 KB\)/g)).toHaveLength(40);
  });

  it("pages in tree order: the marker names the exact next call, which returns the rest", async () => {
    await mkdir(join(root, "a"));
    for (let index = 0; index < 8; index += 1) await writeFile(join(root, `a/f${index}`), "x");
    for (let index = 0; index < 3; index += 1) await writeFile(join(root, `top${index}`), "x");
    const whole = await list({ depth: 2 });
    expect(whole.data).toMatchObject({ total: 12, truncated: false, offset: 1 });
    expect(whole.data.next_offset).toBeUndefined();
    const first = await list({ depth: 2, limit: 6 });
    expect(first.data.entries.map((entry) => entry.path)).toEqual([
      "a",
      "a/f0",
      "a/f1",
      "a/f2",
      "a/f3",
      "a/f4",
    ]);
    expect(first.data).toMatchObject({ total: 12, next_offset: 7, truncated: true });
    expect(first.text).toContain("(depth 2; entries 1–6 of 12; directories first)");
    expect(first.text).toContain(
      '…[truncated: 6 more entries — call list_directory again with path=".", depth=2, limit=6, offset=7]',
    );
    // Followed literally, the marker keeps depth and the page size.
    const next = parseNextCall(first.text);
    expect(next).toEqual({
      tool: "list_directory",
      args: { path: ".", depth: 2, limit: 6, offset: 7 },
    });
    const second = await list({ ...next?.args });
    expect(second.data.entries.map((entry) => entry.path)).toEqual([
      "a/f5",
      "a/f6",
      "a/f7",
      "top0",
      "top1",
      "top2",
    ]);
    expect(second.data).toMatchObject({ total: 12, truncated: false });
    expect(second.data.next_offset).toBeUndefined();
    expect(second.text).not.toContain("truncated");
    expect([...first.data.entries, ...second.data.entries]).toEqual(whole.data.entries);
  });

  it("reaches every entry past the default 500 by following the markers", async () => {
    await mkdir(join(root, "many"));
    const names = Array.from({ length: 1203 }, (_, index) => `f${String(index).padStart(4, "0")}`);
    await Promise.all(names.map((name) => writeFile(join(root, "many", name), "x")));
    const seen: string[] = [];
    let input: Record<string, unknown> = { path: "many" };
    for (let calls = 0; calls < 10; calls += 1) {
      const page = await list(input);
      seen.push(...page.data.entries.map((entry) => entry.name));
      const next = parseNextCall(page.text);
      if (next === undefined) break;
      expect(next.args).toEqual({ path: "many", limit: 500, offset: page.data.next_offset });
      input = next.args;
    }
    expect(seen).toEqual(names);
    const first = await list({ path: "many" });
    expect(first.data).toMatchObject({ total: 1203, next_offset: 501, truncated: true });
    expect(first.text).toContain(
      '…[truncated: 703 more entries — call list_directory again with path="many", limit=500, offset=501]',
    );
  });

  it("says 'at least' past the scan cap, and the next call still works", async () => {
    for (let index = 0; index < 30; index += 1) await writeFile(join(root, `n${index}`), "x");
    const tool = createListDirectoryTool({ workspace, maxScanEntries: 10 });
    const result = await tool.run({ limit: 5 });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.total).toBeUndefined();
    expect(result.data).toMatchObject({ total_at_least: 11, next_offset: 6, truncated: true });
    const text = tool.renderResult(result) as string;
    expect(text).toContain("entries 1–5 of at least 11");
    expect(text).toContain("…[truncated: at least 6 more entries — call list_directory again");
    const last = await tool.run({ offset: 26, limit: 5 });
    expect(last.success && last.data).toMatchObject({ total: 30, truncated: false });
  });

  it("refuses an offset past the end with the contract's failure; an empty directory takes offset 1", async () => {
    await writeFile(join(root, "one"), "x");
    await mkdir(join(root, "empty"));
    const tool = createListDirectoryTool({ workspace });
    const past = await tool.run({ offset: 3 });
    expect(past.success ? undefined : past.error).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("offset=3 is past the end: there are 2 entries in all"),
    });
    const empty = await tool.run({ path: "empty", offset: 1 });
    expect(empty.success && empty.data).toMatchObject({ total: 0, truncated: false });
  });

  it("returns the same listing for the same call", async () => {
    for (const name of ["b", "B", "a", "_x", "Z"]) await writeFile(join(root, name), "x");
    await mkdir(join(root, "d"));
    const first = await list({ depth: 2 });
    const second = await list({ depth: 2 });
    expect(second).toEqual(first);
    expect(first.data.entries.map((entry) => entry.name)).toEqual(["d", "_x", "a", "B", "b", "Z"]);
  });

  it("accepts unambiguous aliases silently and suggests the field for other names", async () => {
    await mkdir(join(root, "src"));
    await writeFile(join(root, "src/a.ts"), "x");
    const tool = createListDirectoryTool({ workspace });
    for (const alias of ["dir_path", "directory", "dir"]) {
      const result = await tool.run({ [alias]: "src" });
      expect(result.success && result.data.path, alias).toBe("src");
    }
    const deep = await tool.run({ max_depth: 2, show_hidden: true });
    expect(deep.success && deep.data).toMatchObject({ depth: 2, include_hidden: true });
    const recursive = await tool.run({ recursive: true });
    expect(recursive.success ? undefined : recursive.error).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining('unknown field "recursive" — did you mean "depth"?'),
    });
  });

  it("refuses escapes and files", async () => {
    await writeFile(join(root, "f"), "x");
    await symlink(outside, join(root, "escape"));
    const tool = createListDirectoryTool({ workspace });
    for (const path of ["..", "/etc", outside, "escape", "escape/"]) {
      const result = await tool.run({ path });
      expect(result.success ? undefined : result.error.code, path).toBe("INVALID_PATH");
    }
    const file = await tool.run({ path: "f" });
    expect(file.success ? undefined : file.error).toMatchObject({
      code: "INVALID_PATH",
      message: "f is a file, not a directory; list_directory lists directories.",
      hint: expect.stringContaining("read_file"),
    });
    const missing = await tool.run({ path: "nope" });
    expect(missing.success ? undefined : missing.error.code).toBe("FILE_NOT_FOUND");
  });

  it("says an empty directory is empty; works over the memory seam; passes the conformance kit", async () => {
    await mkdir(join(root, "empty"));
    expect((await list({ path: "empty" })).text).toContain("The directory is empty.");
    const memory = createWorkspace({
      fileSystem: createMemoryFileSystem({ "a/b.md": "x", "c.txt": "y" }),
    });
    const tool = createListDirectoryTool({ workspace: memory });
    const result = await tool.run({ depth: 2 });
    expect(result.success && result.data.entries.map((entry) => entry.path)).toEqual([
      "a",
      "a/b.md",
      "c.txt",
    ]);
    await assertConformance([tool], {
      samples: { list_directory: {} },
      cutSamples: { list_directory: { path: ".", depth: 2, include_hidden: true, limit: 1 } },
    });
  });
});

describe("list_directory past its page", () => {
  it("stats only the entries it shows, with the same sizes and order as a full read", async () => {
    await mkdir(join(root, "big"));
    await mkdir(join(root, "big", "sub"));
    for (let index = 0; index < 40; index += 1) {
      await writeFile(
        join(root, "big", `f-${String(index).padStart(2, "0")}.txt`),
        "x".repeat(index),
      );
    }
    let stats = 0;
    const fullReads: string[] = [];
    const counted = Object.create(workspace.fileSystem) as Workspace["fileSystem"];
    counted.stat = (path) => {
      stats += 1;
      return workspace.fileSystem.stat(path);
    };
    counted.readDirectory = (path) => {
      fullReads.push(path);
      return workspace.fileSystem.readDirectory(path);
    };
    const counting = createWorkspace({ fileSystem: counted });
    const tool = createListDirectoryTool({ workspace: counting });
    const result = await tool.run({ path: "big", limit: 5, offset: 3 });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.entries.map((entry) => [entry.name, entry.size])).toEqual([
      ["f-01.txt", 1],
      ["f-02.txt", 2],
      ["f-03.txt", 3],
      ["f-04.txt", 4],
      ["f-05.txt", 5],
    ]);
    expect(result.data.total).toBe(41);
    expect(result.data.next_offset).toBe(8);
    // Names only for a folder larger than the page (no stat of each of its 41 entries); then a
    // stat of the five files shown, plus the folder itself and ignore-file probes.
    expect(fullReads).toEqual([]);
    expect(stats).toBeLessThan(41);
    const all = await list({ path: "big", limit: 100 });
    expect(all.data.entries.slice(2, 7)).toEqual(result.data.entries);
  });

  it("sizes the shown files with one readEntrySizes call per folder and counts the rest from the names", async () => {
    await mkdir(join(root, "wide"));
    for (let index = 0; index < 300; index += 1) {
      await writeFile(
        join(root, "wide", `e-${String(index).padStart(3, "0")}.txt`),
        "y".repeat(index % 7),
      );
    }
    let stats = 0;
    const sizeCalls: Array<[string, number]> = [];
    const counted = Object.create(workspace.fileSystem) as Workspace["fileSystem"];
    counted.stat = (path) => {
      stats += 1;
      return workspace.fileSystem.stat(path);
    };
    counted.readEntrySizes = (path, names) => {
      sizeCalls.push([path, names.length]);
      return workspace.fileSystem.readEntrySizes?.(path, names) ?? Promise.resolve([]);
    };
    const tool = createListDirectoryTool({ workspace: createWorkspace({ fileSystem: counted }) });
    const result = await tool.run({ path: "wide", limit: 50, offset: 101 });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.total).toBe(300);
    expect(result.data.next_offset).toBe(151);
    expect(result.data.entries).toHaveLength(50);
    expect(result.data.entries.map((entry) => [entry.name, entry.size])).toEqual(
      Array.from({ length: 50 }, (_, index) => [
        `e-${String(index + 100).padStart(3, "0")}.txt`,
        (index + 100) % 7,
      ]),
    );
    // The 50 shown files in one call for their folder; no stat per shown file.
    expect(sizeCalls).toEqual([["wide", 50]]);
    expect(stats).toBeLessThan(10);
    // A seam without the fast path gives the same page.
    const plain = Object.create(workspace.fileSystem) as Workspace["fileSystem"];
    plain.readEntrySizes = undefined;
    const fallback = createListDirectoryTool({ workspace: createWorkspace({ fileSystem: plain }) });
    const same = await fallback.run({ path: "wide", limit: 50, offset: 101 });
    if (!same.success) throw new Error(JSON.stringify(same.error));
    expect(same.data).toEqual(result.data);
  });
});

describe("list_directory's per-folder decisions", () => {
  it("marks ignored entries and skips secrets as a check of each entry's whole path does", async () => {
    // Nested ignore files, a listing inside an ignored folder, secrets at several depths.
    await mkdir(join(root, "app", "build", "deep"), { recursive: true });
    await mkdir(join(root, "app", "src", "gen"), { recursive: true });
    await mkdir(join(root, "app", "keys"), { recursive: true });
    await writeFile(join(root, ".gitignore"), "build/\n*.log\n");
    await writeFile(join(root, "app", "src", ".ignore"), "gen/\n!keep.log\n");
    for (const file of [
      "app/a.log",
      "app/build/out.js",
      "app/build/deep/x.txt",
      "app/src/keep.log",
      "app/src/main.ts",
      "app/src/.env",
      "app/src/gen/g.ts",
      "app/keys/server.pem",
      "app/keys/readme.md",
      "app/.npmrc",
    ]) {
      await writeFile(join(root, file), "text\n");
    }
    const { createIgnoreMatcher } = await import("./internal/gitignore.js");
    for (const input of [
      { path: "app", depth: 3 },
      { path: "app", depth: 3, include_hidden: true },
      { path: "app/build", depth: 2 },
      { path: "app/src", depth: 2, include_hidden: true, limit: 3, offset: 2 },
    ]) {
      const { data } = await list(input);
      // Reference: every entry's whole path through the secret matcher and the ignore matcher.
      const matcher = createIgnoreMatcher(workspace.fileSystem);
      for (const entry of data.entries) {
        expect(workspace.isSecret(entry.path)).toBe(false);
        expect(entry.ignored).toBe(await matcher.isIgnored(entry.path, entry.type === "directory"));
      }
      // The same data over a seam without the names-only fast paths.
      const plain = Object.create(workspace.fileSystem) as Workspace["fileSystem"];
      plain.readDirectoryNames = undefined;
      plain.readEntrySizes = undefined;
      const slow = createListDirectoryTool({ workspace: createWorkspace({ fileSystem: plain }) });
      const same = await slow.run(input);
      if (!same.success) throw new Error(JSON.stringify(same.error));
      expect(same.data).toEqual(data);
    }
    const { data } = await list({ path: "app", depth: 3, include_hidden: true });
    expect(data.entries.map((entry) => [entry.path, entry.ignored])).toEqual([
      ["app/build", true],
      ["app/keys", false],
      ["app/keys/readme.md", false],
      ["app/src", false],
      ["app/src/gen", true],
      ["app/src/.ignore", false],
      ["app/src/keep.log", false],
      ["app/src/main.ts", false],
      ["app/a.log", true],
    ]);
    const inside = await list({ path: "app/build", depth: 2 });
    expect(inside.data.entries.every((entry) => entry.ignored)).toBe(true);
  });
});

describe("list_directory's description", () => {
  it("names only the tools mounted beside it", () => {
    const alone = createListDirectoryTool({ workspace });
    expect(alone.description).not.toMatch(/glob_search|file_stats|read_file/);
    const withSiblings = createListDirectoryTool({
      workspace,
      mountedTools: ["glob_search", "file_stats"],
    });
    expect(withSiblings.description).toContain(
      "Use glob_search to find files by name pattern and file_stats for every size and line count.",
    );
    const onlyGlob = createListDirectoryTool({ workspace, mountedTools: ["glob_search"] });
    expect(onlyGlob.description).toContain("Use glob_search to find files by name pattern.");
    expect(onlyGlob.description).not.toContain("file_stats");
  });
});

describe("paged factories' limit options", () => {
  it("refuse a defaultLimit above maxLimit, with their own defaults filling in", async () => {
    const { createExtractTocTool } = await import("./extract-toc.js");
    const { createFileStatsTool } = await import("./file-stats.js");
    const workspace = createWorkspace({ fileSystem: createMemoryFileSystem() });
    for (const create of [createListDirectoryTool, createExtractTocTool, createFileStatsTool]) {
      expect(() => create({ workspace, defaultLimit: 50, maxLimit: 10 })).toThrow(
        /defaultLimit must not exceed maxLimit/,
      );
      expect(() => create({ workspace, defaultLimit: 10, maxLimit: 50 })).not.toThrow();
      expect(() => create({ workspace, defaultLimit: 100_000 })).toThrow(/maxLimit/);
    }
  });
});
