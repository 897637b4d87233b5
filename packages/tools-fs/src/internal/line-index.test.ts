import { describe, expect, it } from "vitest";
import type { FileReader } from "../file-system.js";
import {
  type ExtendLineIndexOptions,
  findTailStart,
  LineIndex,
  type LineIndexOptions,
  LruCache,
  locateLine,
  numberLine,
  readLines,
} from "./line-index.js";

/** A whole pass: a new index scanned to the end, its fields as the tests read them. */
async function buildLineIndex(
  reader: FileReader,
  options: LineIndexOptions & ExtendLineIndexOptions = {},
) {
  const index = new LineIndex(reader.size, options);
  await index.extendTo(reader, Number.POSITIVE_INFINITY, options);
  return {
    size: index.scanned,
    start: index.start,
    totalLines: index.totalLines ?? index.lines,
    stride: index.stride,
    checkpoints: Float64Array.from(index.checkpoints),
  };
}

function memoryReader(bytes: Uint8Array): FileReader & { reads: number } {
  const reader = {
    size: bytes.length,
    reads: 0,
    async read(position: number, length: number) {
      reader.reads += 1;
      return bytes.slice(position, Math.min(bytes.length, position + length));
    },
    async close() {},
  };
  return reader;
}

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function collect(
  reader: FileReader,
  position: number,
  end: number,
  cap: number,
  chunk: number,
) {
  const lines: Array<[string, number]> = [];
  for await (const line of readLines(reader, position, end, cap, chunk))
    lines.push([decode(line.bytes), line.byteLength]);
  return lines;
}

/** A reader that also reads into a caller's buffer, counting the bytes it was asked for. */
function bufferReader(bytes: Uint8Array): FileReader & { bytesRead: number } {
  const reader = {
    size: bytes.length,
    bytesRead: 0,
    async read(position: number, length: number) {
      const slice = bytes.slice(position, Math.min(bytes.length, position + length));
      reader.bytesRead += slice.length;
      return slice;
    },
    async readInto(target: Uint8Array, position: number, length: number) {
      const slice = bytes.subarray(
        position,
        Math.min(bytes.length, position + length, position + target.length),
      );
      target.set(slice);
      reader.bytesRead += slice.length;
      return slice.length;
    },
    async close() {},
  };
  return reader;
}

