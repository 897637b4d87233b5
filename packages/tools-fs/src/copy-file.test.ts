import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createCopyFileTool } from "./copy-file.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { errorCodeOf, pathExists, useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

const exists = pathExists;

useNodeWorkspace("agentool-copy-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

const code = errorCodeOf;

describe("createCopyFileTool", () => {
  it("copies a file, creating parents, keeping the source", async () => {
    await writeFile(join(root, "a.txt"), "A");
    const tool = createCopyFileTool({ workspace });
    const result = await tool.run({ source: "a.txt", destination: "x/b.txt" });
    expect(tool.renderResult(result)).toBe("Copied a.txt to x/b.txt.");
    expect(await readFile(join(root, "x/b.txt"), "utf8")).toBe("A");
    expect(await readFile(join(root, "a.txt"), "utf8")).toBe("A");
  });

  it("accepts src / dest / dst for source and destination", async () => {
    await writeFile(join(root, "a.txt"), "A");
    const tool = createCopyFileTool({ workspace });
    expect(await code(tool.run({ src: "a.txt", dest: "b.txt" }))).toBe("success");
    expect(await code(tool.run({ src: "a.txt", dst: "c.txt" }))).toBe("success");
    expect(await readFile(join(root, "c.txt"), "utf8")).toBe("A");
  });

  it("refuses an existing destination without overwrite", async () => {
    await writeFile(join(root, "a.txt"), "A");
    await writeFile(join(root, "b.txt"), "B");
    const tool = createCopyFileTool({ workspace });
    const refused = await tool.run({ source: "a.txt", destination: "b.txt" });
    expect(refused.success ? undefined : refused.error.code).toBe("FILE_ALREADY_EXISTS");
    expect(refused.success ? undefined : refused.error.hint).toContain("overwrite: true");
    expect(await readFile(join(root, "b.txt"), "utf8")).toBe("B");
    expect(await code(tool.run({ source: "a.txt", destination: "b.txt", overwrite: true }))).toBe(
      "success",
    );
    expect(await readFile(join(root, "b.txt"), "utf8")).toBe("A");
  });

  it("copies directory trees, never into themselves", async () => {
    await mkdir(join(root, "d/sub"), { recursive: true });
    await writeFile(join(root, "d/sub/f"), "x");
    const tool = createCopyFileTool({ workspace });
    expect(await code(tool.run({ source: "d", destination: "d/copy" }))).toBe("INVALID_PATH");
    const copied = await tool.run({ source: "d", destination: "e" });
    expect(copied.success && copied.data).toMatchObject({ type: "directory", entries: 2 });
    expect(await readFile(join(root, "e/sub/f"), "utf8")).toBe("x");
    expect(await code(tool.run({ source: "d", destination: "e" }))).toBe("FILE_ALREADY_EXISTS");
  });

  it("confines both paths and refuses secrets", async () => {
    await writeFile(join(root, "a.txt"), "A");
    await writeFile(join(outside, "secret.txt"), "S");
    await symlink(outside, join(root, "escape"));
    await symlink(join(outside, "secret.txt"), join(root, "leak"));
    await writeFile(join(root, "id_rsa"), "KEY");
    const tool = createCopyFileTool({ workspace });
    expect(await code(tool.run({ source: "a.txt", destination: "../a.txt" }))).toBe("INVALID_PATH");
    expect(await code(tool.run({ source: "a.txt", destination: "escape/a.txt" }))).toBe(
      "INVALID_PATH",
    );
    expect(await code(tool.run({ source: "leak", destination: "copied.txt" }))).toBe(
      "INVALID_PATH",
    );
    expect(await code(tool.run({ source: "escape", destination: "copied" }))).toBe("INVALID_PATH");
    expect(await code(tool.run({ source: "id_rsa", destination: "not-secret.txt" }))).toBe(
      "BLOCKED",
    );
    expect(await exists(join(outside, "a.txt"))).toBe(false);
    expect(await exists(join(root, "copied.txt"))).toBe(false);
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem({ sample: "x" }) });
    const tool = createCopyFileTool({ workspace: memory });
    await assertConformance([tool], {
      samples: { copy_file: { source: "sample", destination: "copy/sample" } },
    });
    expect(await memory.fileSystem.stat("copy/sample")).toMatchObject({ type: "file" });
  });

  it("accepts source/destination aliases and names move_file only when it is mounted", async () => {
    await writeFile(join(root, "a.txt"), "A");
    const tool = createCopyFileTool({ workspace });
    const aliased = await tool.run({ old_path: "a.txt", new_path: "b.txt" });
    expect(aliased.success && aliased.data).toMatchObject({
      source: "a.txt",
      destination: "b.txt",
    });
    expect(await readFile(join(root, "b.txt"), "utf8")).toBe("A");
    expect(tool.description).not.toContain("move_file");
    expect(createCopyFileTool({ workspace, mountedTools: ["move_file"] }).description).toContain(
      "use move_file",
    );
  });
});
