import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemError } from "./file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { defineSeamCases } from "./test-support/seam-cases.js";
import { seamFactories, useTemporaryDirectories } from "./test-support/seams.js";

const temporaryDirectory = useTemporaryDirectories("agentool-attack-");

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return FileSystemError.isInstance(error) ? error.code : `thrown: ${String(error)}`;
  }
}

const seams = seamFactories("agentool-seam-");

describe.each(seams)("the %s seam", (_kind, make) => {
  defineSeamCases(make);
});

describe("the node seam on the real path", () => {
  async function setUp() {
    const parent = await temporaryDirectory();
    const root = join(parent, "root");
    const evil = join(parent, "root-evil");
    await mkdir(join(root, "inside"), { recursive: true });
    await mkdir(evil);
    await writeFile(join(evil, "secret.txt"), "outside");
    await writeFile(join(root, "inside", "ok.txt"), "inside");
    await symlink(join(evil, "secret.txt"), join(root, "file-link"));
    await symlink(evil, join(root, "dir-link"));
    await symlink("../root-evil/new.txt", join(root, "dangling-link"));
    await symlink("inside/ok.txt", join(root, "good-link"));
    return { parent, root, evil, seam: createNodeFileSystem({ root }) };
  }

  it("refuses a symlinked file and directory that lead outside, for reads and writes", async () => {
    const { seam } = await setUp();
    expect(await codeOf(seam.readFile("file-link"))).toBe("INVALID_PATH");
    expect(await codeOf(seam.readFile("dir-link/secret.txt"))).toBe("INVALID_PATH");
    expect(await codeOf(seam.writeFile("dir-link/planted.txt", new Uint8Array([1])))).toBe(
      "INVALID_PATH",
    );
    expect(await codeOf(seam.writeFile("dangling-link", new Uint8Array([1])))).toBe("INVALID_PATH");
    expect(await codeOf(seam.realPath("dir-link"))).toBe("INVALID_PATH");
  });

  it("writes through an inside symlink to its target and keeps the link", async () => {
    const { seam } = await setUp();
    await seam.writeFile("good-link", new TextEncoder().encode("changed"));
    expect(text(await seam.readFile("inside/ok.txt"))).toBe("changed");
    const entries = await seam.readDirectory("");
    expect(entries.find((entry) => entry.name === "good-link")?.type).toBe("symlink");
  });

  it("removes a link itself, not what it points to", async () => {
    const { seam, evil } = await setUp();
    await seam.remove("file-link", { recursive: false });
    const outside = createNodeFileSystem({ root: evil });
    expect(text(await outside.readFile("secret.txt"))).toBe("outside");
  });

  it("keeps an existing file's mode on atomic writes and leaves no temporary files", async () => {
    const { root, seam } = await setUp();
    const { chmod, stat, readdir } = await import("node:fs/promises");
    await chmod(join(root, "inside", "ok.txt"), 0o750);
    await seam.writeFile("inside/ok.txt", new TextEncoder().encode("new"));
    expect((await stat(join(root, "inside", "ok.txt"))).mode & 0o777).toBe(0o750);
    expect(await readdir(join(root, "inside"))).toEqual(["ok.txt"]);
  });
});
