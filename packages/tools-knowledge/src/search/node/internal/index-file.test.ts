import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  decodeIndex,
  encodeIndex,
  encodeIndexParts,
  INDEX_FORMAT_VERSION,
  IndexFileError,
  type IndexProblem,
  type StoredIndex,
} from "./index-file.js";

const HEADER_BYTES = 40;

function sample(dimension = 3): StoredIndex {
  const vectors = (count: number, seed: number) =>
    Float32Array.from({ length: count * dimension }, (_, index) => seed + index / 8);
  return {
    fingerprint: '{"format":1,"chunk":"default","embedder":null}',
    dimension,
    next_id: 7,
    files: [
      {
        path: "docs/a.md",
        size: 120,
        mtime_ms: 1_700_000_000_123.456,
        sha256: "abc",
        id_base: 0,
        chunks: [
          { start_line: 1, end_line: 4, heading_trail: ["A"] },
          { start_line: 5, end_line: 9, heading_trail: ["A", "B"] },
          { start_line: 10, end_line: 12, heading_trail: ["A"] },
        ],
        missing: [],
        ...(dimension > 0 ? { vectors: vectors(3, 1) } : {}),
      },
      {
        path: "ünïcode/日本.md",
        size: 0,
        mtime_ms: 5,
        sha256: "def",
        id_base: 3,
        chunks: [{ start_line: 2, end_line: 2, heading_trail: [] }],
        missing: dimension > 0 ? [0] : [],
        ...(dimension > 0 ? { vectors: new Float32Array(dimension) } : {}),
      },
      { path: "empty.md", size: 0, mtime_ms: 6, sha256: "e", id_base: 4, chunks: [], missing: [] },
    ],
    lexical: Uint8Array.from([0, 1, 2, 250, 255, 7]),
  };
}

/** Recomputes the checksum after a test edited the bytes behind the header. */
function reseal(buffer: Buffer): Buffer {
  buffer.writeUInt32LE(crc32(buffer.subarray(HEADER_BYTES)), 24);
  return buffer;
}

/** An index file laid out by hand: header, meta, lexical, padding, vectors. */
function handMade(meta: string, vectors: Float32Array = new Float32Array(0)): Buffer {
  const metaBytes = Buffer.from(meta, "utf8");
  const lexical = Buffer.from([1, 2, 3]);
  const unpadded = HEADER_BYTES + metaBytes.length + lexical.length;
  const padding = (4 - (unpadded % 4)) % 4;
  const buffer = Buffer.alloc(unpadded + padding + vectors.byteLength);
  buffer.write("AGTKNIDX", 0, "latin1");
  buffer.writeUInt32LE(INDEX_FORMAT_VERSION, 8);
  buffer.writeUInt32LE(1, 12);
  buffer.writeUInt32LE(metaBytes.length, 16);
  buffer.writeUInt32LE(lexical.length, 20);
  buffer.writeDoubleLE(vectors.byteLength, 32);
  metaBytes.copy(buffer, HEADER_BYTES);
  lexical.copy(buffer, HEADER_BYTES + metaBytes.length);
  Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength).copy(
    buffer,
    unpadded + padding,
  );
  return reseal(buffer);
}

function problemOf(buffer: Buffer): IndexProblem | "none" {
  try {
    decodeIndex(buffer);
    return "none";
  } catch (error) {
    if (error instanceof IndexFileError) return error.problem;
    throw error;
  }
}

const row = (path: string, chunks: number[], trails: string[][]) =>
  [path, 1, 1, "s", 0, [], chunks, trails] as const;

