import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SearchRequest } from "../../internal/search-types.js";
import { searchRequest } from "../../test-support/search-request.js";
import { IN_PROCESS_PROBE_LIMITS, probeSkippedEntries } from "./probe-skipped-entries.js";

let base: string;
let root: string;
const signal = new AbortController().signal;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "agentool-skipped-probe-")));
  root = join(base, "root");
  await mkdir(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function write(files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const request = (overrides: Partial<SearchRequest>): SearchRequest =>
  searchRequest({ pattern: "needle_text", explainEmpty: true, ...overrides });

const probe = (entries: string[], overrides: Partial<SearchRequest> = {}) =>
  probeSkippedEntries({ path: root, workspacePath: "" }, request(overrides), entries, signal);

describe("probeSkippedEntries", () => {
  it("applies each call's own secret globs (matchers are kept per glob list, never mixed up)", async () => {
    await write({ "build/keys.txt": "needle_text\n", "build/zz.log": "needle_text\n" });
    expect(await probe(["build"], { secretGlobs: ["*.txt"] })).toEqual({
      decided: true,
      example: "build/zz.log",
    });
    expect(await probe(["build"], { secretGlobs: [] })).toEqual({
      decided: true,
      example: "build/keys.txt",
    });
    expect(await probe(["build"], { secretGlobs: ["*.log", "*.txt"] })).toEqual({ decided: true });
    expect(await probe(["build"], { secretGlobs: ["*.txt"] })).toEqual({
      decided: true,
      example: "build/zz.log",
    });
  });

  it("finds plain text in skipped files and directories, the first file in path order", async () => {
    await write({
      ".cache/b/second.txt": "a needle_text here\n",
      ".cache/a.txt": "nothing\n",
      ".cache/b/first.txt": "needle_text\n",
      "build/out.js": "needle_text\n",
      ".hidden.md": "NEEDLE_TEXT\n",
    });
    expect(await probe([".cache", "build", ".hidden.md"])).toEqual({
      decided: true,
      example: ".cache/b/first.txt",
    });
    expect(await probe([".hidden.md"])).toEqual({ decided: true });
    expect(await probe([".hidden.md"], { ignoreCase: true })).toEqual({
      decided: true,
      example: ".hidden.md",
    });
    // A literal request may hold regex syntax: it is matched as text.
    await write({ "build/literal.txt": "a+b (c)\n" });
    expect(await probe(["build"], { pattern: "a+b (c)", literal: true })).toEqual({
      decided: true,
      example: "build/literal.txt",
    });
    expect(await probe(["build"], { pattern: "zzz_absent" })).toEqual({ decided: true });
    // Every character that means something to a regular expression, as text, ignoring case too.
    const special = "A-b/c\\d^e$f.g*h+i?j(k)l[m]n{o}p|q#r&s~t";
    await write({ "build/special.txt": `${special.toLowerCase()}\n` });
    for (const ignoreCase of [false, true]) {
      expect(
        await probe(["build/special.txt"], { pattern: special, literal: true, ignoreCase }),
      ).toEqual(ignoreCase ? { decided: true, example: "build/special.txt" } : { decided: true });
    }
  });

  it("reaches an entry below the base one directory at a time, from a scope's workspace path", async () => {
    await write({ "deep/visible/.hidden/x.txt": "needle_text\n" });
    const scope = await realpath(join(root, "deep"));
    expect(
      await probeSkippedEntries(
        { path: scope, workspacePath: "deep" },
        request({ path: "deep" }),
        ["deep/visible/.hidden"],
        signal,
      ),
    ).toEqual({ decided: true, example: "deep/visible/.hidden/x.txt" });
    // An entry outside the base is not this probe's to judge.
    expect(
      await probeSkippedEntries(
        { path: scope, workspacePath: "deep" },
        request({ path: "deep" }),
        ["other/.hidden"],
        signal,
      ),
    ).toEqual({ decided: false });
  });

  it("walks only plain paths below the base: no '..', '.', empty or .git segment", async () => {
    await writeFile(join(base, "beside.txt"), "needle_text\n");
    await write({ ".git/description": "needle_text\n", "a/b.txt": "needle_text\n" });
    for (const entry of ["..", "../beside.txt", "a/../..", "./a", "a//b.txt", ".git", "a/.git/x"]) {
      expect(await probe([entry]), entry).toEqual({ decided: false });
      // One bad entry among good ones: rg decides for all of them.
      expect(await probe(["a", entry]), entry).toEqual({ decided: false });
    }
    expect(await probe(["a"])).toEqual({ decided: true, example: "a/b.txt" });
  });

  it("closes every descriptor it opens: on a match, on none, on a hand-off and on abort", async () => {
    const descriptors = () => readdirSync("/proc/self/fd").length;
    await write({ ".cache/deep/er/x.txt": "needle_text\n", ".cache/zz/y.bin": "a\0b" });
    await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        writeFile(join(root, ".cache", `f${String(index).padStart(3, "0")}.txt`), "nothing\n"),
      ),
    );
    const before = descriptors();
    expect(await probe([".cache/deep/er"])).toEqual({
      decided: true,
      example: ".cache/deep/er/x.txt",
    });
    expect(await probe([".cache"], { pattern: "absent_text" })).toEqual({ decided: false });
    expect(await probe([".cache/deep/er"], { pattern: "absent_text" })).toEqual({ decided: true });
    // Aborted while it walks (it yields after 32 files): it stops with the signal's reason.
    const controller = new AbortController();
    const walking = probeSkippedEntries(
      { path: root, workspacePath: "" },
      request({ pattern: "absent_text" }),
      [".cache"],
      controller.signal,
    );
    setImmediate(() => controller.abort(new Error("stopped mid-walk")));
    await expect(walking).rejects.toThrow("stopped mid-walk");
    expect(descriptors()).toBe(before);
  });

  it("leaves regular expressions and text it cannot read as rg does to rg", async () => {
    await write({
      ".cache/plain.txt": "needle_text\n",
      ".cache/binary.bin": Buffer.concat([Buffer.from("needle_text\n"), Buffer.from([0, 1, 2])]),
      ".utf16/wide.txt": Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from("needle_text\n", "utf16le"),
      ]),
    });
    for (const pattern of [
      "needle_t.xt",
      "needle|text",
      "^needle",
      "",
      "needle\ntext",
      "needle\ud800",
    ]) {
      expect(await probe([".cache/plain.txt"], { pattern }), JSON.stringify(pattern)).toEqual({
        decided: false,
      });
    }
    // A NUL byte (rg's binary test) or a UTF-16 BOM (rg transcodes): rg decides.
    expect(await probe([".cache/binary.bin"])).toEqual({ decided: false });
    expect(await probe([".utf16"])).toEqual({ decided: false });
  });

  it("hands more than its budget to rg, counting every entry of a listing", async () => {
    await mkdir(join(root, "node_modules"));
    const count = IN_PROCESS_PROBE_LIMITS.files + 1;
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        writeFile(join(root, "node_modules", `f${String(index).padStart(4, "0")}.js`), "x\n"),
      ),
    );
    expect(await probe(["node_modules"])).toEqual({ decided: false });
    // Symlinks (never searched) count too: a directory of them is not listed to its end.
    await mkdir(join(root, ".links"));
    const most = IN_PROCESS_PROBE_LIMITS.files + IN_PROCESS_PROBE_LIMITS.directories;
    await Promise.all(
      Array.from({ length: most + 1 }, (_, index) =>
        symlink("nowhere", join(root, ".links", `l${index}`)),
      ),
    );
    expect(await probe([".links"])).toEqual({ decided: false });
    await write({ "big/large.txt": "x".repeat(IN_PROCESS_PROBE_LIMITS.bytes + 1) });
    expect(await probe(["big"])).toEqual({ decided: false });
    await write({ "ok/small.txt": "needle_text\n" });
    expect(await probe(["ok"])).toEqual({ decided: true, example: "ok/small.txt" });
  });

  it("never follows a symlink, never reads .git, a secret or a FIFO", async () => {
    await mkdir(join(base, "outside"));
    await writeFile(join(base, "outside", "leak.txt"), "needle_text\n");
    await write({
      ".cache/.git/HEAD": "needle_text\n",
      ".cache/.env": "needle_text\n",
      ".cache/keys/id_rsa": "needle_text\n",
      ".cache/.SSH/config": "needle_text\n",
    });
    await symlink(join(base, "outside"), join(root, ".cache", "link"));
    await symlink(join(base, "outside", "leak.txt"), join(root, ".cache", "file-link"));
    await symlink(join(base, "outside"), join(root, ".top-link"));
    execFileSync("mkfifo", [join(root, ".cache", "pipe")]);
    expect(await probe([".cache", ".top-link"])).toEqual({ decided: true });
    // With the workspace's own test switched off, the secret globs still keep secrets out.
    expect(await probe([".cache"], { isSecret: () => false })).toEqual({ decided: true });
    await write({ ".cache/z-plain.txt": "needle_text\n" });
    expect(await probe([".cache"], { isSecret: () => false })).toEqual({
      decided: true,
      example: ".cache/z-plain.txt",
    });
  });

  it("stops on abort", async () => {
    await write({ ".cache/a.txt": "nothing\n" });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      probeSkippedEntries(
        { path: root, workspacePath: "" },
        request({}),
        [".cache"],
        controller.signal,
      ),
    ).rejects.toThrow("stop");
  });
});
