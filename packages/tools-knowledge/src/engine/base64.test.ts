import { describe, expect, test } from "vitest";
import { decodeBase64, encodeBase64, encodeBase64Portable } from "./base64.js";

describe("base64", () => {
  test("matches the platform's encoding for every length and byte", () => {
    for (let length = 0; length < 40; length += 1) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 97 + length * 31) % 256);
      const expected = btoa(String.fromCharCode(...bytes));
      expect(encodeBase64(bytes)).toBe(expected);
      expect([...decodeBase64(expected)]).toEqual([...bytes]);
    }
    const all = Uint8Array.from({ length: 256 * 40 }, (_, index) => index % 256);
    expect([...decodeBase64(encodeBase64(all))]).toEqual([...all]);
  });

  test("large inputs (the platform's encoder, where there is one) give the portable encoder's text", () => {
    for (const length of [4096, 4097, 4098, 100_001]) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 131 + (index >> 8)) % 256);
      const text = encodeBase64(bytes);
      expect(text).toBe(encodeBase64Portable(bytes));
      expect(text).toBe(encodeBase64Portable(bytes.slice()));
      expect([...decodeBase64(text)]).toEqual([...bytes]);
    }
    // A view into a larger buffer encodes only its own bytes.
    const backing = Uint8Array.from({ length: 9000 }, (_, index) => index % 256);
    const view = backing.subarray(500, 8500);
    expect(encodeBase64(view)).toBe(encodeBase64Portable(view.slice()));
  });

  test("refuses text that is not padded standard base64", () => {
    for (const text of ["A", "AB=", "ABC", "AB$D", "AAAA====", "=AAA", "A=AA", "ÀAAA"]) {
      expect(() => decodeBase64(text), text).toThrow(RangeError);
    }
  });
});