describe("encodeIndex / decodeIndex", () => {
  it("round-trips files, chunk spans, shared trails, missing lists, vectors and the lexical bytes", () => {
    const index = sample();
    const decoded = decodeIndex(encodeIndex(index));
    expect(decoded.fingerprint).toBe(index.fingerprint);
    expect(decoded.dimension).toBe(3);
    expect(decoded.next_id).toBe(7);
    expect(Uint8Array.from(decoded.lexical)).toEqual(index.lexical);
    expect(decoded.files.map(({ vectors, ...rest }) => rest)).toEqual(
      index.files.map(({ vectors, ...rest }) => rest),
    );
    expect(Array.from(decoded.files[0]?.vectors ?? [])).toEqual(
      Array.from(index.files[0]?.vectors ?? []),
    );
    expect(decoded.files[0]?.vectors).toBeInstanceOf(Float32Array);
    expect(decoded.files[1]?.vectors?.length).toBe(3);
    expect(decoded.files[2]?.vectors?.length).toBe(0);
  });

  it("stores vectors as raw float32 after the meta JSON and the lexical bytes, not as JSON numbers", () => {
    const index = sample(64);
    const first = index.files[0] as { vectors: Float32Array };
    first.vectors = Float32Array.from({ length: 3 * 64 }, (_, position) => 0.123456789 + position);
    const buffer = encodeIndex(index);
    const withoutVectors = encodeIndex(sample(0));
    expect(buffer.length - withoutVectors.length).toBeGreaterThanOrEqual(4 * 64 * 4);
    expect(buffer.length - withoutVectors.length).toBeLessThan(4 * 64 * 4 + 64);
    expect(buffer.includes(Buffer.from("0.123456"))).toBe(false);
    expect(buffer.includes(Buffer.from(first.vectors.buffer))).toBe(true);
  });

  it("encodeIndexParts: the same bytes in pieces, each file's vectors a view of its own array (no copy)", () => {
    const index = sample(4);
    const parts = encodeIndexParts(index);
    expect(Buffer.concat(parts)).toEqual(encodeIndex(index));
    const withVectors = index.files.filter((file) => (file.vectors?.length ?? 0) > 0);
    expect(parts).toHaveLength(1 + withVectors.length);
    withVectors.forEach((file, position) => {
      const part = parts[1 + position] as Buffer;
      expect(part.buffer).toBe((file.vectors as Float32Array).buffer);
    });
    // Its checksum covers the vectors: a changed vector after encoding is caught on decode.
    const buffer = Buffer.concat(parts);
    const first = withVectors[0]?.vectors as Float32Array;
    first[0] = 42;
    const changed = Buffer.concat(parts);
    expect(changed).not.toEqual(buffer);
    expect(() => decodeIndex(changed)).toThrow(IndexFileError);
  });

  it("writes zeros for a file whose vectors are absent or of the wrong length", () => {
    const index = sample(2);
    const files = index.files as Array<{ vectors?: Float32Array }>;
    delete files[0]?.vectors;
    (files[1] as { vectors: Float32Array }).vectors = new Float32Array(5).fill(9);
    const decoded = decodeIndex(encodeIndex(index));
    expect(Array.from(decoded.files[0]?.vectors ?? [])).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(decoded.files[1]?.vectors ?? [])).toEqual([0, 0]);
  });

  it("decodes without vectors when the dimension is 0", () => {
    const decoded = decodeIndex(encodeIndex(sample(0)));
    expect(decoded.dimension).toBe(0);
    expect(decoded.files.every((file) => file.vectors === undefined)).toBe(true);
  });

  it("decodes from a buffer that is not 4-byte aligned (copies the vectors)", () => {
    const encoded = encodeIndex(sample());
    const backing = Buffer.alloc(encoded.length + 1);
    encoded.copy(backing, 1);
    const shifted = backing.subarray(1);
    expect(shifted.byteOffset % 4).not.toBe(0);
    const decoded = decodeIndex(shifted);
    expect(Array.from(decoded.files[0]?.vectors ?? [])).toEqual(
      Array.from(sample().files[0]?.vectors ?? []),
    );
  });
});

