import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import type { FileSystem } from "./file-system.js";
import { sha256Hex } from "./internal/text-codec.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createReadFileTool } from "./read-file.js";
import { seamFactories, useTemporaryDirectories } from "./test-support/seams.js";
import { createWorkspace } from "./workspace.js";
import {
  createWriteFileTool,
  formatWriteFileResult,
  type WriteFileToolData,
} from "./write-file.js";

const temporaryRoot = useTemporaryDirectories("agentool-write-");
const seams = seamFactories("agentool-write-");

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function tools(fileSystem: FileSystem) {
  const workspace = createWorkspace({ fileSystem });
  return { write: createWriteFileTool({ workspace }), read: createReadFileTool({ workspace }) };
}

function data(
  result:
    | { success: true; data: WriteFileToolData }
    | { success: false; error: { code: string; message: string } },
) {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe.each(seams)("write_file over the %s seam", (_label, makeSeam) => {
  it("creates a file and its parents, then overwrites it", async () => {
    const fileSystem = await makeSeam({});
    const { write } = tools(fileSystem);
    const created = data(await write.run({ path: "deep/new/dir/notes.md", content: "# Notes\n" }));
    expect(created).toMatchObject({
      path: "deep/new/dir/notes.md",
      created: true,
      bytes_written: 8,
      encoding: "utf-8",
      converted_to_crlf: false,
    });
    expect(created.sha).toBe(await fileSystem.digest("deep/new/dir/notes.md"));
    expect(formatWriteFileResult(created)).toBe(
      `Created deep/new/dir/notes.md (8 bytes, utf-8, sha: ${created.sha.slice(0, 12)}).`,
    );
    const one = data(await write.run({ path: "one.txt", content: "x" }));
    expect(formatWriteFileResult(one)).toBe(
      `Created one.txt (1 byte, utf-8, sha: ${one.sha.slice(0, 12)}).`,
    );
    const overwritten = data(
      await write.run({ path: "deep/new/dir/notes.md", content: "# New\n" }),
    );
    expect(overwritten.created).toBe(false);
    expect(decode(await fileSystem.readFile("deep/new/dir/notes.md"))).toBe("# New\n");
    expect(formatWriteFileResult(overwritten)).toMatch(/^Overwrote /);
  });

  it("keeps an existing file's BOM, UTF-16 and CRLF", async () => {
    const fileSystem = await makeSeam({
      "bom.txt": "\uFEFFold\n",
      "wide.txt": new Uint8Array([0xfe, 0xff, 0, 0x6f, 0, 0x0a]),
      "crlf.txt": "a\r\nb\r\n",
    });
    const { write } = tools(fileSystem);
    expect(data(await write.run({ path: "bom.txt", content: "\uFEFFnew\n" }))).toMatchObject({
      encoding: "utf-8-bom",
      bytes_written: 7,
    });
    expect([...(await fileSystem.readFile("bom.txt"))]).toEqual([
      0xef, 0xbb, 0xbf, 0x6e, 0x65, 0x77, 0x0a,
    ]);
    expect(data(await write.run({ path: "wide.txt", content: "hi\n" }))).toMatchObject({
      encoding: "utf-16be",
    });
    expect([...(await fileSystem.readFile("wide.txt"))]).toEqual([
      0xfe, 0xff, 0, 0x68, 0, 0x69, 0, 0x0a,
    ]);
    const crlf = data(await write.run({ path: "crlf.txt", content: "x\ny\n" }));
    expect(crlf).toMatchObject({ converted_to_crlf: true, line_ending: "crlf" });
    expect(formatWriteFileResult(crlf)).toContain("LF line endings written as CRLF");
    expect(decode(await fileSystem.readFile("crlf.txt"))).toBe("x\r\ny\r\n");
  });

  it("checks expected_sha: a full hash or a 12+ character prefix, CONFLICT when changed or deleted", async () => {
    const fileSystem = await makeSeam({ "a.txt": "one\n" });
    const { write, read } = tools(fileSystem);
    const page = await read.run({ path: "a.txt" });
    const sha = page.success ? (page.data.sha ?? "") : "";
    const written = data(
      await write.run({
        path: "a.txt",
        content: "two\n",
        expected_sha: sha.slice(0, 12).toUpperCase(),
      }),
    );
    expect(written.created).toBe(false);
    // The model's own write is the only change: the CONFLICT offers the sha that write returned.
    const stale = await write.run({ path: "a.txt", content: "three\n", expected_sha: sha });
    expect(stale).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    const short = written.sha.slice(0, 12);
    expect(!stale.success && stale.error.message).toContain(`its sha is now ${short}`);
    expect(!stale.success && stale.error.message).toContain("your last write_file call");
    expect(!stale.success && stale.error.hint).toContain(`expected_sha="${short}"`);
    expect(decode(await fileSystem.readFile("a.txt"))).toBe("two\n");
    expect(
      data(await write.run({ path: "a.txt", content: "three\n", expected_sha: short })).created,
    ).toBe(false);
    // Someone else changes it: the hint says to re-read (and still names the current sha).
    await fileSystem.writeFile("a.txt", new TextEncoder().encode("theirs\n"));
    const theirs = await write.run({ path: "a.txt", content: "four\n", expected_sha: short });
    expect(theirs).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    const current = (await fileSystem.digest("a.txt")).slice(0, 12);
    expect(!theirs.success && theirs.error.message).toContain(`its sha is now ${current}`);
    expect(!theirs.success && theirs.error.hint).toContain("re-read a.txt with read_file");
    await fileSystem.remove("a.txt", { recursive: false });
    expect(await write.run({ path: "a.txt", content: "x", expected_sha: sha })).toMatchObject({
      success: false,
      error: { code: "CONFLICT" },
    });
    expect(await write.run({ path: "a.txt", content: "x", expected_sha: "abc" })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });

  it("refuses directories, the root, secret paths and escapes", async () => {
    const fileSystem = await makeSeam({ "dir/a.txt": "a" });
    const { write } = tools(fileSystem);
    const directory = await write.run({ path: "dir", content: "x" });
    expect(directory).toMatchObject({ success: false, error: { code: "INVALID_PATH" } });
    expect(!directory.success && directory.error.hint).toContain("list_directory");
    expect(await write.run({ path: ".", content: "x" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await write.run({ path: ".env", content: "KEY=1" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(await write.run({ path: "config/.ssh/id_rsa", content: "x" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(await write.run({ path: "../x.txt", content: "x" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await write.run({ path: "/tmp/x.txt", content: "x" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
  });

  it("serialises concurrent writes to one path (the last one wins whole)", async () => {
    const fileSystem = await makeSeam({});
    const { write } = tools(fileSystem);
    const contents = Array.from({ length: 20 }, (_, index) => `${String(index).repeat(1000)}\n`);
    const results = await Promise.all(
      contents.map((content) => write.run({ path: "race.txt", content })),
    );
    expect(results.every((result) => result.success)).toBe(true);
    expect(results.filter((result) => result.success && result.data.created)).toHaveLength(1);
    expect(contents).toContain(decode(await fileSystem.readFile("race.txt")));
  });
});

describe("write_file on disk", () => {
  it("keeps the mode, leaves no temporary file and refuses writes through escaping symlinks", async () => {
    const outside = await temporaryRoot();
    await writeFile(join(outside, "target.txt"), "outside\n");
    const root = await temporaryRoot();
    await writeFile(join(root, "script.sh"), "echo 1\n");
    await chmod(join(root, "script.sh"), 0o750);
    await symlink(join(outside, "target.txt"), join(root, "link.txt"));
    await symlink(join(outside, "missing.txt"), join(root, "dangling.txt"));
    await symlink(outside, join(root, "out"));
    await mkdir(join(root, ".ssh"));
    await symlink(join(root, ".ssh"), join(root, "harmless"));
    const { write } = tools(createNodeFileSystem({ root }));
    expect(data(await write.run({ path: "script.sh", content: "echo 2\n" })).created).toBe(false);
    expect((await stat(join(root, "script.sh"))).mode & 0o777).toBe(0o750);
    for (const path of ["link.txt", "dangling.txt", "out/new.txt", "out/target.txt"]) {
      expect(await write.run({ path, content: "pwned" })).toMatchObject({
        success: false,
        error: { code: "INVALID_PATH" },
      });
    }
    expect(await write.run({ path: "harmless/id_rsa", content: "x" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(await readFile(join(outside, "target.txt"), "utf8")).toBe("outside\n");
    expect(await readdir(outside)).toEqual(["target.txt"]);
    expect((await readdir(root)).filter((name) => name.includes("agentool-tmp"))).toEqual([]);
    const written = data(await write.run({ path: "ok.txt", content: "fine" }));
    expect(written.sha).toBe(await sha256Hex(new TextEncoder().encode("fine")));
  });
});

describe("write_file boundary", () => {
  it("takes file_path / file_text silently and names only mounted tools", async () => {
    const fileSystem = createMemoryFileSystem();
    const workspace = createWorkspace({ fileSystem });
    const write = createWriteFileTool({ workspace });
    const result = await write.run({ file_path: "n.md", file_text: "# N\n" });
    expect(result).toMatchObject({
      success: true,
      data: { path: "n.md", created: true, bytes_written: 4, line_ending: "lf" },
    });
    expect(decode(await fileSystem.readFile("n.md"))).toBe("# N\n");
    for (const absent of ["read_file", "edit_file", "multi_edit"]) {
      expect(write.description).not.toContain(absent);
    }
    const family = createWriteFileTool({ workspace, mountedTools: ["read_file", "edit_file"] });
    expect(family.description).toContain("Prefer edit_file to change part");
    expect(family.description).toContain("read_file's header");
  });
});

describe("write_file contract", () => {
  it("passes the conformance kit", async () => {
    const fileSystem = createMemoryFileSystem();
    const { write } = tools(fileSystem);
    await assertConformance([write], {
      samples: { write_file: { path: "sample.txt", content: "hello\n" } },
    });
    expect(write.annotations).toMatchObject({ destructive: true });
    expect(write.tags).toEqual(["fs:write"]);
    expect(() =>
      createWriteFileTool({ workspace: createWorkspace({ fileSystem }), mode: 1 } as never),
    ).toThrow(/mode/);
  });
});
