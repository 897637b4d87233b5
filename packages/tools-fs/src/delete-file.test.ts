import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createDeleteFileTool } from "./delete-file.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { errorCodeOf, pathExists, useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

const exists = pathExists;

useNodeWorkspace("agentool-delete-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

const code = errorCodeOf;

describe("createDeleteFileTool", () => {
  it("deletes files and empty directories", async () => {
    await writeFile(join(root, "a.txt"), "x");
    await mkdir(join(root, "empty"));
    const tool = createDeleteFileTool({ workspace });
    const result = await tool.run({ path: "a.txt" });
    expect(result).toEqual({
      success: true,
      data: { path: "a.txt", type: "file", removed_entries: 0 },
    });
    expect(await exists(join(root, "a.txt"))).toBe(false);
    expect(await code(tool.run({ path: "empty" }))).toBe("success");
    expect(await code(tool.run({ path: "a.txt" }))).toBe("FILE_NOT_FOUND");
  });

  it("refuses a non-empty directory without recursive, naming the count", async () => {
    await mkdir(join(root, "dir/sub"), { recursive: true });
    await writeFile(join(root, "dir/a"), "x");
    await writeFile(join(root, "dir/sub/b"), "x");
    const tool = createDeleteFileTool({ workspace });
    const refused = await tool.run({ path: "dir" });
    expect(refused.success).toBe(false);
    if (refused.success) return;
    expect(refused.error.code).toBe("DIRECTORY_NOT_EMPTY");
    expect(refused.error.message).toContain("2 entries");
    expect(refused.error.hint).toContain("recursive: true");
    const deleted = await tool.run({ path: "dir", recursive: true });
    expect(deleted.success && deleted.data.removed_entries).toBe(3);
    expect(await exists(join(root, "dir"))).toBe(false);
  });

  it("never deletes the root, however it is spelled", async () => {
    const tool = createDeleteFileTool({ workspace });
    for (const path of ["", ".", "./", root, "a/..", "/"]) {
      const result = await code(tool.run({ path, recursive: true }));
      expect(result, path).toBe("INVALID_PATH");
    }
    expect(await exists(root)).toBe(true);
  });

  it("deletes a symlink itself, never its target, even when the target is outside", async () => {
    await writeFile(join(outside, "keep.txt"), "x");
    await writeFile(join(root, "target.txt"), "x");
    await symlink(join(root, "target.txt"), join(root, "link"));
    await symlink(outside, join(root, "escape"));
    const tool = createDeleteFileTool({ workspace });
    const link = await tool.run({ path: "link" });
    expect(link.success && link.data.type).toBe("symlink");
    expect(await exists(join(root, "target.txt"))).toBe(true);
    expect(await code(tool.run({ path: "escape/keep.txt" }))).toBe("INVALID_PATH");
    expect(await code(tool.run({ path: "escape", recursive: true }))).toBe("success");
    expect(await exists(join(outside, "keep.txt"))).toBe(true);
  });

  it("refuses escapes, secret paths and directories holding secrets", async () => {
    await writeFile(join(outside, "victim"), "x");
    await mkdir(join(root, "config"));
    await writeFile(join(root, "config/.env"), "KEY=1");
    await writeFile(join(root, ".env"), "KEY=1");
    const tool = createDeleteFileTool({ workspace });
    expect(await code(tool.run({ path: "../victim" }))).toBe("INVALID_PATH");
    expect(await code(tool.run({ path: join(outside, "victim") }))).toBe("INVALID_PATH");
    expect(await code(tool.run({ path: ".env" }))).toBe("BLOCKED");
    expect(await code(tool.run({ path: "config", recursive: true }))).toBe("BLOCKED");
    expect(await exists(join(root, "config/.env"))).toBe(true);
    expect(await exists(join(outside, "victim"))).toBe(true);
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({
      fileSystem: createMemoryFileSystem({ sample: "x", "d/a": "1" }),
    });
    const tool = createDeleteFileTool({ workspace: memory });
    expect(await code(tool.run({ path: "d" }))).toBe("DIRECTORY_NOT_EMPTY");
    await assertConformance([tool], { samples: { delete_file: { path: "sample" } } });
    expect(tool.annotations.destructive).toBe(true);
  });

  it("accepts file_path, says a missing path is FILE_NOT_FOUND, names list_directory only when mounted", async () => {
    await writeFile(join(root, "gone.txt"), "x");
    const tool = createDeleteFileTool({ workspace });
    const aliased = await tool.run({ file_path: "gone.txt" });
    expect(aliased.success && aliased.data).toEqual({
      path: "gone.txt",
      type: "file",
      removed_entries: 0,
    });
    const missing = await tool.run({ path: "gone.txt" });
    expect(missing.success ? undefined : missing.error.code).toBe("FILE_NOT_FOUND");
    expect(tool.description).not.toContain("list_directory");
    expect(
      createDeleteFileTool({ workspace, mountedTools: ["list_directory"] }).description,
    ).toContain("check its contents with list_directory first");
  });

  it("a path under a file is INVALID_PATH, not FILE_NOT_FOUND", async () => {
    await writeFile(join(root, "notes.txt"), "x");
    const result = await createDeleteFileTool({ workspace }).run({ path: "notes.txt/inner" });
    expect(result.success ? undefined : result.error).toMatchObject({
      code: "INVALID_PATH",
      message: "notes.txt is a file, not a directory, so notes.txt/inner cannot be inside it.",
    });
  });
});
