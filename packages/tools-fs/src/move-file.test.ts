import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createMoveFileTool } from "./move-file.js";
import { errorCodeOf, pathExists, useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

const exists = pathExists;

useNodeWorkspace("agentool-move-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

const code = errorCodeOf;

describe("createMoveFileTool", () => {
  it("moves a file, creating parents", async () => {
    await writeFile(join(root, "a.txt"), "A");
    const tool = createMoveFileTool({ workspace });
    const result = await tool.run({ source: "a.txt", destination: "x/y/b.txt" });
    expect(result.success && result.data).toMatchObject({
      source: "a.txt",
      destination: "x/y/b.txt",
      type: "file",
      overwritten: false,
    });
    expect(await readFile(join(root, "x/y/b.txt"), "utf8")).toBe("A");
    expect(await exists(join(root, "a.txt"))).toBe(false);
    expect(tool.renderResult(result)).toBe("Moved a.txt to x/y/b.txt.");
  });

  it("refuses an existing destination unless overwrite, and never replaces a directory", async () => {
    await writeFile(join(root, "a.txt"), "A");
    await writeFile(join(root, "b.txt"), "B");
    await mkdir(join(root, "dir"));
    const tool = createMoveFileTool({ workspace });
    expect(await code(tool.run({ source: "a.txt", destination: "b.txt" }))).toBe(
      "FILE_ALREADY_EXISTS",
    );
    expect(await readFile(join(root, "b.txt"), "utf8")).toBe("B");
    expect(await code(tool.run({ source: "a.txt", destination: "dir", overwrite: true }))).toBe(
      "FILE_ALREADY_EXISTS",
    );
    const replaced = await tool.run({ source: "a.txt", destination: "b.txt", overwrite: true });
    expect(replaced.success && replaced.data.overwritten).toBe(true);
    expect(await readFile(join(root, "b.txt"), "utf8")).toBe("A");
  });

  it("moves directories, never into themselves", async () => {
    await mkdir(join(root, "d/sub"), { recursive: true });
    await writeFile(join(root, "d/sub/f"), "x");
    const tool = createMoveFileTool({ workspace });
    expect(await code(tool.run({ source: "d", destination: "d/sub/inner" }))).toBe("INVALID_PATH");
    expect(await code(tool.run({ source: "d", destination: "d" }))).toBe("INVALID_INPUT");
    const moved = await tool.run({ source: "d", destination: "e" });
    expect(moved.success && moved.data.entries).toBe(2);
    expect(await readFile(join(root, "e/sub/f"), "utf8")).toBe("x");
  });

  it("moves a symlink itself", async () => {
    await writeFile(join(root, "t"), "x");
    await symlink("t", join(root, "link"));
    const moved = await createMoveFileTool({ workspace }).run({
      source: "link",
      destination: "renamed",
    });
    expect(moved.success && moved.data.type).toBe("symlink");
    expect(await readFile(join(root, "t"), "utf8")).toBe("x");
  });

  it("confines source and destination (.., absolute, symlinked directory) and refuses secrets", async () => {
    await writeFile(join(root, "a.txt"), "A");
    await writeFile(join(outside, "o.txt"), "O");
    await symlink(outside, join(root, "escape"));
    await mkdir(join(root, "conf"));
    await writeFile(join(root, "conf/.env"), "KEY=1");
    const tool = createMoveFileTool({ workspace });
    for (const [source, destination] of [
      ["a.txt", "../a.txt"],
      ["a.txt", join(outside, "a.txt")],
      ["a.txt", "escape/a.txt"],
      ["escape/o.txt", "o.txt"],
      ["../x", "a2.txt"],
    ] as const) {
      expect(await code(tool.run({ source, destination })), `${source} → ${destination}`).toBe(
        "INVALID_PATH",
      );
    }
    expect(await code(tool.run({ source: "a.txt", destination: ".env" }))).toBe("BLOCKED");
    expect(await code(tool.run({ source: "conf/.env", destination: "x.txt" }))).toBe("BLOCKED");
    expect(await code(tool.run({ source: "conf", destination: "conf2" }))).toBe("BLOCKED");
    expect(await exists(join(outside, "a.txt"))).toBe(false);
    expect(await exists(join(root, "a.txt"))).toBe(true);
  });

  it("serialises opposite moves without deadlock", async () => {
    await writeFile(join(root, "a"), "A");
    await writeFile(join(root, "b"), "B");
    const tool = createMoveFileTool({ workspace });
    const results = await Promise.all([
      tool.run({ source: "a", destination: "b", overwrite: true }),
      tool.run({ source: "b", destination: "a", overwrite: true }),
    ]);
    expect(results.filter((result) => result.success).length).toBeGreaterThanOrEqual(1);
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem({ sample: "x" }) });
    const tool = createMoveFileTool({ workspace: memory });
    await assertConformance([tool], {
      samples: { move_file: { source: "sample", destination: "moved/sample" } },
    });
    expect(await memory.fileSystem.stat("moved/sample")).toMatchObject({ type: "file" });
  });

  it("accepts source/destination aliases, and a file in the destination's parents is INVALID_PATH", async () => {
    await writeFile(join(root, "a.txt"), "A");
    await writeFile(join(root, "block"), "file");
    const tool = createMoveFileTool({ workspace });
    const aliased = await tool.run({ from: "a.txt", to: "b.txt" });
    expect(aliased.success && aliased.data).toMatchObject({
      source: "a.txt",
      destination: "b.txt",
    });
    const paths = await tool.run({ source_path: "b.txt", destination_path: "c.txt" });
    expect(paths.success && paths.data.destination).toBe("c.txt");
    const under = await tool.run({ source: "c.txt", destination: "block/c.txt" });
    expect(under.success ? undefined : under.error).toMatchObject({
      code: "INVALID_PATH",
      message: "block is a file, not a directory, so destination block/c.txt cannot be inside it.",
    });
    const underFile = await tool.run({ source: "block/inner.txt", destination: "x.txt" });
    expect(underFile.success ? undefined : underFile.error).toMatchObject({
      code: "INVALID_PATH",
      message: "block is a file, not a directory, so source block/inner.txt cannot be inside it.",
    });
    const missing = await tool.run({ source: "nope.txt", destination: "x.txt" });
    expect(missing.success ? undefined : missing.error).toMatchObject({
      code: "FILE_NOT_FOUND",
      message: "source nope.txt does not exist.",
    });
  });

  it("names copy_file and delete_file in its description only when they are mounted", () => {
    expect(createMoveFileTool({ workspace }).description).not.toMatch(/copy_file|delete_file/);
    expect(createMoveFileTool({ workspace, mountedTools: ["copy_file"] }).description).toContain(
      "To copy instead, use copy_file.",
    );
    expect(
      createMoveFileTool({ workspace, mountedTools: ["copy_file", "delete_file"] }).description,
    ).toContain("To copy instead, use copy_file; to delete, delete_file.");
  });
});
