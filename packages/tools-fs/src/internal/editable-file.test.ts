import { describe, expect, it } from "vitest";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createWorkspace } from "../workspace.js";
import { applyTextEdit } from "./edit-match.js";
import {
  encodeEditedText,
  loadEditableFile,
  shaMatches,
  spliceAsciiBytes,
  toWorkingForm,
  writeAndHash,
} from "./editable-file.js";
import { sha256Hex } from "./text-codec.js";

const apply = (text: string, oldText: string, newText: string, replaceAll = false) =>
  applyTextEdit(text, { oldText, newText, replaceAll }, { display: "f.txt" });

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

describe("encodeEditedText", () => {
  it("gives a CRLF file CRLF line ends, never a doubled \\r when the text already has one", () => {
    const crlf = { crlf: true, encoding: "utf-8" as const };
    expect(new TextDecoder().decode(encodeEditedText("a\nb\r\nc", crlf))).toBe("a\r\nb\r\nc");
    const lf = { crlf: false, encoding: "utf-8" as const };
    expect(new TextDecoder().decode(encodeEditedText("a\nb\r\n", lf))).toBe("a\nb\r\n");
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
