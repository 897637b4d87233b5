import { describe, expect, test } from "vitest";
import {
  ByteReader,
  ByteWriter,
  copyRun,
  LexicalSnapshotError,
  putVarint,
  readCount,
} from "./lexical-byte-codec.js";

const VARINTS = [0, 1, 127, 128, 255, 16_383, 16_384, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 32 - 1];

describe("lexical byte codec", () => {
  test("varints, float64s and byte runs round-trip in order, growing the buffer as needed", () => {
    const writer = new ByteWriter(1);
    const runs = [new Uint8Array(0), Uint8Array.from([1, 2, 3]), new Uint8Array(500).fill(7)];
    const floats = [0, 1.5, -2.25, Number.MAX_VALUE, 1 / 3];
    for (const value of VARINTS) writer.varint(value);
    for (const value of floats) writer.float64(value);
    for (const run of runs) writer.run(run);
    const reader = new ByteReader(writer.bytes.subarray(0, writer.length));
    expect(VARINTS.map(() => reader.varint())).toEqual(VARINTS);
    expect(floats.map(() => reader.float64())).toEqual(floats);
    expect(runs.map(() => [...reader.run()])).toEqual(runs.map((run) => [...run]));
    expect(reader.done).toBe(true);
  });

  test("a varint takes one byte below 128 and at most five", () => {
    const lengths = VARINTS.map((value) => {
      const writer = new ByteWriter(8);
      writer.varint(value);
      return writer.length;
    });
    expect(lengths).toEqual([1, 1, 1, 2, 2, 2, 3, 4, 4, 5, 5]);
  });

  test("putVarint writes what ByteWriter writes, and readCount reads it back", () => {
    for (const value of VARINTS) {
      const writer = new ByteWriter(8);
      writer.varint(value);
      const bytes = new Uint8Array(8);
      const end = putVarint(bytes, 2, value);
      expect([...bytes.subarray(2, end)]).toEqual([...writer.bytes.subarray(0, writer.length)]);
      expect(readCount(bytes, 2)).toBe(value);
    }
  });

  test("copyRun appends a slice at a position, growing the writer", () => {
    const writer = new ByteWriter(1);
    const source = Uint8Array.from({ length: 200 }, (_, index) => index);
    const end = copyRun(writer, 0, source, 10, 150);
    expect(end).toBe(140);
    expect([...writer.bytes.subarray(0, end)]).toEqual([...source.subarray(10, 150)]);
  });

  test("truncated, overlong and overrunning input throws LexicalSnapshotError", () => {
    expect(() => new ByteReader(Uint8Array.from([0x80])).varint()).toThrow(LexicalSnapshotError);
    expect(() => new ByteReader(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x1f])).varint()).toThrow(
      "too long",
    );
    expect(() => new ByteReader(new Uint8Array(7)).float64()).toThrow(LexicalSnapshotError);
    expect(() => new ByteReader(Uint8Array.from([5, 1, 2])).run()).toThrow(LexicalSnapshotError);
  });
});
