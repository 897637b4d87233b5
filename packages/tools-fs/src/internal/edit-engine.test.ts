import { describe, expect, it } from "vitest";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createWorkspace } from "../workspace.js";
import {
  applyTextEdit,
  encodeEditedText,
  findClosestRegion,
  loadEditableFile,
  shaMatches,
  spliceAsciiBytes,
  toWorkingForm,
  writeAndHash,
} from "./edit-engine.js";
import { sha256Hex } from "./text-codec.js";

const apply = (text: string, oldText: string, newText: string, replaceAll = false) =>
  applyTextEdit(text, { oldText, newText, replaceAll }, { display: "f.txt" });

describe("applyTextEdit", () => {
  it("replaces a unique match literally", () => {
    const result = apply("a = 1;\nb = 2;\n", "b = 2;", "b = $& $1 $$;");
    expect(result).toEqual({
      ok: true,
      value: {
        text: "a = 1;\nb = $& $1 $$;\n",
        replacements: 1,
        matchKind: "exact",
        lines: [2],
        splices: [{ start: 7, end: 13, replacement: "b = $& $1 $$;" }],
      },
    });
  });

  it("lists every line of a non-unique match, or replaces all", () => {
    const text = "x\nfoo\ny\nfoo\nfoo\n";
    const refused = apply(text, "foo", "bar");
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe("PATTERN_NOT_UNIQUE");
      expect(refused.error.message).toContain("occurs 3 times");
      expect(refused.error.message).toContain("lines 2, 4, 5");
      expect(refused.error.hint).toContain("replace_all");
    }
    const all = apply(text, "foo", "bar", true);
    expect(all.ok && all.value).toMatchObject({
      text: "x\nbar\ny\nbar\nbar\n",
      replacements: 3,
      lines: [2, 4, 5],
    });
  });

  it("deletes with an empty new_text and refuses empty or identical texts", () => {
    expect(apply("keep\ndrop\nkeep\n", "drop\n", "")).toMatchObject({
      ok: true,
      value: { text: "keep\nkeep\n" },
    });
    expect(apply("a", "", "b")).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(apply("a", "a", "a")).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("tolerates line-ending differences when the exact text is missing", () => {
    const result = apply("one\r\ntwo\nthree\r\n", "one\ntwo\nthree", "1\n2\n3");
    expect(result).toMatchObject({
      ok: true,
      value: { matchKind: "line-endings", text: "1\r\n2\r\n3\r\n" },
    });
  });

  it("tolerates trailing whitespace and keeps the rest of the file", () => {
    const result = apply(
      "head\nfunction f() {   \n  return 1;\t\n}\ntail\n",
      "function f() {\n  return 1;\n}",
      "function f() {\n  return 2;\n}",
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        matchKind: "trailing-whitespace",
        text: "head\nfunction f() {\n  return 2;\n}\ntail\n",
        lines: [2],
      },
    });
  });

  it("refuses a tolerant match that is not unique", () => {
    const result = apply("a  \nb\na\t\nb\n", "a\nb", "c");
    expect(result).toMatchObject({ ok: false, error: { code: "PATTERN_NOT_UNIQUE" } });
  });

  it("shows the closest region when nothing matches", () => {
    const text =
      "import x from 'x';\n\nfunction add(a, b) {\n  return a + b;\n}\n\nexport { add };\n";
    const result = apply(text, "function add(a, b) {\n  return a - b;\n}", "nope");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("PATTERN_NOT_FOUND");
      expect(result.error.message).toContain("lines 3–5");
      expect(result.error.message).toContain("     4\t  return a + b;");
      expect(result.error.hint).toContain("read_file");
    }
    const similar = apply(text, "functon ad(a, b) {", "x");
    expect(!similar.ok && similar.error.message).toContain("line 3");
    const nothing = apply(text, "zzzzqqqq", "x");
    expect(!nothing.ok && nothing.error.message).toContain("Nothing in the file resembles it");
  });
});

describe("findClosestRegion", () => {
  it("returns undefined for a blank needle", () => {
    expect(findClosestRegion("a\nb\n", "\n\n")).toBeUndefined();
  });
});

