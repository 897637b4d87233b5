import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
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

describe("listing names and sizing entries (the synchronous quick path)", () => {
  async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message?: string }> {
    try {
      await promise;
      return {};
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      return { code, message };
    }
  }

  it("lists and sizes like readDirectory, and gives its errors for what it cannot list", async () => {
    const seam = createNodeFileSystem({ root });
    await mkdir(join(root, "dir/sub"), { recursive: true });
    await writeFile(join(root, "dir/one.txt"), "1");
    await writeFile(join(root, "dir/three.txt"), "333");
    await symlink("one.txt", join(root, "dir/link"));
    await writeFile(join(root, "notes.txt"), "n");
    const names = await seam.readDirectoryNames?.("dir");
    const entries = await seam.readDirectory("dir");
    const byName = (list: Array<{ name: string; type: string }>) =>
      list.map((entry) => `${entry.name}:${entry.type}`).sort();
    expect(byName(names ?? [])).toEqual([
      "link:symlink",
      "one.txt:file",
      "sub:directory",
      "three.txt:file",
    ]);
    expect(byName(names ?? [])).toEqual(byName(entries));
    // Files by their size; a directory, a symlink (never followed) and a missing name count 0.
    expect(
      await seam.readEntrySizes?.("dir", ["three.txt", "one.txt", "sub", "link", "gone"]),
    ).toEqual([3, 1, 0, 0, 0]);
    // A name never reaches outside its directory (the root's sibling victim.txt is 8 bytes).
    await writeFile(join(root, "eight.txt"), "12345678");
    expect(
      await seam.readEntrySizes?.("dir", ["../eight.txt", "../../victim.txt", "..", ".", ""]),
    ).toEqual([0, 0, 0, 0, 0]);
    expect(await seam.readEntrySizes?.("", ["eight.txt"])).toEqual([8]);
    for (const path of ["notes.txt", "missing", "dir/../.."]) {
      const quick = await errorOf(seam.readDirectoryNames?.(path) ?? Promise.resolve());
      expect(quick, path).toEqual(await errorOf(seam.readDirectory(path)));
      expect(quick.code, path).toBeDefined();
      expect(await errorOf(seam.readEntrySizes?.(path, ["x"]) ?? Promise.resolve()), path).toEqual(
        quick,
      );
    }
  });

  it("sizes a long list of names (most on the thread pool) exactly and in order, hostile names included", async () => {
    const seam = createNodeFileSystem({ root });
    await mkdir(join(root, "many/sub"), { recursive: true });
    const names: string[] = [];
    for (let index = 0; index < 120; index += 1) {
      names.push(`file-${index}.txt`);
      await writeFile(join(root, "many", `file-${index}.txt`), "x".repeat(index));
    }
    await symlink("file-5.txt", join(root, "many/link"));
    await writeFile(join(root, "eight.txt"), "12345678");
    const hostile = ["../eight.txt", "../../victim.txt", "..", ".", "", "link", "sub", "gone"];
    // Hostile names both among the first three quarters (the pool's) and the last (this thread's),
    // a NUL byte among them (a raw lstat would throw on it).
    hostile.push("bad\0name");
    const asked = [...hostile, ...names, ...hostile];
    const sizes = await seam.readEntrySizes?.("many", asked);
    expect(sizes).toEqual([
      ...hostile.map(() => 0),
      ...names.map((_, index) => index),
      ...hostile.map(() => 0),
    ]);
  });

  it("follows a symlinked directory only while it stays inside the root", async () => {
    const seam = createNodeFileSystem({ root });
    await mkdir(join(root, "real"));
    await writeFile(join(root, "real/a.txt"), "aa");
    await symlink(join(root, "real"), join(root, "inside-link"));
    await symlink(outside, join(root, "outside-link"));
    expect((await seam.readDirectoryNames?.("inside-link"))?.map((entry) => entry.name)).toEqual([
      "a.txt",
    ]);
    expect(await seam.readEntrySizes?.("inside-link", ["a.txt"])).toEqual([2]);
    expect(
      await errorOf(seam.readDirectoryNames?.("outside-link") ?? Promise.resolve()),
    ).toMatchObject({
      code: "INVALID_PATH",
      message: expect.stringContaining("outside the workspace"),
    });
    expect(
      await errorOf(seam.readEntrySizes?.("outside-link", ["victim.txt"]) ?? Promise.resolve()),
    ).toMatchObject({ code: "INVALID_PATH" });
    // A link part way along the path: followed inside the root, refused out of it.
    await mkdir(join(root, "real/deeper"));
    await writeFile(join(root, "real/deeper/b.txt"), "bbb");
    await mkdir(join(outside, "deeper"));
    expect(
      (await seam.readDirectoryNames?.("inside-link/deeper"))?.map((entry) => entry.name),
    ).toEqual(["b.txt"]);
    expect(await seam.readEntrySizes?.("inside-link/deeper", ["b.txt"])).toEqual([3]);
    expect(
      await errorOf(seam.readDirectoryNames?.("outside-link/deeper") ?? Promise.resolve()),
    ).toMatchObject({ code: "INVALID_PATH" });
  });

  it("lists a directory of thousands of entries whole, letting the event loop run between batches", async () => {
    const seam = createNodeFileSystem({ root });
    await mkdir(join(root, "wide"));
    const count = 5000;
    const names = Array.from({ length: count }, (_, index) => `f${index}.txt`);
    await Promise.all(
      names.map((name, index) => writeFile(join(root, "wide", name), "x".repeat(index % 7))),
    );
    // Turns of the event loop while each call runs: a pass that held the loop would see none.
    let turns = 0;
    let counting = true;
    const countTurns = (): void => {
      turns += 1;
      if (counting) setImmediate(countTurns);
    };
    setImmediate(countTurns);
    const listed = await seam.readDirectoryNames?.("wide");
    const listingTurns = turns;
    const sizes = await seam.readEntrySizes?.("wide", names);
    counting = false;
    expect(listed?.length).toBe(count);
    expect(new Set(listed?.map((entry) => entry.name))).toEqual(new Set(names));
    expect(sizes).toEqual(names.map((_, index) => index % 7));
    expect(listingTurns).toBeGreaterThanOrEqual(4);
    expect(turns - listingTurns).toBeGreaterThanOrEqual(4);
  });
});
