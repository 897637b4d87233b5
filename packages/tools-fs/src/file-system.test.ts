import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemError } from "./file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
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
  it("reads, writes atomically, creates parents and reports stats", async () => {
    const seam = await make({ "a.txt": "alpha" });
    expect(text(await seam.readFile("a.txt"))).toBe("alpha");
    await seam.writeFile("deep/new/b.txt", new TextEncoder().encode("beta"));
    expect(text(await seam.readFile("deep/new/b.txt"))).toBe("beta");
    const info = await seam.stat("deep/new/b.txt");
    expect(info).toMatchObject({ type: "file", size: 4 });
    expect((await seam.stat("deep"))?.type).toBe("directory");
    expect(await seam.stat("missing")).toBeUndefined();
    expect(await codeOf(seam.readFile("missing.txt"))).toBe("FILE_NOT_FOUND");
  });

  it("pages through a file with a reader", async () => {
    const seam = await make({ "big.txt": "0123456789" });
    const reader = await seam.openReader("big.txt");
    expect(reader.size).toBe(10);
    expect(text(await reader.read(3, 4))).toBe("3456");
    expect(text(await reader.read(8, 10))).toBe("89");
    expect((await reader.read(20, 5)).length).toBe(0);
    await reader.close();
    await reader.close();
  });

  it("lists, removes (refusing non-empty directories), renames and copies", async () => {
    const seam = await make({ "dir/one.txt": "1", "dir/sub/two.txt": "2", "solo.txt": "s" });
    const names = (await seam.readDirectory("dir"))
      .map((entry) => `${entry.name}:${entry.type}`)
      .sort();
    expect(names).toEqual(["one.txt:file", "sub:directory"]);
    expect(await codeOf(seam.remove("dir", { recursive: false }))).toBe("DIRECTORY_NOT_EMPTY");
    await seam.copy("dir", "copy");
    expect(text(await seam.readFile("copy/sub/two.txt"))).toBe("2");
    await seam.rename("copy", "moved");
    expect(await seam.stat("copy")).toBeUndefined();
    expect(text(await seam.readFile("moved/one.txt"))).toBe("1");
    expect(await codeOf(seam.rename("moved", "moved/inside"))).toBe("INVALID_PATH");
    await seam.remove("moved", { recursive: true });
    expect(await seam.stat("moved")).toBeUndefined();
    await seam.remove("solo.txt", { recursive: false });
    expect(await seam.stat("solo.txt")).toBeUndefined();
  });

  it("answers a directory where a file is wanted and the reverse with INVALID_PATH", async () => {
    const seam = await make({ "dir/one.txt": "1", "notes.txt": "n" });
    const failure = async (promise: Promise<unknown>) => {
      try {
        await promise;
        return undefined;
      } catch (error) {
        return FileSystemError.isInstance(error)
          ? { code: error.code, message: error.message, hint: error.hint }
          : { code: `thrown: ${String(error)}` };
      }
    };
    expect(await failure(seam.readFile("dir"))).toEqual({
      code: "INVALID_PATH",
      message: "dir is a directory, not a file.",
      hint: expect.stringContaining("list_directory"),
    });
    expect(await failure(seam.openReader("dir"))).toMatchObject({ code: "INVALID_PATH" });
    expect(await failure(seam.writeFile("dir", new Uint8Array([1])))).toMatchObject({
      code: "INVALID_PATH",
      message: "dir is a directory, not a file.",
    });
    expect(await failure(seam.readDirectory("notes.txt"))).toEqual({
      code: "INVALID_PATH",
      message: "notes.txt is a file, not a directory.",
      hint: expect.stringContaining("read_file"),
    });
    // A path under a file: a file is where a directory is wanted.
    expect(await failure(seam.readFile("notes.txt/inner.md"))).toMatchObject({
      code: "INVALID_PATH",
      message: expect.stringContaining("is a file, not a directory"),
    });
    expect(await failure(seam.writeFile("notes.txt/inner.md", new Uint8Array([1])))).toMatchObject({
      code: "INVALID_PATH",
      message: expect.stringContaining("is a file, not a directory"),
    });
    expect(await failure(seam.createDirectory("notes.txt/sub"))).toMatchObject({
      code: "INVALID_PATH",
    });
    expect(await failure(seam.createDirectory("notes.txt"))).toMatchObject({
      code: "FILE_ALREADY_EXISTS",
    });
    expect(await failure(seam.readFile("dir/missing.txt"))).toMatchObject({
      code: "FILE_NOT_FOUND",
    });
  });

  it("digests with SHA-256", async () => {
    const seam = await make({ "abc.txt": "abc" });
    expect(await seam.digest("abc.txt")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
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