describe("loading and encoding", () => {
  it("works on LF text for a CRLF file and restores CRLF, BOM and UTF-16", async () => {
    const utf16 = new Uint8Array([
      0xff, 0xfe, 0x61, 0x00, 0x0d, 0x00, 0x0a, 0x00, 0x62, 0x00, 0x0d, 0x00, 0x0a, 0x00,
    ]);
    const fileSystem = createMemoryFileSystem({
      "w.txt": utf16,
      "bom.txt": "\uFEFFx\r\ny\r\n",
      "bin.dat": new Uint8Array([1, 0, 2]),
    });
    const workspace = createWorkspace({ fileSystem });
    const resolved = await workspace.resolve("w.txt");
    const file = await loadEditableFile(fileSystem, resolved, {
      maxBytes: 1000,
      expectedSha: undefined,
    });
    expect(file).toMatchObject({ encoding: "utf-16le", crlf: true, working: "a\nb\n" });
    const edited = apply(file.working, toWorkingForm("b\r\n", file), "c\n");
    expect(edited.ok).toBe(true);
    const encoded = encodeEditedText(edited.ok ? edited.value.text : "", file);
    expect([...encoded]).toEqual([
      0xff, 0xfe, 0x61, 0x00, 0x0d, 0x00, 0x0a, 0x00, 0x63, 0x00, 0x0d, 0x00, 0x0a, 0x00,
    ]);
    const written = await writeAndHash(fileSystem, "w.txt", encoded, () => "diff");
    expect(written).toEqual({ sha: await sha256Hex(encoded), value: "diff" });
    expect([...(await fileSystem.readFile("w.txt"))]).toEqual([...encoded]);
    const bom = await loadEditableFile(fileSystem, await workspace.resolve("bom.txt"), {
      maxBytes: 1000,
      expectedSha: undefined,
    });
    expect(bom).toMatchObject({ encoding: "utf-8-bom", crlf: true, working: "x\ny\n" });
    await expect(
      loadEditableFile(fileSystem, await workspace.resolve("bin.dat"), {
        maxBytes: 1000,
        expectedSha: undefined,
      }),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
    await expect(
      loadEditableFile(fileSystem, resolved, { maxBytes: 4, expectedSha: undefined }),
    ).rejects.toMatchObject({ code: "TOO_LARGE" });
    await expect(
      loadEditableFile(fileSystem, resolved, { maxBytes: 1000, expectedSha: "000000000000" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      loadEditableFile(fileSystem, await workspace.resolve("gone.txt"), {
        maxBytes: 1000,
        expectedSha: "000000000000",
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      loadEditableFile(fileSystem, await workspace.resolve("gone.txt"), {
        maxBytes: 1000,
        expectedSha: undefined,
      }),
    ).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
  });

  it("refuses files with invalid bytes rather than corrupting them", async () => {
    const fileSystem = createMemoryFileSystem({
      "bad.txt": new Uint8Array([0x61, 0xff, 0x62, 0x0a]),
    });
    const workspace = createWorkspace({ fileSystem });
    await expect(
      loadEditableFile(fileSystem, await workspace.resolve("bad.txt"), {
        maxBytes: 1000,
        expectedSha: undefined,
      }),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });

  it("matches sha prefixes case-insensitively", () => {
    expect(shaMatches("ABCDEF012345", "abcdef0123456789")).toBe(true);
    expect(shaMatches("abcdef012346", "abcdef0123456789")).toBe(false);
  });
});

describe("spliceAsciiBytes", () => {
  const file = (text: string, encoding: "utf-8" | "utf-8-bom" | "utf-16le", crlf = false) => {
    const body = new TextEncoder().encode(text);
    const bytes = encoding === "utf-8-bom" ? new Uint8Array([0xef, 0xbb, 0xbf, ...body]) : body;
    return { bytes, encoding, crlf, working: text } as const;
  };

  it("splices ASCII UTF-8 bytes (with or without BOM) and matches a full re-encode", () => {
    for (const encoding of ["utf-8", "utf-8-bom"] as const) {
      const source = file("alpha beta alpha gamma", encoding);
      const applied = applyTextEdit(
        source.working,
        { oldText: "alpha", newText: "é!", replaceAll: true },
        { display: "f" },
      );
      if (!applied.ok) throw new Error("edit failed");
      const spliced = spliceAsciiBytes(source, applied.value.splices);
      expect(spliced && [...spliced]).toEqual([...encodeEditedText(applied.value.text, source)]);
    }
  });

  it("declines non-ASCII, CRLF-normalised and UTF-16 files", () => {
    expect(spliceAsciiBytes(file("héllo", "utf-8"), [])).toBeUndefined();
    expect(spliceAsciiBytes(file("a\nb", "utf-8", true), [])).toBeUndefined();
    expect(spliceAsciiBytes({ ...file("ab", "utf-8"), encoding: "utf-16le" }, [])).toBeUndefined();
  });
});
