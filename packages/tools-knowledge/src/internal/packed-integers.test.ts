import { describe, expect, test } from "vitest";
import {
  decodeBase64,
  encodeBase64,
  encodeBase64Portable,
  PackedIntegerReader,
  PackedIntegerWriter,
} from "./packed-integers.js";

describe("packed integers", () => {
  test("integers from 0 to 2^53 - 1 round-trip, in order", () => {
    const values = [
      0,
      1,
      127,
      128,
      255,
      16_383,
      16_384,
      2 ** 31,
      2 ** 32 + 5,
      Number.MAX_SAFE_INTEGER,
    ];
    for (let seed = 1; seed < 2000; seed += 1) values.push((seed * 2_654_435_761) % 1_000_003);
    const writer = new PackedIntegerWriter();
    for (const value of values) writer.write(value);
    const reader = new PackedIntegerReader(writer.toBase64());
    expect(values.map(() => reader.read())).toEqual(values);
    expect(reader.done).toBe(true);
  });

  test("small numbers take one byte each", () => {
    const writer = new PackedIntegerWriter();
    for (let value = 0; value < 300; value += 1) writer.write(value % 128);
    expect(decodeBase64(writer.toBase64())).toHaveLength(300);
  });

  test("reading past the end or a runaway number throws RangeError", () => {
    expect(() => new PackedIntegerReader("").read()).toThrow(RangeError);
    expect(() => new PackedIntegerReader(encodeBase64(new Uint8Array([0x80]))).read()).toThrow(
      RangeError,
    );
    expect(() =>
      new PackedIntegerReader(encodeBase64(new Uint8Array(9).fill(0xff))).read(),
    ).toThrow(RangeError);
  });
});

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
