import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpfsFileSystem } from "./index.js";
import { encodeFiles, type OpfsPage, openOpfsPage } from "./test-support/opfs-page.js";
import { defineSeamCases } from "./test-support/seam-cases.js";

// The OPFS seam in real headless Chromium: the root entry is bundled for the browser, served
// from 127.0.0.1 (a secure context) and driven with page.evaluate. No Chromium is a failure,
// never a skip.
let opfs: OpfsPage;

beforeAll(async () => {
  opfs = await openOpfsPage();
}, 60_000);

afterAll(async () => {
  await opfs?.close();
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function newSeam(files: Record<string, string | Uint8Array> = {}) {
  const id = await opfs.host("makeSeam", encodeFiles(files));
  return { id, seam: opfs.seam(id) };
}

type Outcome = { ok?: unknown; error?: { code: string; message: string; hint?: string } };

describe("the opfs seam (Chromium), the same cases as the memory and node seams", () => {
  defineSeamCases(async (files) => (await newSeam(files)).seam);
});

describe("the opfs seam's own behaviour", () => {
  it("scope() roots a seam at a sub-directory handle and refuses every way out", async () => {
    const { id, seam } = await newSeam({ "top.txt": "top", "tenants/a/mine.txt": "a" });
    const scoped = (await opfs.host("scope", id, "tenants/a")) as Outcome;
    expect(scoped.ok).toEqual(expect.any(Number));
    const tenant = opfs.seam(scoped.ok as number);
    expect(text(await tenant.readFile("mine.txt"))).toBe("a");
    expect((await tenant.readDirectory("")).map((entry) => entry.name)).toEqual(["mine.txt"]);
    await tenant.writeFile("new/file.txt", new TextEncoder().encode("n"));
    expect(text(await seam.readFile("tenants/a/new/file.txt"))).toBe("n");
    for (const wayOut of [
      "..",
      "../top.txt",
      "/top.txt",
      "a/../../top.txt",
      "./mine.txt",
      "a//b",
    ]) {
      await expect(tenant.readFile(wayOut), wayOut).rejects.toMatchObject({
        code: "INVALID_PATH",
      });
      expect(await opfs.host("scope", id, wayOut)).toMatchObject({
        error: { code: "INVALID_PATH" },
      });
    }
    await expect(tenant.writeFile("../planted.txt", new Uint8Array([1]))).rejects.toMatchObject({
      code: "INVALID_PATH",
    });
    await expect(tenant.rename("mine.txt", "../mine.txt")).rejects.toMatchObject({
      code: "INVALID_PATH",
    });
    expect(await seam.stat("tenants/planted.txt")).toBeUndefined();
    expect(await seam.stat("mine.txt")).toBeUndefined();
    // A missing sub-root is created unless create: false; a file is no sub-root.
    expect(await opfs.host("scope", id, "tenants/b")).toMatchObject({ ok: expect.any(Number) });
    expect((await seam.stat("tenants/b"))?.type).toBe("directory");
    expect(await opfs.host("scope", id, "tenants/c", { create: false })).toMatchObject({
      error: { code: "FILE_NOT_FOUND" },
    });
    expect(await opfs.host("scope", id, "top.txt", { create: false })).toMatchObject({
      error: { code: "INVALID_PATH", message: "top.txt is a file, not a directory." },
    });
    expect(await opfs.host("scope", id, "top.txt")).toMatchObject({
      error: { code: "FILE_ALREADY_EXISTS" },
    });
  });

  it("moves byte for byte (copy, then delete the source) and removes only when asked", async () => {
    const bytes = new Uint8Array(200_003);
    for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 7919) % 256;
    const { seam } = await newSeam({ "tree/blob.bin": bytes, "tree/deep/x.txt": "x" });
    const before = await seam.digest("tree/blob.bin");
    await seam.rename("tree", "moved");
    expect(await seam.stat("tree")).toBeUndefined();
    expect(await seam.digest("moved/blob.bin")).toBe(before);
    expect([...(await seam.readFile("moved/blob.bin"))]).toEqual([...bytes]);
    await expect(seam.remove("moved", { recursive: false })).rejects.toMatchObject({
      code: "DIRECTORY_NOT_EMPTY",
      message: "moved is a directory with 2 entries inside.",
    });
    await expect(seam.remove("", { recursive: true })).rejects.toMatchObject({
      code: "INVALID_PATH",
    });
    await seam.createDirectory("target-dir/inner");
    await expect(seam.rename("moved", "target-dir")).rejects.toMatchObject({
      code: "DIRECTORY_NOT_EMPTY",
    });
    await expect(seam.rename("moved/deep/x.txt", "target-dir")).rejects.toMatchObject({
      code: "INVALID_PATH",
    });
    expect(text(await seam.readFile("moved/deep/x.txt"))).toBe("x");
    await seam.remove("moved", { recursive: true });
    expect(await seam.stat("moved")).toBeUndefined();
  });

  it("a write that fails is aborted: the old content stays and no empty file is left", async () => {
    const outcome = (await opfs.host("scenario", "failedWrite")) as {
      overwrite: Outcome;
      create: Outcome;
      old: string;
      names: string[];
    };
    expect(outcome.overwrite).toMatchObject({ error: { code: "TOO_LARGE" } });
    expect(outcome.create).toMatchObject({ error: { code: "TOO_LARGE" } });
    expect(outcome.old).toBe("old content");
    expect(outcome.names).toEqual(["old.txt"]);
  });

  it("the file changes only when the writable closes; a stale reader gets CONFLICT", async () => {
    expect(await opfs.host("scenario", "swapFile")).toEqual({
      during: "before",
      after: "after, longer",
    });
    expect(await opfs.host("scenario", "staleReader")).toMatchObject({
      first: "0123",
      second: { error: { code: "CONFLICT" } },
    });
  });

  it("createOpfsFileSystem checks its options", async () => {
    expect(await opfs.host("create", {})).toMatchObject({
      ok: { kind: "opfs", displayRoot: "/" },
    });
    expect(await opfs.host("create", { displayRoot: "/opfs" })).toMatchObject({
      ok: { displayRoot: "/opfs" },
    });
    expect(await opfs.host("create", { rooot: 1 })).toMatchObject({
      error: { code: "INVALID_INPUT", message: expect.stringContaining('"rooot"') },
    });
    expect(await opfs.host("create", { root: {} })).toMatchObject({
      error: {
        code: "INVALID_INPUT",
        message: expect.stringContaining("FileSystemDirectoryHandle"),
      },
    });
  });
});

describe("the fs tools over OPFS, run inside the page", () => {
  it("write, read, edit, list, search, move and delete end to end", async () => {
    const { id, seam } = await newSeam({ "README.md": "# Demo\n\nHello OPFS.\n" });
    const run = (name: string, input: unknown) =>
      opfs.host("runTool", id, name, input) as Promise<{
        success: boolean;
        data?: Record<string, unknown>;
        error?: { code: string; message: string };
      }>;
    expect(
      await run("write_file", { path: "src/app.ts", content: "export const a = 1;\n" }),
    ).toMatchObject({ success: true });
    const read = await run("read_file", { path: "src/app.ts" });
    expect(read).toMatchObject({ success: true });
    expect(JSON.stringify(read.data)).toContain("export const a = 1;");
    expect(
      await run("edit_file", { path: "src/app.ts", old_text: "a = 1", new_text: "a = 2" }),
    ).toMatchObject({ success: true });
    expect(text(await seam.readFile("src/app.ts"))).toBe("export const a = 2;\n");
    const listed = await run("list_directory", { path: "." });
    expect(listed).toMatchObject({ success: true });
    expect(JSON.stringify(listed.data)).toContain("README.md");
    expect(JSON.stringify(listed.data)).toContain("src");
    const grep = await run("grep_search", { pattern: "Hello" });
    expect(grep).toMatchObject({ success: true });
    expect(JSON.stringify(grep.data)).toContain("README.md");
    const glob = await run("glob_search", { pattern: "**/*.ts" });
    expect(JSON.stringify(glob.data)).toContain("src/app.ts");
    expect(
      await run("move_file", { source: "src/app.ts", destination: "lib/app.ts" }),
    ).toMatchObject({ success: true });
    expect(await seam.stat("src/app.ts")).toBeUndefined();
    expect(text(await seam.readFile("lib/app.ts"))).toBe("export const a = 2;\n");
    expect(await run("delete_file", { path: "lib" })).toMatchObject({
      success: false,
      error: { code: "DIRECTORY_NOT_EMPTY" },
    });
    expect(await run("delete_file", { path: "lib", recursive: true })).toMatchObject({
      success: true,
    });
    expect(await run("read_file", { path: "../escape.txt" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await run("read_file", { path: "missing.md" })).toMatchObject({
      success: false,
      error: { code: "FILE_NOT_FOUND" },
    });
  });
});

describe("createOpfsFileSystem in Node", () => {
  it("imports fine and refuses to create with UNSUPPORTED naming the next step", async () => {
    await expect(createOpfsFileSystem()).rejects.toMatchObject({
      name: "FileSystemError",
      code: "UNSUPPORTED",
      message: expect.stringContaining("no origin private file system"),
      hint: expect.stringContaining("@agentool/tools-fs/node"),
    });
  });
});
