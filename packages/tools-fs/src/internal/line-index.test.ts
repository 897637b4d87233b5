import { describe, expect, it } from "vitest";
import type { FileReader } from "../file-system.js";
import { buildLineIndex, LruCache, locateLine, numberLine, readLines } from "./line-index.js";

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
