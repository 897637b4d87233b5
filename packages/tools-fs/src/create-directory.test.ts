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
});
