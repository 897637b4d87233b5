import { AgentoolError } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { createHandlerFileSystem } from "./index.js";
import { fsToolsOver, mapStorage } from "./test-support/map-handler.js";
import { defineSeamCases } from "./test-support/seam-cases.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("the handler seam over a Map with list and remove, the same cases as the other seams", () => {
  defineSeamCases(async (files) =>
    createHandlerFileSystem(mapStorage(files, { list: true, remove: true }).handler),
  );
});

describe("the fs tools over a host's read and write", () => {
  it("write_file → read_file → edit_file → read_file share the host's one namespace", async () => {
    const storage = mapStorage();
    const tools = fsToolsOver(createHandlerFileSystem(storage.handler));

    const written = await tools.write_file?.({ path: "site/index.html", content: "<h1>Hi</h1>\n" });
    expect(written).toMatchObject({ success: true, data: { created: true, bytes_written: 12 } });
    // The host got the whole content in one write, as text.
    expect(storage.files.get("site/index.html")).toBe("<h1>Hi</h1>\n");
    expect(storage.calls.filter((call) => call.startsWith("write"))).toEqual([
      "write site/index.html",
    ]);

    const read = await tools.read_file?.({ path: "site/index.html" });
    expect(read).toMatchObject({ success: true, data: { content: "<h1>Hi</h1>\n" } });
    const sha = (read as { data: { sha: string } }).data.sha;

    const edited = await tools.edit_file?.({
      path: "site/index.html",
      old_text: "Hi",
      new_text: "Hello",
      expected_sha: sha,
    });
    expect(edited).toMatchObject({ success: true });
    expect(storage.files.get("site/index.html")).toBe("<h1>Hello</h1>\n");

    // The host changes the file behind the tools' back: the stale sha is a CONFLICT.
    storage.files.set("site/index.html", "<h1>Changed by the user</h1>\n");
    const stale = await tools.edit_file?.({
      path: "site/index.html",
      old_text: "user",
      new_text: "host",
      expected_sha: sha,
    });
    expect(stale).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    expect(storage.files.get("site/index.html")).toBe("<h1>Changed by the user</h1>\n");

    const reread = await tools.read_file?.({ path: "/site/index.html" });
    expect(reread).toMatchObject({ data: { content: "<h1>Changed by the user</h1>\n" } });
    // A file the host wrote itself is read like any other.
    storage.files.set("notes.md", "# Notes\n");
    expect(await tools.read_file?.({ path: "notes.md" })).toMatchObject({
      data: { content: "# Notes\n" },
    });
    expect(await tools.read_file?.({ path: "missing.md" })).toMatchObject({
      error: { code: "FILE_NOT_FOUND" },
    });
    expect(await tools.read_file?.({ path: "site" })).toMatchObject({
      error: { code: "INVALID_PATH", message: expect.stringContaining("is a directory") },
    });
  });

  it("reports size from the content and the modification time of its own last write", async () => {
    let clock = 1_000;
    const storage = mapStorage({ "host.txt": "from the host" });
    const fileSystem = createHandlerFileSystem(storage.handler, { now: () => clock });
    await fileSystem.writeFile("docs/a.md", new TextEncoder().encode("é\n"));
    clock = 2_000;
    expect(await fileSystem.stat("docs/a.md")).toEqual({
      type: "file",
      size: 3,
      modifiedMs: 1_000,
    });
    expect(await fileSystem.stat("host.txt")).toEqual({ type: "file", size: 13, modifiedMs: 0 });
    expect(await fileSystem.stat("docs")).toEqual({ type: "directory", size: 0, modifiedMs: 0 });
    expect(await fileSystem.stat("")).toMatchObject({ type: "directory" });
    expect(await fileSystem.stat("nothing")).toBeUndefined();
    expect(fileSystem).toMatchObject({ kind: "handler", displayRoot: "/" });
    expect(fileSystem.readDirectoryNames).toBeUndefined();
    await expect(fileSystem.realPath("a/../b")).rejects.toMatchObject({ code: "INVALID_PATH" });
  });

  it("hands bytes over as bytes, valid UTF-8 as text (or bytes with writeAs), and reads any binary form", async () => {
    const storage = mapStorage();
    const fileSystem = createHandlerFileSystem(storage.handler);
    const binary = new Uint8Array([0, 255, 1, 128, 10, 13, 0]);
    await fileSystem.writeFile("image.bin", binary);
    const stored = storage.files.get("image.bin");
    expect(stored).toBeInstanceOf(Uint8Array);
    expect([...(stored as Uint8Array)]).toEqual([...binary]);
    binary[0] = 9; // the host got its own copy
    expect((stored as Uint8Array)[0]).toBe(0);
    expect([...(await fileSystem.readFile("image.bin"))]).toEqual([0, 255, 1, 128, 10, 13, 0]);
    // A byte order mark survives the trip through a string.
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    await fileSystem.writeFile("bom.txt", withBom);
    expect(storage.files.get("bom.txt")).toBe("\uFEFFhi");
    expect([...(await fileSystem.readFile("bom.txt"))]).toEqual([...withBom]);

    const bytesOnly = mapStorage();
    const byteSeam = createHandlerFileSystem(bytesOnly.handler, { writeAs: "bytes" });
    await byteSeam.writeFile("a.txt", new TextEncoder().encode("plain"));
    expect(bytesOnly.files.get("a.txt")).toBeInstanceOf(Uint8Array);

    const answers = new Map<string, unknown>([
      ["buffer.txt", new TextEncoder().encode("array buffer").buffer],
      ["view.txt", new DataView(new TextEncoder().encode("xxdata view").buffer, 2)],
      ["blob.txt", new Blob(["a blob"])],
      ["null.txt", null],
    ]);
    const forms = createHandlerFileSystem({
      read: async (path) => answers.get(path) as never,
      write: async () => {},
    });
    expect(text(await forms.readFile("buffer.txt"))).toBe("array buffer");
    expect(text(await forms.readFile("view.txt"))).toBe("data view");
    expect(text(await forms.readFile("blob.txt"))).toBe("a blob");
    await expect(forms.readFile("null.txt")).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });

    const tools = fsToolsOver(fileSystem);
    expect(await tools.read_file?.({ path: "image.bin" })).toMatchObject({
      success: false,
      error: { code: "UNSUPPORTED" },
    });
    expect(await tools.file_stats?.({ path: "image.bin" })).toMatchObject({ success: true });
  });
});

