import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createEditFileTool } from "./edit-file.js";
import type { FileSystem } from "./file-system.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import {
  createMultiEditTool,
  formatMultiEditResult,
  type MultiEditToolData,
} from "./multi-edit.js";
import { createReadFileTool } from "./read-file.js";
import { seamFactories } from "./test-support/seams.js";
import { createWorkspace } from "./workspace.js";

const seams = seamFactories("agentool-multi-");

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function tools(fileSystem: FileSystem) {
  const workspace = createWorkspace({ fileSystem });
  return { multi: createMultiEditTool({ workspace }), read: createReadFileTool({ workspace }) };
}

function data(
  result:
    | { success: true; data: MultiEditToolData }
    | { success: false; error: { code: string; message: string } },
) {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

const source = "const oldName = 1;\nconsole.log(oldName);\n// TODO: rename\nexport { oldName };\n";

describe.each(seams)("multi_edit over the %s seam", (_label, makeSeam) => {
  it("applies edits in order, each on the result of the previous", async () => {
    const fileSystem = await makeSeam({ "a.js": source });
    const { multi } = tools(fileSystem);
    const result = data(
      await multi.run({
        path: "a.js",
        edits: [
          { old_text: "oldName", new_text: "newName", replace_all: true },
          { old_text: "// TODO: rename\n", new_text: "" },
          { old_text: "const newName = 1;", new_text: "const newName = 2;" },
        ],
      }),
    );
    expect(result).toMatchObject({ written: true, dry_run: false, added: 3, removed: 4 });
    expect(result.edits).toEqual([
      {
        index: 0,
        replacements: 3,
        lines: [1, 2, 4],
        match_kind: "exact",
        stripped_line_numbers: false,
      },
      { index: 1, replacements: 1, lines: [3], match_kind: "exact", stripped_line_numbers: false },
      { index: 2, replacements: 1, lines: [1], match_kind: "exact", stripped_line_numbers: false },
    ]);
    expect(decode(await fileSystem.readFile("a.js"))).toBe(
      "const newName = 2;\nconsole.log(newName);\nexport { newName };\n",
    );
    expect(result.sha).toBe(await fileSystem.digest("a.js"));
    expect(formatMultiEditResult(result)).toMatch(
      /^Edited a\.js: 3 edits, 5 replacements \(\+3 −4 lines, sha: [0-9a-f]{12}\)\.\n--- a\/a\.js/,
    );
  });

  it("is all or nothing: a failing edit names its index and nothing is written", async () => {
    const fileSystem = await makeSeam({ "a.js": source });
    const { multi } = tools(fileSystem);
    const result = await multi.run({
      path: "a.js",
      edits: [
        { old_text: "const oldName = 1;", new_text: "const oldName = 2;" },
        { old_text: "oldName", new_text: "x" },
      ],
    });
    expect(result).toMatchObject({ success: false, error: { code: "PATTERN_NOT_UNIQUE" } });
    expect(!result.success && result.error.message).toMatch(/^edits\[1\]: old_text occurs 3 times/);
    expect(!result.success && result.error.message).toContain("Nothing was written.");
    expect(!result.success && result.error.hint).toContain("Fix edits[1]");
    const missing = await multi.run({
      path: "a.js",
      edits: [{ old_text: "nowhere to be found", new_text: "x" }],
    });
    expect(missing).toMatchObject({ success: false, error: { code: "PATTERN_NOT_FOUND" } });
    const noop = await multi.run({
      path: "a.js",
      edits: [
        { old_text: "a", new_text: "b", replace_all: true },
        { old_text: "x", new_text: "x" },
      ],
    });
    expect(noop).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(!noop.success && noop.error.message).toContain("edits[1]");
    expect(decode(await fileSystem.readFile("a.js"))).toBe(source);
  });

  it("previews with dry_run without writing", async () => {
    const fileSystem = await makeSeam({ "a.js": source });
    const { multi } = tools(fileSystem);
    const before = await fileSystem.digest("a.js");
    const result = data(
      await multi.run({
        path: "a.js",
        dry_run: true,
        edits: [{ old_text: "1;", new_text: "42;" }],
      }),
    );
    expect(result).toMatchObject({ dry_run: true, written: false, previous_sha: before });
    expect(result.sha).not.toBe(before);
    expect(result.diff).toContain("-const oldName = 1;\n+const oldName = 42;");
    expect(formatMultiEditResult(result)).toContain(
      "Nothing was written; call again without dry_run to apply.",
    );
    expect(await fileSystem.digest("a.js")).toBe(before);
  });

  it("writes nothing when the edits cancel out", async () => {
    const fileSystem = await makeSeam({ "a.txt": "x\n" });
    const { multi } = tools(fileSystem);
    const result = data(
      await multi.run({
        path: "a.txt",
        edits: [
          { old_text: "x", new_text: "y" },
          { old_text: "y", new_text: "x" },
        ],
      }),
    );
    expect(result).toMatchObject({ written: false, diff: "" });
    expect(formatMultiEditResult(result)).toContain("is unchanged");
  });

  it("keeps CRLF and UTF-16 and checks expected_sha", async () => {
    const utf16 = (text: string) =>
      new Uint8Array([
        0xff,
        0xfe,
        ...[...text].flatMap((character) => [character.charCodeAt(0), 0]),
      ]);
    const fileSystem = await makeSeam({ "w.txt": utf16("a\r\nb\r\nc\r\n") });
    const { multi, read } = tools(fileSystem);
    const page = await read.run({ path: "w.txt" });
    const sha = page.success ? page.data.sha : "";
    data(
      await multi.run({
        path: "w.txt",
        expected_sha: sha,
        edits: [
          { old_text: "a\n", new_text: "A\n" },
          { old_text: "c\n", new_text: "C\nD\n" },
        ],
      }),
    );
    expect([...(await fileSystem.readFile("w.txt"))]).toEqual([...utf16("A\r\nb\r\nC\r\nD\r\n")]);
    const stale = await multi.run({
      path: "w.txt",
      expected_sha: sha,
      edits: [{ old_text: "b", new_text: "B" }],
    });
    expect(stale).toMatchObject({ success: false, error: { code: "CONFLICT" } });
  });

  it("serialises with concurrent calls on the same file", async () => {
    const fileSystem = await makeSeam({
      "n.txt": Array.from({ length: 10 }, (_, index) => `n${index}`).join("\n"),
    });
    const { multi } = tools(fileSystem);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        multi.run({ path: "n.txt", edits: [{ old_text: `n${index}`, new_text: `m${index}` }] }),
      ),
    );
    expect(results.every((result) => result.success)).toBe(true);
    expect(decode(await fileSystem.readFile("n.txt"))).toBe(
      Array.from({ length: 10 }, (_, index) => `m${index}`).join("\n"),
    );
  });

  it("refuses secrets, escapes and an empty edit list", async () => {
    const fileSystem = await makeSeam({ "a.txt": "a" });
    const { multi } = tools(fileSystem);
    expect(
      await multi.run({ path: ".aws/credentials", edits: [{ old_text: "a", new_text: "b" }] }),
    ).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    expect(
      await multi.run({ path: "../a.txt", edits: [{ old_text: "a", new_text: "b" }] }),
    ).toMatchObject({ success: false, error: { code: "INVALID_PATH" } });
    expect(await multi.run({ path: "a.txt", edits: [] })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });
});

