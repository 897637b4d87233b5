import { expect, it } from "vitest";
import { type FileSystem, FileSystemError } from "../file-system.js";
import type { SeamFactory } from "./seams.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return FileSystemError.isInstance(error) ? error.code : `thrown: ${String(error)}`;
  }
}

/**
 * The behaviour every {@link FileSystem} seam shares (memory, Node, OPFS in Chromium): call it
 * inside a `describe` with a factory for the seam under test.
 *
 * @param make - makes a fresh seam holding the given files
 */
export function defineSeamCases(make: SeamFactory): void {
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

  it("round-trips bytes, overwrites with shorter content and lists names", async () => {
    const seam = await make({ "keep.txt": "a much longer first version" });
    const bytes = new Uint8Array([0, 255, 1, 128, 10, 13, 0]);
    await seam.writeFile("bin/data.bin", bytes);
    expect([...(await seam.readFile("bin/data.bin"))]).toEqual([...bytes]);
    await seam.writeFile("keep.txt", new TextEncoder().encode("short"));
    expect(text(await seam.readFile("keep.txt"))).toBe("short");
    expect((await seam.stat("keep.txt"))?.size).toBe(5);
    const names = seam.readDirectoryNames
      ? (await seam.readDirectoryNames("")).map((entry) => `${entry.name}:${entry.type}`).sort()
      : undefined;
    if (names !== undefined) expect(names).toEqual(["bin:directory", "keep.txt:file"]);
    const listed = await seam.readDirectory("bin");
    expect(listed).toEqual([
      expect.objectContaining({ name: "data.bin", type: "file", size: bytes.length }),
    ]);
  });

  it("removes empty directories, replaces files on rename, copies into new parents", async () => {
    const seam = await make({ "a.txt": "A", "b.txt": "B" });
    await seam.createDirectory("empty/inner");
    await seam.createDirectory("empty/inner");
    await seam.remove("empty/inner", { recursive: false });
    expect((await seam.readDirectory("empty")).length).toBe(0);
    expect(await codeOf(seam.remove("nothing.txt", { recursive: false }))).toBe("FILE_NOT_FOUND");
    await seam.rename("a.txt", "b.txt");
    expect(await seam.stat("a.txt")).toBeUndefined();
    expect(text(await seam.readFile("b.txt"))).toBe("A");
    await seam.copy("b.txt", "new/parent/c.txt");
    expect(text(await seam.readFile("new/parent/c.txt"))).toBe("A");
    expect(text(await seam.readFile("b.txt"))).toBe("A");
    expect(await codeOf(seam.rename("missing.txt", "x.txt"))).toBe("FILE_NOT_FOUND");
    expect(await codeOf(seam.rename("b.txt", "no/such/dir/x.txt"))).toBe("FILE_NOT_FOUND");
    expect(await codeOf(seam.rename("b.txt", "new/parent/c.txt/x.txt"))).toBe("INVALID_PATH");
  });
}
