import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFileSystem } from "./node-file-system.js";

let outside: string;
let root: string;

beforeEach(async () => {
  outside = await mkdtemp(join(tmpdir(), "agentool-seam-read-"));
  root = join(outside, "root");
  await mkdir(root);
  await writeFile(join(outside, "victim.txt"), "outside\n");
});

afterEach(async () => {
  await rm(outside, { recursive: true, force: true });
});

async function outcome(promise: Promise<Uint8Array>): Promise<string> {
  try {
    return `bytes:${Buffer.from(await promise).toString("base64")}`;
  } catch (error) {
    return `error:${(error as { code?: string }).code ?? String(error)}`;
  }
}

describe("the Node seam's readFile: small files synchronously, the rest the usual way", () => {
  it("gives the same bytes on both ways (empty, small, at and past the quick cap, binary)", async () => {
    const seam = createNodeFileSystem({ root });
    const sizes = [0, 1, 4096, 262_143, 262_144, 262_145, 1_000_000];
    for (const size of sizes) {
      const bytes = Buffer.alloc(size);
      for (let index = 0; index < size; index += 1) bytes[index] = (index * 31 + size) % 256;
      await writeFile(join(root, `f-${size}.bin`), bytes);
      const read = await seam.readFile(`f-${size}.bin`);
      expect(Buffer.from(read).equals(bytes), String(size)).toBe(true);
    }
    await mkdir(join(root, "deep", "er"), { recursive: true });
    await writeFile(join(root, "deep", "er", "x.txt"), "x\n");
    expect(Buffer.from(await seam.readFile("deep/er/x.txt")).toString()).toBe("x\n");
  });

  it("follows a symlink inside the root, refuses one out of it, a directory, a FIFO and a missing file as before", async () => {
    const seam = createNodeFileSystem({ root });
    await writeFile(join(root, "target.txt"), "target\n");
    await symlink("target.txt", join(root, "inside-link"));
    await symlink(join(outside, "victim.txt"), join(root, "outside-link"));
    await mkdir(join(root, "folder"));
    execFileSync("mkfifo", [join(root, "pipe")]);
    expect(await outcome(seam.readFile("inside-link"))).toBe(
      `bytes:${Buffer.from("target\n").toString("base64")}`,
    );
    expect(await outcome(seam.readFile("outside-link"))).toBe("error:INVALID_PATH");
    expect(await outcome(seam.readFile("folder"))).toBe("error:INVALID_PATH");
    expect(await outcome(seam.readFile("pipe"))).toBe("error:UNSUPPORTED");
    expect(await outcome(seam.readFile("missing.txt"))).toBe("error:FILE_NOT_FOUND");
    // Nothing outside was read or changed.
    expect(await readFile(join(outside, "victim.txt"), "utf8")).toBe("outside\n");
  });
});

describe("the Node seam's realPath of a missing path (taken synchronously)", () => {
  it("follows dangling links inside the root, refuses them out of it, and keeps missing tails", async () => {
    const seam = createNodeFileSystem({ root });
    await mkdir(join(root, "real"));
    await symlink("real/later.txt", join(root, "to-later"));
    await symlink("real/not-yet", join(root, "to-folder"));
    await symlink(join(outside, "planted.txt"), join(root, "to-outside"));
    await symlink("loop-b", join(root, "loop-a"));
    await symlink("loop-a", join(root, "loop-b"));
    expect(await seam.realPath("missing/deeper/file.txt")).toBe("missing/deeper/file.txt");
    expect(await seam.realPath("to-later")).toBe("real/later.txt");
    expect(await seam.realPath("to-folder/inside.txt")).toBe("real/not-yet/inside.txt");
    await expect(seam.realPath("to-outside")).rejects.toMatchObject({ code: "INVALID_PATH" });
    await expect(seam.realPath("loop-a")).rejects.toMatchObject({ code: "INVALID_PATH" });
    expect(await seam.stat("real/missing.txt")).toBeUndefined();
  });
});
