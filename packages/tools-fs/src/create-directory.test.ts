import { stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createCreateDirectoryTool } from "./create-directory.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

useNodeWorkspace("agentool-mkdir-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

describe("createCreateDirectoryTool", () => {
  it("creates nested directories and says when one already exists", async () => {
    const tool = createCreateDirectoryTool({ workspace });
    const created = await tool.run({ path: "a/b/c" });
    expect(created).toEqual({ success: true, data: { path: "a/b/c", created: true } });
    expect((await stat(join(root, "a/b/c"))).isDirectory()).toBe(true);
    const again = await tool.run({ path: "a/b/c" });
    expect(again).toEqual({ success: true, data: { path: "a/b/c", created: false } });
    expect(tool.renderResult(again)).toMatch(/already exists/);
  });

  it("refuses a file in the way", async () => {
    await writeFile(join(root, "file"), "x");
    const result = await createCreateDirectoryTool({ workspace }).run({ path: "file" });
    expect(result.success ? undefined : result.error.code).toBe("FILE_ALREADY_EXISTS");
  });

  it("refuses escapes (.., absolute, symlinked directory) and secret paths", async () => {
    await symlink(outside, join(root, "escape"));
    const tool = createCreateDirectoryTool({ workspace });
    for (const path of ["../x", "/etc/agentool", join(outside, "x"), "escape/x", "a/../../x"]) {
      const result = await tool.run({ path });
      expect(result.success ? undefined : result.error.code, path).toBe("INVALID_PATH");
    }
    const secret = await tool.run({ path: ".ssh" });
    expect(secret.success ? undefined : secret.error.code).toBe("BLOCKED");
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem() });
    const tool = createCreateDirectoryTool({ workspace: memory });
    await assertConformance([tool], { samples: { create_directory: { path: "docs" } } });
    expect(await memory.fileSystem.stat("docs")).toMatchObject({ type: "directory" });
  });

  it("a file at the path is FILE_ALREADY_EXISTS; a file among its parents is INVALID_PATH", async () => {
    await writeFile(join(root, "notes.txt"), "x");
    const tool = createCreateDirectoryTool({ workspace });
    const atPath = await tool.run({ path: "notes.txt" });
    expect(atPath.success ? undefined : atPath.error.code).toBe("FILE_ALREADY_EXISTS");
    const under = await tool.run({ path: "notes.txt/sub" });
    expect(under.success ? undefined : under.error).toMatchObject({
      code: "INVALID_PATH",
      message: expect.stringContaining("is a file, not a directory"),
    });
    const aliased = await tool.run({ dir_path: "made" });
    expect(aliased.success && aliased.data).toEqual({ path: "made", created: true });
  });

  it("names only the mounted tools that create parents themselves", () => {
    expect(createCreateDirectoryTool({ workspace }).description).not.toMatch(
      /write_file|move_file|copy_file/,
    );
    expect(
      createCreateDirectoryTool({ workspace, mountedTools: ["write_file"] }).description,
    ).toContain("You do not need it before write_file: it creates parents itself.");
    expect(
      createCreateDirectoryTool({
        workspace,
        mountedTools: ["write_file", "move_file", "copy_file"],
      }).description,
    ).toContain("before write_file, move_file or copy_file: they create parents themselves.");
  });
});
