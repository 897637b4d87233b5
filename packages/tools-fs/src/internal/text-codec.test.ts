import { describe, expect, it } from "vitest";
import { decodeText, detectLineEnding, encodeText, encodingLabel, isBinary } from "./text-codec.js";

describe("text codec", () => {
  it("round-trips every encoding, BOM included", () => {
    const text = "héllo\r\nwörld ✓ 😀\r\n";
    for (const encoding of ["utf-8", "utf-8-bom", "utf-16le", "utf-16be"] as const) {
      const bytes = encodeText(text, encoding);
      const decoded = decodeText(bytes);
      expect(decoded, encoding).toMatchObject({
        text,
        encoding,
        lineEnding: "crlf",
        invalidBytes: false,
      });
      expect(encodeText(decoded?.text ?? "", encoding)).toEqual(bytes);
    }
  });

  it("writes the BOMs", () => {
    expect([...encodeText("a", "utf-8-bom").subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect([...encodeText("a", "utf-16le")]).toEqual([0xff, 0xfe, 0x61, 0x00]);
    expect([...encodeText("a", "utf-16be")]).toEqual([0xfe, 0xff, 0x00, 0x61]);
  });

  it("detects binary files but not UTF-16 text", () => {
    expect(
      isBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00])),
    ).toBe(true);
    expect(decodeText(new Uint8Array([1, 2, 3, 0, 5]))).toBeUndefined();
    expect(isBinary(encodeText("plain", "utf-16le"))).toBe(false);
    expect(isBinary(new TextEncoder().encode("plain text\n"))).toBe(false);
  });

  it("never throws on invalid UTF-8 and reports it", () => {
    const decoded = decodeText(new Uint8Array([0x61, 0xff, 0xfe, 0x62]));
    expect(decoded).toMatchObject({
      text: "a\uFFFD\uFFFDb",
      invalidBytes: true,
      encoding: "utf-8",
    });
  });

  it("detects line endings", () => {
    expect(detectLineEnding("a\nb\n")).toBe("lf");
    expect(detectLineEnding("a\r\nb\r\n")).toBe("crlf");
    expect(detectLineEnding("a\r\nb\n")).toBe("mixed");
    expect(detectLineEnding("a")).toBe("none");
    expect(encodingLabel("utf-8-bom")).toBe("utf-8 with BOM");
  });
});
