import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
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
  it("lists directories first, then by name, with types and sizes", async () => {
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
    expect(text).toContain("b.txt  (5 bytes)");
  });

  it("recurses to depth in tree order", async () => {
    await mkdir(join(root, "src/lib/deep"), { recursive: true });
    await writeFile(join(root, "src/lib/deep/x.ts"), "x");
    await writeFile(join(root, "src/index.ts"), "x");
    const { data, text } = await list({ depth: 2 });
    expect(data.entries.map((entry) => entry.path)).toEqual(["src", "src/lib", "src/index.ts"]);
    expect(text.split("\n").slice(1)).toEqual(["src/", "  lib/", "  index.ts  (1 bytes)"]);
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
    expect(inside).toMatchObject({ type: "symlink", target: "target.txt", targetType: "file" });
    const outsideLink = data.entries.find((entry) => entry.name === "outside-link");
    expect(outsideLink).toMatchObject({ type: "symlink", targetType: "outside" });
    expect(outsideLink?.target).toBeUndefined();
    expect(text).not.toContain(outside);
    expect(text).not.toContain("secret.txt");
  });

  it("caps entries with the standard marker, breadth first", async () => {
    await mkdir(join(root, "a"));
    for (let index = 0; index < 8; index += 1) await writeFile(join(root, `a/f${index}`), "x");
    for (let index = 0; index < 3; index += 1) await writeFile(join(root, `top${index}`), "x");
    const { data, text } = await list({ depth: 2 }, { maxEntries: 6 });
    expect(data.entries).toHaveLength(6);
    expect(data.entries.filter((entry) => entry.depth === 1)).toHaveLength(4);
    expect(data.omitted).toBe(6);
    expect(text).toMatch(/…\[truncated: 6 more entries — .*path="a"/);
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
    expect(file.success ? undefined : file.error.code).toBe("INVALID_PATH");
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
    await assertConformance([tool], { samples: { list_directory: {} } });
  });
});
