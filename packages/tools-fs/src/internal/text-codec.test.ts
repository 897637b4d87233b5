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

describe("isBinary against its definition", () => {
  // The definition: a NUL, or over 10% control bytes (1–7, 14–31 but ESC), in the first 8 KiB.
  const reference = (bytes: Uint8Array): boolean => {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return false;
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return false;
    const length = Math.min(bytes.length, 8192);
    let control = 0;
    for (let index = 0; index < length; index += 1) {
      const byte = bytes[index] as number;
      if (byte === 0) return true;
      if (byte < 8 || (byte > 13 && byte < 32 && byte !== 27)) control += 1;
    }
    return length > 0 && control / length > 0.1;
  };

  it("gives the same answer on random bytes, near the 10% line and past 8 KiB", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 4000; round += 1) {
      const size =
        round % 50 === 0 ? 8192 + Math.floor(random() * 100) : Math.floor(random() * 300);
      const bytes = new Uint8Array(size);
      const kind = round % 4;
      for (let index = 0; index < size; index += 1) {
        bytes[index] =
          kind === 0
            ? Math.floor(random() * 256)
            : kind === 1
              ? Math.floor(random() * 40)
              : kind === 2
                ? 1 + Math.floor(random() * 127)
                : random() < 0.11
                  ? Math.floor(random() * 32)
                  : 65;
      }
      expect(isBinary(bytes), `round ${round}`).toBe(reference(bytes));
      // A view into a larger buffer, as the seams hand out.
      const wider = new Uint8Array(size + 16);
      wider.set(bytes, 8);
      expect(isBinary(wider.subarray(8, 8 + size))).toBe(reference(bytes));
    }
    // A NUL only past the first 8 KiB does not count.
    const late = new Uint8Array(9000).fill(65);
    late[8500] = 0;
    expect(isBinary(late)).toBe(false);
  });
});
