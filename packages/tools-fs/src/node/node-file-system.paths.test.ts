import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditFileTool } from "../edit-file.js";
import { createWorkspace } from "../workspace.js";
import { createNodeFileSystem } from "./node-file-system.js";

let outside: string;
let root: string;

beforeEach(async () => {
  outside = await mkdtemp(join(tmpdir(), "agentool-seam-paths-"));
  root = join(outside, "root");
  await mkdir(root);
  await writeFile(join(outside, "victim.txt"), "outside\n");
});

afterEach(async () => {
  await rm(outside, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "success";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe("the Node seam on its own (without the workspace's normalisation)", () => {
  it("refuses '..' segments in remove and rename instead of acting on the root's parent", async () => {
    const seam = createNodeFileSystem({ root });
    await writeFile(join(root, "inside.txt"), "inside\n");
    for (const path of ["a/../..", "..", "a/..", "./inside.txt", "a//b"]) {
      expect(await codeOf(seam.remove(path, { recursive: true })), path).toBe("INVALID_PATH");
    }
    expect(await codeOf(seam.rename("inside.txt", "a/../../moved.txt"))).toBe("INVALID_PATH");
    expect(await codeOf(seam.rename("a/../..", "x"))).toBe("INVALID_PATH");
    expect(await readFile(join(outside, "victim.txt"), "utf8")).toBe("outside\n");
    expect(existsSync(join(root, "inside.txt"))).toBe(true);
    expect(existsSync(join(outside, "moved.txt"))).toBe(false);
  });
});

describe("names that start with two dots are ordinary names inside the root", () => {
  it("writes, reads, lists, edits and removes ..foo and ..dir/a", async () => {
    const seam = createNodeFileSystem({ root });
    const text = new TextEncoder().encode("one\n");
    await seam.writeFile("..foo", text);
    await seam.createDirectory("..dir");
    await seam.writeFile("..dir/a", text);
    expect(new TextDecoder().decode(await seam.readFile("..foo"))).toBe("one\n");
    expect(await seam.realPath("..dir/a")).toBe("..dir/a");
    expect((await seam.readDirectory("..dir")).map((entry) => entry.name)).toEqual(["a"]);
    const edit = createEditFileTool({ workspace: createWorkspace({ fileSystem: seam }) });
    const edited = await edit.run({ path: "..dir/a", old_text: "one", new_text: "two" });
    expect(edited.success).toBe(true);
    expect(await readFile(join(root, "..dir", "a"), "utf8")).toBe("two\n");
    await seam.remove("..foo", { recursive: false });
    expect(existsSync(join(root, "..foo"))).toBe(false);
  });
});