describe("decodeIndex problems", () => {
  it("not_an_index: empty, short garbage, or another file's magic", () => {
    expect(problemOf(Buffer.alloc(0))).toBe("not_an_index");
    expect(problemOf(Buffer.from("hello"))).toBe("not_an_index");
    expect(problemOf(Buffer.from('{"files":[]}'.repeat(10)))).toBe("not_an_index");
    const other = encodeIndex(sample());
    other.write("NOTANIDX", 0, "latin1");
    expect(problemOf(other)).toBe("not_an_index");
  });

  it("truncated: the magic but less than a header, or fewer bytes than the header says", () => {
    const encoded = encodeIndex(sample());
    expect(problemOf(encoded.subarray(0, 12))).toBe("truncated");
    expect(problemOf(encoded.subarray(0, Math.floor(encoded.length / 2)))).toBe("truncated");
    expect(problemOf(encoded.subarray(0, encoded.length - 1))).toBe("truncated");
  });

  it("old_version: another format version or another byte order", () => {
    const encoded = encodeIndex(sample());
    const older = Buffer.from(encoded);
    older.writeUInt32LE(INDEX_FORMAT_VERSION + 1, 8);
    expect(problemOf(older)).toBe("old_version");
    expect(() => decodeIndex(older)).toThrow(`format version ${INDEX_FORMAT_VERSION + 1}`);
    const swapped = Buffer.from(encoded);
    swapped.writeUInt32LE(swapped.readUInt32LE(12) ^ 1, 12);
    expect(problemOf(swapped)).toBe("old_version");
  });

  it("corrupt: trailing bytes, a flipped byte, unreadable JSON", () => {
    const encoded = encodeIndex(sample());
    expect(problemOf(Buffer.concat([encoded, Buffer.from([0])]))).toBe("corrupt");
    for (const at of [HEADER_BYTES + 3, Math.floor(encoded.length / 2), encoded.length - 1]) {
      const flipped = Buffer.from(encoded);
      flipped[at] = (flipped[at] as number) ^ 0x5a;
      expect(problemOf(flipped)).toBe("corrupt");
    }
    const badJson = Buffer.from(encoded);
    badJson[HEADER_BYTES] = "[".charCodeAt(0) + 1; // "\\" instead of "{"
    expect(problemOf(reseal(badJson))).toBe("corrupt");
  });

  it("corrupt: a meta section, file table or chunk table of the wrong shape", () => {
    const meta = (files: unknown, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ fingerprint: "f", dimension: 0, next_id: 1, files, ...extra });
    expect(problemOf(handMade(meta([])))).toBe("none");
    expect(problemOf(handMade("[1,2]"))).toBe("corrupt");
    expect(problemOf(handMade("null"))).toBe("corrupt");
    expect(problemOf(handMade(meta("not an array")))).toBe("corrupt");
    expect(problemOf(handMade(meta([], { fingerprint: 3 })))).toBe("corrupt");
    expect(problemOf(handMade(meta([["a.md", 1, 1]])))).toBe("corrupt");
    expect(problemOf(handMade(meta(["a.md"])))).toBe("corrupt");
    expect(problemOf(handMade(meta([row("a.md", [1, 2], [[]])])))).toBe("corrupt");
    expect(problemOf(handMade(meta([row("a.md", [1, 2, 5], [[]])])))).toBe("corrupt");
    expect(problemOf(handMade(meta([row("a.md", [1, 2, 0], [["T"]])])))).toBe("none");
    // Right length, wrong types (another writer's table): still an IndexFileError, not a TypeError.
    expect(problemOf(handMade(meta([[7, 1, 1, "s", 0, [], [], []]])))).toBe("corrupt");
    expect(problemOf(handMade(meta([["a.md", 1, 1, "s", 0, [], null, []]])))).toBe("corrupt");
    expect(problemOf(handMade(meta([["a.md", 1, 1, "s", 0, [], [1, 2, 0], null]])))).toBe(
      "corrupt",
    );
    expect(problemOf(handMade(meta([["a.md", 1, 1, "s", 0, null, [], []]])))).toBe("corrupt");
    expect(problemOf(handMade(meta([["a.md", "1", 1, "s", 0, [], [], []]])))).toBe("corrupt");
    expect(problemOf(handMade(meta([["a.md", 1, 1, "s", 0, [], ["1", 2, 0], [[]]]])))).toBe(
      "corrupt",
    );
    expect(problemOf(handMade(meta([["a.md", 1, 1, "s", 0, [], [1, 2, 0], ["T"]]])))).toBe(
      "corrupt",
    );
  });

  it("corrupt: a vector section shorter or longer than the file table needs", () => {
    const meta = JSON.stringify({
      fingerprint: "f",
      dimension: 2,
      next_id: 2,
      files: [row("a.md", [1, 1, 0, 2, 2, 0], [[]])],
    });
    expect(problemOf(handMade(meta, new Float32Array(4)))).toBe("none");
    expect(problemOf(handMade(meta, new Float32Array(2)))).toBe("corrupt");
    expect(problemOf(handMade(meta, new Float32Array(6)))).toBe("corrupt");
  });

  it("never throws anything but IndexFileError on random bytes", () => {
    const encoded = encodeIndex(sample());
    let state = 12345;
    const random = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state;
    };
    for (let round = 0; round < 200; round += 1) {
      const damaged = Buffer.from(encoded);
      const flips = 1 + (random() % 4);
      for (let flip = 0; flip < flips; flip += 1) {
        const at = random() % damaged.length;
        damaged[at] = random() & 0xff;
      }
      const length = round % 3 === 0 ? random() % damaged.length : damaged.length;
      expect(() => problemOf(damaged.subarray(0, length))).not.toThrow();
    }
  });
});

describe("encodeIndex — the meta section", () => {
  it("is JSON.stringify of the file table, also on a second save with files changed and unchanged", () => {
    const index = sample();
    const metaOf = (buffer: Buffer) =>
      buffer.toString("utf8", HEADER_BYTES, HEADER_BYTES + buffer.readUInt32LE(16));
    const expected = (stored: StoredIndex) =>
      JSON.stringify({
        fingerprint: stored.fingerprint,
        dimension: stored.dimension,
        next_id: stored.next_id,
        files: stored.files.map((file) => {
          const trails: string[][] = [];
          const flat: number[] = [];
          for (const chunk of file.chunks) {
            let id = trails.findIndex(
              (trail) => trail.join("\0") === chunk.heading_trail.join("\0"),
            );
            if (id < 0) id = trails.push(chunk.heading_trail) - 1;
            flat.push(chunk.start_line, chunk.end_line, id);
          }
          return [
            file.path,
            file.size,
            file.mtime_ms,
            file.sha256,
            file.id_base,
            file.missing,
            flat,
            trails,
          ];
        }),
      });
    expect(metaOf(encodeIndex(index))).toBe(expected(index));
    // Saved again: one file touched (same chunk table), one changed (a new table), one renamed.
    const [first, second, third] = index.files as [
      StoredIndex["files"][number],
      StoredIndex["files"][number],
      StoredIndex["files"][number],
    ];
    const again: StoredIndex = {
      ...index,
      files: [
        { ...first, mtime_ms: 99.5, missing: [1] },
        { ...second, chunks: [{ start_line: 1, end_line: 30, heading_trail: ["New", "Trail"] }] },
        { ...third, path: 'renamed "quoted".md' },
      ],
    };
    expect(metaOf(encodeIndex(again))).toBe(expected(again));
    expect(decodeIndex(encodeIndex(again)).files[1]?.chunks).toEqual(again.files[1]?.chunks);
  });
});