describe("LineIndex", () => {
  const text = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`).join("\n");

  it("scans only up to the line asked for, then goes on from there", async () => {
    const bytes = encode(`${text}\n`);
    const reader = bufferReader(bytes);
    const index = new LineIndex(bytes.length, { stride: 16 });
    expect(index.reaches(1)).toBe(true);
    await index.extendTo(reader, 100, { chunkBytes: 64 });
    expect(index.lines).toBe(99);
    expect(index.complete).toBe(false);
    expect(reader.bytesRead).toBeLessThan(
      bytes.indexOf(encode("line 101")[0] as number, 0) + 2_000,
    );
    const read = reader.bytesRead;
    expect(decode(bytes.subarray(index.lineStart, index.lineStart + 8))).toBe("line 100");
    // Lines already scanned need no read.
    await index.extendTo(reader, 50, { chunkBytes: 64 });
    expect(reader.bytesRead).toBe(read);
    for (const line of [1, 17, 50, 99, 100]) {
      const { position, skip } = locateLine(index, line);
      const found = (await collect(reader, position, bytes.length, 100, 64))[skip]?.[0];
      expect(found).toBe(`line ${line}`);
    }
    await index.extendTo(reader, 1001, { chunkBytes: 64 });
    expect(index.totalLines).toBe(1000);
    expect(index.complete).toBe(true);
  });

  it("agrees with the full pass on every count, with and without a final newline", async () => {
    for (const sample of ["", "a", "a\n", "a\n\nb", "\n\n\n", `${text}`, `${text}\n`]) {
      const bytes = encode(sample);
      const full = await buildLineIndex(bufferReader(bytes), { stride: 4, chunkBytes: 7 });
      const index = new LineIndex(bytes.length, { stride: 4 });
      for (const line of [2, 3, 10, 400, Number.POSITIVE_INFINITY])
        await index.extendTo(bufferReader(bytes), line, { chunkBytes: 7 });
      expect(index.totalLines, JSON.stringify(sample.slice(0, 10))).toBe(full.totalLines);
      expect(index.checkpoints).toEqual([...full.checkpoints]);
    }
  });

  it("reads ahead while it scans; a failed or aborted scan keeps what it learned", async () => {
    const bytes = encode(`${text}\n`);
    const reader = bufferReader(bytes);
    let reads = 0;
    const failing: FileReader = {
      ...reader,
      readInto(target, position, length) {
        reads += 1;
        if (position >= 4_000) return Promise.reject(new Error("disk gone"));
        return reader.readInto?.(target, position, length) ?? Promise.resolve(0);
      },
    };
    const index = new LineIndex(bytes.length, { stride: 16 });
    await expect(index.extendTo(failing, 900, { chunkBytes: 1_000 })).rejects.toThrow("disk gone");
    expect(index.scanned).toBe(4_000);
    expect(index.complete).toBe(false);
    const { position, skip } = locateLine(index, index.lines + 1);
    expect((await collect(reader, position, bytes.length, 100, 64))[skip]?.[0]).toBe(
      `line ${index.lines + 1}`,
    );
    // The read ahead of a scan that stops early is awaited before the scan returns.
    reads = 0;
    const stopping = new LineIndex(bytes.length);
    await stopping.extendTo(failing, 3, { chunkBytes: 1_000 });
    expect(reads).toBe(2);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      new LineIndex(bytes.length).extendTo(reader, 900, { signal: controller.signal }),
    ).rejects.toThrow("stop");
    await index.extendTo(reader, Number.POSITIVE_INFINITY, { chunkBytes: 1_000 });
    expect(index.totalLines).toBe(1000);
  });

  it("runs concurrent scans one after the other", async () => {
    const bytes = encode(`${text}\n`);
    const index = new LineIndex(bytes.length, { stride: 8 });
    await Promise.all([
      index.extendTo(bufferReader(bytes), 700, { chunkBytes: 32 }),
      index.extendTo(bufferReader(bytes), 300, { chunkBytes: 32 }),
      index.extendTo(bufferReader(bytes), 900, { chunkBytes: 32 }),
    ]);
    const full = await buildLineIndex(bufferReader(bytes), { stride: 8 });
    expect(index.lines).toBe(899);
    expect(index.checkpoints).toEqual([...full.checkpoints].slice(0, index.checkpoints.length));
  });
});

describe("findTailStart", () => {
  it("finds the last lines backwards, across chunks, reading only the end", async () => {
    const bytes = encode(
      `${Array.from({ length: 500 }, (_, index) => `row ${index + 1}`).join("\n")}\n`,
    );
    const reader = bufferReader(bytes);
    const tail = await findTailStart(reader, 0, 3, { chunkBytes: 5 });
    expect(tail).toMatchObject({ lines: 3, reachedStart: false });
    expect(decode(bytes.subarray(tail.position))).toBe("row 498\nrow 499\nrow 500\n");
    expect(reader.bytesRead).toBeLessThan(40);
    // Without a final newline the last line counts the same.
    const open = encode("a\nb\nc");
    const last = await findTailStart(bufferReader(open), 0, 2, { chunkBytes: 2 });
    expect(decode(open.subarray(last.position))).toBe("b\nc");
  });

  it("reaches line 1 when the file has fewer lines, after a BOM too", async () => {
    const bytes = encode("\uFEFFx\ny\n");
    expect(await findTailStart(bufferReader(bytes), 3, 5, { chunkBytes: 4 })).toEqual({
      position: 3,
      lines: 2,
      reachedStart: true,
    });
    // Exactly as many lines as asked: line 1 was reached, so these are all of them.
    expect(await findTailStart(bufferReader(bytes), 3, 2, { chunkBytes: 4 })).toEqual({
      position: 3,
      lines: 2,
      reachedStart: true,
    });
    expect(await findTailStart(bufferReader(bytes), 3, 1, { chunkBytes: 4 })).toEqual({
      position: 5,
      lines: 1,
      reachedStart: false,
    });
    expect(await findTailStart(bufferReader(encode("\uFEFF")), 3, 5)).toMatchObject({
      lines: 0,
      reachedStart: true,
    });
  });
});

describe("buildLineIndex", () => {
  it("counts lines with and without a final newline, and an empty file", async () => {
    expect((await buildLineIndex(memoryReader(encode("")))).totalLines).toBe(0);
    expect((await buildLineIndex(memoryReader(encode("a")))).totalLines).toBe(1);
    expect((await buildLineIndex(memoryReader(encode("a\n")))).totalLines).toBe(1);
    expect((await buildLineIndex(memoryReader(encode("a\n\nb")))).totalLines).toBe(3);
    expect((await buildLineIndex(memoryReader(encode("\uFEFF")), { start: 3 })).totalLines).toBe(0);
  });

  it("records checkpoints every stride lines and doubles the stride past the cap", async () => {
    const text = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`).join("\n");
    const bytes = encode(text);
    const index = await buildLineIndex(memoryReader(bytes), {
      stride: 10,
      maxCheckpoints: 16,
      chunkBytes: 7,
    });
    expect(index.totalLines).toBe(1000);
    expect(index.checkpoints.length).toBeLessThanOrEqual(16);
    expect(index.stride).toBe(80);
    for (let k = 0; k < index.checkpoints.length; k += 1) {
      const position = index.checkpoints[k] as number;
      expect(decode(bytes.subarray(position, position + 12)).split("\n")[0]).toBe(
        `line ${k * index.stride + 1}`,
      );
    }
    for (const line of [1, 79, 80, 81, 500, 1000]) {
      const { position, skip } = locateLine(index, line);
      const lines = await collect(memoryReader(bytes), position, bytes.length, 100, 5);
      expect(lines[skip]?.[0]).toBe(`line ${line}`);
    }
  });

  it("stops on an aborted signal and reports progress", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      buildLineIndex(memoryReader(encode("a\nb\n")), { signal: controller.signal }),
    ).rejects.toThrow("stop");
  });
});

describe("readLines", () => {
  it("splits across chunks and caps long lines while counting their full length", async () => {
    const bytes = encode(`short\n${"x".repeat(50)}\nlast`);
    const lines = await collect(memoryReader(bytes), 0, bytes.length, 10, 4);
    expect(lines).toEqual([
      ["short", 5],
      ["xxxxxxxxxx", 50],
      ["last", 4],
    ]);
    expect(await collect(memoryReader(encode("a\n\n")), 0, 3, 10, 1)).toEqual([
      ["a", 1],
      ["", 0],
    ]);
  });
});

describe("LruCache", () => {
  it("evicts the least recently used entry", () => {
    const cache = new LruCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.size).toBe(2);
    cache.delete("a");
    expect(cache.size).toBe(1);
    const disabled = new LruCache<number>(0);
    disabled.set("a", 1);
    expect(disabled.get("a")).toBeUndefined();
  });

  it("numbers lines cat -n style", () => {
    expect(numberLine(7, "x")).toBe("     7\tx");
  });
});