describe("multi_edit boundary", () => {
  it("strips line-number prefixes per edit", async () => {
    const fileSystem = createMemoryFileSystem({ "a.js": source });
    const { multi } = tools(fileSystem);
    const result = await multi.run({
      file_path: "a.js",
      edits: [
        { old_text: "     2\tconsole.log(oldName);", new_text: "console.log(newName);" },
        { old_text: "// TODO: rename\n", new_text: "" },
      ],
    });
    expect(result.success && result.data.edits.map((edit) => edit.stripped_line_numbers)).toEqual([
      true,
      false,
    ]);
    expect(multi.renderResult(result)).toContain("Note: edits[0]: old_text carried read_file's");
  });

  it("names one earlier edit as edits[0] and writes 'Nothing was written.' on its own line after a quoted excerpt", async () => {
    const fileSystem = createMemoryFileSystem({ "a.js": source });
    const { multi } = tools(fileSystem);
    const one = await multi.run({
      path: "a.js",
      edits: [
        { old_text: "const oldName = 1;", new_text: "const oldName = 2;" },
        { old_text: "console.log(oldNme);", new_text: "y" },
      ],
    });
    const message = !one.success ? one.error.message : "";
    expect(message).not.toContain("edits[0]–edits[0]");
    expect(message).toContain(
      "\n(edits[0] applied cleanly before it; edits[1] sees its result) Nothing was written.",
    );
    expect(message).toMatch(/\n\s+3\t\/\/ TODO: rename\n\(edits\[0\]/);
    const two = await multi.run({
      path: "a.js",
      edits: [
        { old_text: "const oldName = 1;", new_text: "const oldName = 2;" },
        { old_text: "// TODO: rename\n", new_text: "" },
        { old_text: "oldName", new_text: "x" },
      ],
    });
    expect(!two.success && two.error.message).toContain(
      "at lines 1, 2, 3. (edits[0]–edits[1] applied cleanly before it; edits[2] sees their result) Nothing was written.",
    );
  });

  it("accepts old_string / new_string inside edits as edit_file does at its top level", async () => {
    const fileSystem = createMemoryFileSystem({ "a.js": source });
    const { multi } = tools(fileSystem);
    const result = await multi.run({
      path: "a.js",
      edits: [
        { old_string: "const oldName = 1;", new_string: "const oldName = 2;" },
        { old_str: "// TODO: rename\n", new_str: "" },
      ],
    });
    expect(result.success && result.data.edits.map((edit) => edit.replacements)).toEqual([1, 1]);
    expect(decode(await fileSystem.readFile("a.js"))).toBe(
      "const oldName = 2;\nconsole.log(oldName);\nexport { oldName };\n",
    );
    const both = await multi.run({
      path: "a.js",
      edits: [{ old_text: "oldName", old_string: "x", new_text: "y" }],
    });
    expect(both).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(!both.success && both.error.message).toContain(
      'edits[0]: unknown field "old_string" — did you mean "old_text"?',
    );
    expect(!both.success && both.error.message.split('unknown field "old_string"')).toHaveLength(2);
  });

  it("a CONFLICT after its own write offers the sha it returned, to edit_file too", async () => {
    const fileSystem = createMemoryFileSystem({ "a.js": source });
    const workspace = createWorkspace({ fileSystem });
    const multi = createMultiEditTool({ workspace });
    const edit = createEditFileTool({ workspace });
    const before = await fileSystem.digest("a.js");
    const written = data(
      await multi.run({
        path: "a.js",
        edits: [{ old_text: "oldName", new_text: "newName", replace_all: true }],
        expected_sha: before,
      }),
    );
    expect(written).toMatchObject({ dry_run: false, written: true, previous_sha: before });
    const stale = await edit.run({
      path: "a.js",
      old_text: "// TODO: rename\n",
      new_text: "",
      expected_sha: before,
    });
    expect(stale).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    expect(!stale.success && stale.error.message).toContain(
      `its sha is now ${written.sha.slice(0, 12)}. That is the sha your last multi_edit call on a.js returned`,
    );
  });
});

describe("multi_edit contract", () => {
  it("passes the conformance kit", async () => {
    const fileSystem = createMemoryFileSystem({ "sample.txt": "hello\n" });
    const { multi } = tools(fileSystem);
    await assertConformance([multi], {
      samples: {
        multi_edit: { path: "sample.txt", edits: [{ old_text: "hello", new_text: "hi" }] },
      },
    });
    expect(multi.annotations).toMatchObject({ destructive: true });
    expect(multi.tags).toEqual(["fs:write"]);
    expect(() =>
      createMultiEditTool({ workspace: createWorkspace({ fileSystem }), maxEdits: 0 }),
    ).toThrow(/maxEdits/);
  });
});
