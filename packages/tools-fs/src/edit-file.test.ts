import { readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createEditFileTool, type EditFileToolData, formatEditFileResult } from "./edit-file.js";
import type { FileSystem } from "./file-system.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createReadFileTool } from "./read-file.js";
import { seamFactories, useTemporaryDirectories } from "./test-support/seams.js";
import { createWorkspace } from "./workspace.js";

const temporaryRoot = useTemporaryDirectories("agentool-edit-");
const seams = seamFactories("agentool-edit-");

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function tools(fileSystem: FileSystem, maxFileBytes?: number) {
  const workspace = createWorkspace({ fileSystem });
  return {
    edit: createEditFileTool({
      workspace,
      ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
    }),
    read: createReadFileTool({ workspace }),
  };
}

function data(
  result:
    | { success: true; data: EditFileToolData }
    | { success: false; error: { code: string; message: string } },
) {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

const source =
  "import { a } from './a';\n\nexport function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item;\n  return sum;\n}\n";

describe.each(seams)("edit_file over the %s seam", (_label, makeSeam) => {
  it("replaces a unique match and returns a diff and the new sha", async () => {
    const fileSystem = await makeSeam({ "src/total.js": source });
    const { edit } = tools(fileSystem);
    const result = data(
      await edit.run({
        path: "src/total.js",
        old_text: "  let sum = 0;",
        new_text: "  let sum = 0n;",
      }),
    );
    expect(result).toMatchObject({
      replacements: 1,
      lines: [4],
      match_kind: "exact",
      added: 1,
      removed: 1,
    });
    expect(decode(await fileSystem.readFile("src/total.js"))).toBe(source.replace("= 0;", "= 0n;"));
    expect(result.sha).toBe(await fileSystem.digest("src/total.js"));
    expect(result.diff).toBe(
      [
        "--- a/src/total.js",
        "+++ b/src/total.js",
        "@@ -1,7 +1,7 @@",
        " import { a } from './a';",
        " ",
        " export function total(items) {",
        "-  let sum = 0;",
        "+  let sum = 0n;",
        "   for (const item of items) sum += item;",
        "   return sum;",
        " }",
      ].join("\n"),
    );
    expect(formatEditFileResult(result)).toMatch(
      /^Edited src\/total\.js: replaced 1 occurrence at line 4 \(\+1 −1 lines, sha: [0-9a-f]{12}\)\.\n--- a/,
    );
  });

  it("lists every match when old_text is not unique, and replaces all on request", async () => {
    const fileSystem = await makeSeam({ "a.txt": "foo\nbar\nfoo\nbaz foo\n" });
    const { edit } = tools(fileSystem);
    const refused = await edit.run({ path: "a.txt", old_text: "foo", new_text: "qux" });
    expect(refused).toMatchObject({ success: false, error: { code: "PATTERN_NOT_UNIQUE" } });
    expect(!refused.success && refused.error.message).toContain("lines 1, 3, 4");
    expect(decode(await fileSystem.readFile("a.txt"))).toBe("foo\nbar\nfoo\nbaz foo\n");
    const all = data(
      await edit.run({ path: "a.txt", old_text: "foo", new_text: "qux", replace_all: true }),
    );
    expect(all).toMatchObject({ replacements: 3, lines: [1, 3, 4] });
    expect(formatEditFileResult(all)).toContain("replaced 3 occurrences at lines 1, 3, 4");
    expect(decode(await fileSystem.readFile("a.txt"))).toBe("qux\nbar\nqux\nbaz qux\n");
  });

  it("lists a line once with its count when old_text occurs several times on it", async () => {
    const fileSystem = await makeSeam({ "a.txt": "alpha\nbeta\ngamma\n" });
    const { edit } = tools(fileSystem);
    const refused = await edit.run({ path: "a.txt", old_text: "a", new_text: "q" });
    expect(refused).toMatchObject({ success: false, error: { code: "PATTERN_NOT_UNIQUE" } });
    const message = refused.success ? "" : refused.error.message;
    expect(message).toContain("occurs 5 times in a.txt, at lines 1 (2×), 2, 3 (2×).");
    expect(message).not.toContain("1, 1");
    const twice = data(
      await edit.run({ path: "a.txt", old_text: "a", new_text: "A", replace_all: true }),
    );
    // data keeps one line per occurrence (facts); the text groups them.
    expect(twice.lines).toEqual([1, 1, 2, 3, 3]);
    expect(formatEditFileResult(twice)).toContain(
      "replaced 5 occurrences at lines 1 (2×), 2, 3 (2×)",
    );
  });

  it("shows the closest region when old_text is not found", async () => {
    const fileSystem = await makeSeam({ "src/total.js": source });
    const { edit } = tools(fileSystem);
    const result = await edit.run({
      path: "src/total.js",
      old_text: "  let summ = 0;\n  for (const item of items) sum += item;",
      new_text: "x",
    });
    expect(result).toMatchObject({ success: false, error: { code: "PATTERN_NOT_FOUND" } });
    if (!result.success) {
      expect(result.error.message).toContain("closest region is at line 5");
      expect(result.error.message).toContain("     5\t  for (const item of items) sum += item;");
      expect(result.error.hint).toContain("Re-read src/total.js with read_file");
    }
  });

  it("replaces literally, deletes with empty new_text and refuses no-op edits", async () => {
    const fileSystem = await makeSeam({ "a.txt": "price: X\nremove me\nkeep\n" });
    const { edit } = tools(fileSystem);
    data(await edit.run({ path: "a.txt", old_text: "X", new_text: "$& $' $` $1 $$" }));
    data(await edit.run({ path: "a.txt", old_text: "remove me\n", new_text: "" }));
    expect(decode(await fileSystem.readFile("a.txt"))).toBe("price: $& $' $` $1 $$\nkeep\n");
    expect(await edit.run({ path: "a.txt", old_text: "keep", new_text: "keep" })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
    expect(await edit.run({ path: "a.txt", old_text: "", new_text: "x" })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });

  it("preserves CRLF, a BOM and UTF-16 while the model sends LF text", async () => {
    const utf16 = (text: string) =>
      new Uint8Array([
        0xff,
        0xfe,
        ...[...text].flatMap((character) => [character.charCodeAt(0), 0]),
      ]);
    const fileSystem = await makeSeam({
      "crlf.txt": "one\r\ntwo\r\nthree\r\n",
      "bom.txt": "\uFEFFalpha\r\nbeta\r\n",
      "wide.txt": utf16("first\r\nsecond\r\n"),
    });
    const { edit } = tools(fileSystem);
    const crlf = data(
      await edit.run({ path: "crlf.txt", old_text: "one\ntwo\n", new_text: "1\n2\n2.5\n" }),
    );
    expect(crlf).toMatchObject({ match_kind: "exact", line_ending: "crlf" });
    expect(formatEditFileResult(crlf)).toContain("Kept CRLF line endings.");
    expect(decode(await fileSystem.readFile("crlf.txt"))).toBe("1\r\n2\r\n2.5\r\nthree\r\n");
    data(await edit.run({ path: "bom.txt", old_text: "beta\n", new_text: "gamma\n" }));
    expect([...(await fileSystem.readFile("bom.txt"))].slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
    expect(decode((await fileSystem.readFile("bom.txt")).subarray(3))).toBe("alpha\r\ngamma\r\n");
    const wide = data(await edit.run({ path: "wide.txt", old_text: "second", new_text: "2nd" }));
    expect(formatEditFileResult(wide)).toContain("Kept utf-16le and CRLF line endings.");
    expect([...(await fileSystem.readFile("wide.txt"))]).toEqual([...utf16("first\r\n2nd\r\n")]);
  });

  it("applies a unique match that differs only in line endings or trailing whitespace and says so", async () => {
    const fileSystem = await makeSeam({
      "mixed.txt": "a\r\nb\nc\r\n",
      "ws.py": "def f():   \n    return 1\t\n",
    });
    const { edit } = tools(fileSystem);
    const mixed = data(await edit.run({ path: "mixed.txt", old_text: "a\nb", new_text: "A\nB" }));
    expect(mixed.match_kind).toBe("line-endings");
    expect(formatEditFileResult(mixed)).toContain(
      "Note: old_text matched only after ignoring line-ending differences",
    );
    expect(decode(await fileSystem.readFile("mixed.txt"))).toBe("A\r\nB\nc\r\n");
    const whitespace = data(
      await edit.run({
        path: "ws.py",
        old_text: "def f():\n    return 1\n",
        new_text: "def f():\n    return 2\n",
      }),
    );
    expect(whitespace.match_kind).toBe("trailing-whitespace");
    expect(decode(await fileSystem.readFile("ws.py"))).toBe("def f():\n    return 2\n");
  });

  it("fails with CONFLICT when the file changed between read and edit", async () => {
    const fileSystem = await makeSeam({ "a.txt": "version 1\n" });
    const { edit, read } = tools(fileSystem);
    const page = await read.run({ path: "a.txt" });
    const sha = page.success ? (page.data.sha ?? "").slice(0, 12) : "";
    await fileSystem.writeFile("a.txt", new TextEncoder().encode("version 2\n"));
    const result = await edit.run({
      path: "a.txt",
      old_text: "version",
      new_text: "release",
      expected_sha: sha,
    });
    expect(result).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    expect(decode(await fileSystem.readFile("a.txt"))).toBe("version 2\n");
    const fresh = await read.run({ path: "a.txt" });
    const ok = data(
      await edit.run({
        path: "a.txt",
        old_text: "version",
        new_text: "release",
        expected_sha: fresh.success ? fresh.data.sha : "",
      }),
    );
    expect(ok.previous_sha).toBe(fresh.success ? fresh.data.sha : "");
  });

  it("never loses an update under concurrent edits of one file", async () => {
    const slots = Array.from({ length: 25 }, (_, index) => `slot ${index}: empty`);
    const fileSystem = await makeSeam({ "slots.txt": `${slots.join("\n")}\n` });
    const { edit } = tools(fileSystem);
    const results = await Promise.all(
      slots.map((_, index) =>
        edit.run({
          path: "./slots.txt",
          old_text: `slot ${index}: empty`,
          new_text: `slot ${index}: filled by edit ${index}`,
        }),
      ),
    );
    expect(results.filter((result) => !result.success)).toEqual([]);
    const text = decode(await fileSystem.readFile("slots.txt"));
    for (let index = 0; index < slots.length; index += 1)
      expect(text).toContain(`slot ${index}: filled by edit ${index}\n`);
  });

  it("refuses directories, binary files, files over the cap, missing files and secrets", async () => {
    const fileSystem = await makeSeam({
      "dir/a.txt": "a",
      "blob.bin": new Uint8Array([0, 1, 2, 3]),
      "big.txt": "x".repeat(2000),
      ".env.local": "A=1",
      id_ed25519: "k",
    });
    const { edit } = tools(fileSystem, 1000);
    expect(await edit.run({ path: "dir", old_text: "a", new_text: "b" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await edit.run({ path: "blob.bin", old_text: "a", new_text: "b" })).toMatchObject({
      success: false,
      error: { code: "UNSUPPORTED" },
    });
    expect(await edit.run({ path: "big.txt", old_text: "x", new_text: "y" })).toMatchObject({
      success: false,
      error: { code: "TOO_LARGE" },
    });
    expect(await edit.run({ path: "nope.txt", old_text: "x", new_text: "y" })).toMatchObject({
      success: false,
      error: { code: "FILE_NOT_FOUND" },
    });
    expect(await edit.run({ path: ".env.local", old_text: "A", new_text: "B" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(await edit.run({ path: "id_ed25519", old_text: "k", new_text: "j" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
  });
});

describe("edit_file on disk", () => {
  it("refuses edits through a symlink that escapes the root", async () => {
    const outside = await temporaryRoot();
    await writeFile(join(outside, "victim.txt"), "original\n");
    const root = await temporaryRoot();
    await symlink(join(outside, "victim.txt"), join(root, "link.txt"));
    await symlink(outside, join(root, "dir-link"));
    const { edit } = tools(createNodeFileSystem({ root }));
    expect(
      await edit.run({ path: "link.txt", old_text: "original", new_text: "pwned" }),
    ).toMatchObject({ success: false, error: { code: "INVALID_PATH" } });
    expect(
      await edit.run({ path: "dir-link/victim.txt", old_text: "original", new_text: "pwned" }),
    ).toMatchObject({ success: false, error: { code: "INVALID_PATH" } });
    expect(await readFile(join(outside, "victim.txt"), "utf8")).toBe("original\n");
  });

  it("edits a file inside the root through an inside symlink, on the real file", async () => {
    const root = await temporaryRoot();
    await writeFile(join(root, "real.txt"), "a\n");
    await symlink("real.txt", join(root, "alias.txt"));
    const { edit } = tools(createNodeFileSystem({ root }));
    data(await edit.run({ path: "alias.txt", old_text: "a", new_text: "b" }));
    expect(await readFile(join(root, "real.txt"), "utf8")).toBe("b\n");
  });
});

describe("edit_file boundary", () => {
  it("accepts old_string / new_string / file_path silently", async () => {
    const fileSystem = createMemoryFileSystem({ "a.txt": "one two\n" });
    const { edit } = tools(fileSystem);
    const result = data(await edit.run({ file_path: "a.txt", old_string: "two", new_string: "2" }));
    expect(result).toMatchObject({ path: "a.txt", replacements: 1, match_kind: "exact" });
    expect(decode(await fileSystem.readFile("a.txt"))).toBe("one 2\n");
    const both = await edit.run({ path: "a.txt", old_text: "one", old_string: "x", new_text: "1" });
    expect(both).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
  });

  it("strips read_file's line-number prefixes copied from its page, and says so", async () => {
    const fileSystem = createMemoryFileSystem({ "src/total.js": source });
    const { edit, read } = tools(fileSystem);
    const page = read.renderResult(await read.run({ path: "src/total.js" }));
    const rendered = page.toString().split("\n");
    // What a model copies: lines 4–6 as read_file shows them, numbers included.
    const copied = rendered.slice(4, 7).join("\n");
    expect(copied).toBe(
      "     4\t  let sum = 0;\n     5\t  for (const item of items) sum += item;\n     6\t  return sum;",
    );
    const replaced = copied.replace("return sum;", "return sum * 2;");
    const result = await edit.run({ path: "src/total.js", old_text: copied, new_text: replaced });
    const edited = data(result);
    expect(edited).toMatchObject({ stripped_line_numbers: true, lines: [4], replacements: 1 });
    expect(decode(await fileSystem.readFile("src/total.js"))).toBe(
      source.replace("return sum;", "return sum * 2;"),
    );
    expect(edit.renderResult(result)).toContain(
      "Note: old_text carried read_file's line-number prefixes, which are not part of the file",
    );
  });

  it("says when only the indentation differs, showing the file's indentation", async () => {
    const fileSystem = createMemoryFileSystem({ "src/total.js": source });
    const { edit } = tools(fileSystem);
    const result = await edit.run({
      path: "src/total.js",
      old_text: "    let sum = 0;\n    for (const item of items) sum += item;",
      new_text: "    let sum = 1;",
    });
    expect(result).toMatchObject({ success: false, error: { code: "PATTERN_NOT_FOUND" } });
    if (result.success) return;
    expect(result.error.message).toContain("Only the indentation differs");
    expect(result.error.message).toContain("line 4: the file has 2 spaces, old_text has 4 spaces");
    expect(result.error.message).toContain("     4\t  let sum = 0;");
  });

  it("after the model's own edit, a stale expected_sha gets a CONFLICT that offers the new sha", async () => {
    const fileSystem = createMemoryFileSystem({ "src/total.js": source });
    const { edit, read } = tools(fileSystem);
    const page = await read.run({ path: "src/total.js" });
    const readSha = page.success ? (page.data.sha ?? "") : "";
    const first = data(
      await edit.run({
        path: "src/total.js",
        old_text: "let sum = 0;",
        new_text: "let sum = 1;",
        expected_sha: readSha.slice(0, 12),
      }),
    );
    // The model sends the sha it read before its own edit.
    const stale = await edit.run({
      path: "src/total.js",
      old_text: "return sum;",
      new_text: "return sum + 1;",
      expected_sha: readSha.slice(0, 12),
    });
    expect(stale).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    if (stale.success) return;
    const short = first.sha.slice(0, 12);
    expect(stale.error.message).toContain(`its sha is now ${short}`);
    expect(stale.error.message).toContain(
      "That is the sha your last edit_file call on src/total.js returned",
    );
    expect(stale.error.hint).toContain(`call again with expected_sha="${short}"`);
    const retried = data(
      await edit.run({
        path: "src/total.js",
        old_text: "return sum;",
        new_text: "return sum + 1;",
        expected_sha: short,
      }),
    );
    expect(retried.previous_sha).toBe(first.sha);
  });

  it("keeps the diff in data without a marker and renders the marker when it is cut", async () => {
    const lines = Array.from({ length: 400 }, (_, index) => `value ${index}`).join("\n");
    const fileSystem = createMemoryFileSystem({ "many.txt": `${lines}\n` });
    const workspace = createWorkspace({ fileSystem });
    const edit = createEditFileTool({ workspace, maxDiffLines: 20, mountedTools: ["read_file"] });
    const result = await edit.run({
      path: "many.txt",
      old_text: "value",
      new_text: "item",
      replace_all: true,
    });
    const edited = data(result);
    expect(edited.diff_truncated).toBe(true);
    expect(edited.diff.split("\n")).toHaveLength(20);
    expect(edited.diff).not.toContain("truncated");
    expect(edited.diff_omitted_lines).toBeGreaterThan(700);
    expect(edit.renderResult(result)).toContain(
      `…[truncated: ${edited.diff_omitted_lines.toLocaleString("en-US")} more lines — the diff is cut, the edit was applied in full; read the changed lines with read_file to check them]`,
    );
  });

  it("names in its description only the tools mounted beside it", () => {
    const workspace = createWorkspace({ fileSystem: createMemoryFileSystem() });
    const alone = createEditFileTool({ workspace });
    for (const absent of ["read_file", "multi_edit", "write_file"]) {
      expect(alone.description).not.toContain(absent);
    }
    expect(
      JSON.stringify(Object.values(alone.input.shape).map((field) => field.description)),
    ).not.toContain("read_file");
    const family = createEditFileTool({
      workspace,
      mountedTools: ["read_file", "edit_file", "multi_edit", "write_file"],
    });
    expect(family.description).toContain("Read the file first with read_file");
    expect(family.description).toContain("use multi_edit; to rewrite a whole file use write_file");
  });
});

describe("edit_file contract", () => {
  it("passes the conformance kit", async () => {
    const fileSystem = createMemoryFileSystem({ "sample.txt": "hello\n" });
    const { edit } = tools(fileSystem);
    await assertConformance([edit], {
      samples: { edit_file: { path: "sample.txt", old_text: "hello", new_text: "hi" } },
    });
    expect(edit.annotations).toMatchObject({ destructive: true });
    expect(edit.tags).toEqual(["fs:write"]);
    expect(() =>
      createEditFileTool({ workspace: createWorkspace({ fileSystem }), maxBytes: 1 } as never),
    ).toThrow(/maxBytes/);
  });
});