describe("what a host leaves out", () => {
  it("without list: listing and searching folders answer UNSUPPORTED naming list; exact paths work", async () => {
    const storage = mapStorage({ "notes/todo.md": "- TODO: ship\n" }, { remove: true });
    const tools = fsToolsOver(createHandlerFileSystem(storage.handler));
    for (const [name, input] of [
      ["list_directory", {}],
      ["list_directory", { path: "notes" }],
      ["glob_search", { pattern: "**/*.md" }],
      ["grep_search", { pattern: "TODO" }],
    ] as const) {
      const result = await tools[name]?.(input);
      expect(result, name).toMatchObject({
        success: false,
        error: {
          code: "UNSUPPORTED",
          message: expect.stringContaining("without a list function"),
          hint: expect.stringContaining("passes list to createHandlerFileSystem"),
        },
      });
    }
    expect(
      await tools.grep_search?.({ pattern: "TODO", path: "notes/todo.md", output_mode: "content" }),
    ).toMatchObject({ success: true, data: { total: 1 } });
    expect(await tools.delete_file?.({ path: "notes/todo.md" })).toMatchObject({
      success: true,
      data: { type: "file" },
    });
    expect(storage.files.has("notes/todo.md")).toBe(false);
    // A directory's contents are unknown without list: it is never deleted blind.
    await tools.write_file?.({ path: "notes/a.md", content: "a" });
    expect(await tools.delete_file?.({ path: "notes", recursive: true })).toMatchObject({
      error: { code: "UNSUPPORTED", hint: expect.stringContaining("list") },
    });
    expect(storage.files.get("notes/a.md")).toBe("a");
  });

  it("without remove: delete_file and move_file answer UNSUPPORTED naming remove; copy works", async () => {
    const storage = mapStorage({ "a.md": "A" }, { list: true });
    const tools = fsToolsOver(createHandlerFileSystem(storage.handler));
    for (const [name, input] of [
      ["delete_file", { path: "a.md" }],
      ["move_file", { source: "a.md", destination: "b.md" }],
    ] as const) {
      expect(await tools[name]?.(input), name).toMatchObject({
        success: false,
        error: {
          code: "UNSUPPORTED",
          message: expect.stringContaining("without a remove function"),
          hint: expect.stringContaining("passes remove to createHandlerFileSystem"),
        },
      });
    }
    expect([...storage.files.keys()]).toEqual(["a.md"]);
    expect(await tools.copy_file?.({ source: "a.md", destination: "copies/a.md" })).toMatchObject({
      success: true,
    });
    expect(storage.files.get("copies/a.md")).toBe("A");
  });

  it("with list and remove: lists a flat store as folders, moves and deletes trees", async () => {
    const storage = mapStorage(
      { "site/index.html": "<p>x</p>", "site/css/app.css": "p{}", "README.md": "# R\n" },
      { list: true, remove: true },
    );
    const tools = fsToolsOver(createHandlerFileSystem(storage.handler));
    expect(await tools.list_directory?.({ path: "site" })).toMatchObject({
      data: {
        entries: [
          expect.objectContaining({ name: "css", type: "directory" }),
          expect.objectContaining({ name: "index.html", type: "file", size: 8 }),
        ],
      },
    });
    expect(await tools.glob_search?.({ pattern: "**/*.css" })).toMatchObject({
      data: { files: [expect.objectContaining({ path: "site/css/app.css" })] },
    });
    expect(await tools.move_file?.({ source: "site", destination: "public" })).toMatchObject({
      success: true,
    });
    expect([...storage.files.keys()].sort()).toEqual([
      "README.md",
      "public/css/app.css",
      "public/index.html",
    ]);
    expect(await tools.delete_file?.({ path: "public", recursive: true })).toMatchObject({
      data: { type: "directory", removed_entries: 3 },
    });
    expect([...storage.files.keys()]).toEqual(["README.md"]);
  });
});

describe("checking the handler at creation", () => {
  it("names what to fix", () => {
    const refused = (handler: unknown, options?: unknown) => {
      try {
        createHandlerFileSystem(handler as never, options as never);
      } catch (error) {
        expect(AgentoolError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refused(undefined)).toContain("pass the host's storage as an object { read, write");
    expect(refused({ read: async () => undefined })).toContain(
      "write must be a function (path, content, signal) => void (got nothing)",
    );
    expect(refused({ read: "x", write: () => {} })).toContain("read must be a function");
    expect(refused({ read: () => {}, write: () => {}, list: [] })).toContain(
      "list must be a function (directory, signal) => names or left out (got an array)",
    );
    expect(refused({ read: () => {}, write: () => {}, lst: () => [] })).toContain(
      'unknown key "lst" — did you mean "list"?',
    );
    expect(refused({ read: () => {}, write: () => {} }, { timeout: 5 })).toContain(
      "createHandlerFileSystem: invalid options",
    );
    expect(refused({ read: () => {}, write: () => {} }, { writeAs: "utf8" })).toContain("writeAs");
  });

  it("accepts a class instance with its own state, calling its methods on it", async () => {
    class Store {
      readonly files = new Map<string, string | Uint8Array>([["a.md", "A"]]);
      async read(path: string) {
        return this.files.get(path);
      }
      async write(path: string, content: string | Uint8Array) {
        this.files.set(path, content);
      }
    }
    const store = new Store();
    const fileSystem = createHandlerFileSystem(store);
    await fileSystem.writeFile("b.md", new TextEncoder().encode("B"));
    expect(store.files.get("b.md")).toBe("B");
    expect(text(await fileSystem.readFile("a.md"))).toBe("A");
  });
});
