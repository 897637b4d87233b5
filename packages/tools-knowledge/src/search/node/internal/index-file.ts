import { endianness } from "node:os";
import { crc32 } from "node:zlib";

/**
 * The sidecar's format version. Bump it when the layout or the meaning of a field changes: an
 * index with another version is rebuilt (with a warning), never misread.
 */
export const INDEX_FORMAT_VERSION = 2;

/** The first 8 bytes of every index file. */
const MAGIC = Buffer.from("AGTKNIDX", "latin1");

/** magic (8) + version, flags, meta length, lexical length, crc32, reserved (6 × u32) + vectors length (f64). */
const HEADER_BYTES = 8 + 6 * 4 + 8;

const LITTLE_ENDIAN_FLAG = 1;

/** One chunk as the sidecar keeps it: where it is (its text stays in the file). */
export interface StoredChunk {
  /** First line, 1-based. */
  start_line: number;
  /** Last line, 1-based, inclusive. */
  end_line: number;
  /** Headings it sits under, outermost first. */
  heading_trail: string[];
}

/** One indexed file. */
export interface StoredFile {
  /** Path relative to the root, `/`-separated. */
  path: string;
  /** Size in bytes when indexed. */
  size: number;
  /** Modification time in ms when indexed. */
  mtime_ms: number;
  /** sha-256 of the bytes, base64url. */
  sha256: string;
  /** Lexical id of the first chunk; chunk `i` has id `id_base + i`. */
  id_base: number;
  /** The chunks, in document order. */
  chunks: StoredChunk[];
  /** Chunk indexes that have no vector yet (their embedding failed or has not run). */
  missing: number[];
  /** `chunks.length × dimension` floats, chunk after chunk (zeros where missing); absent without vectors. */
  vectors?: Float32Array;
}

/** Everything the sidecar holds. */
export interface StoredIndex {
  /** What built it (chunk size, embedder); another fingerprint means a clean re-index. */
  fingerprint: string;
  /** Length of every vector (0 when nothing is embedded). */
  dimension: number;
  /** The next free lexical id. */
  next_id: number;
  /** The files, in any order. */
  files: StoredFile[];
  /** The lexical index's own snapshot (`LexicalIndex.toBytes`). */
  lexical: Uint8Array;
}

/** Why an index file could not be read. */
export type IndexProblem = "not_an_index" | "old_version" | "truncated" | "corrupt";

/** Thrown by {@link decodeIndex}: the file must be rebuilt. */
export class IndexFileError extends Error {
  /** What is wrong with it. */
  readonly problem: IndexProblem;

  /**
   * @param problem - what is wrong
   * @param message - the details
   */
  constructor(problem: IndexProblem, message: string) {
    super(message);
    this.name = "IndexFileError";
    this.problem = problem;
  }
}

type FileRow = [
  path: string,
  size: number,
  mtime_ms: number,
  sha256: string,
  id_base: number,
  missing: number[],
  chunks: number[],
  trails: string[][],
];

/**
 * A file's chunk table as its row in the meta JSON writes it (`[start, end, trail, …],[[trail], …]`),
 * by chunk table: a save re-encodes only the files whose chunks are new (a changed file gets a
 * new table; tables are never changed in place).
 */
const encodedChunkTables = new WeakMap<readonly StoredChunk[], string>();

function encodeChunkTable(chunks: readonly StoredChunk[]): string {
  let encoded = encodedChunkTables.get(chunks);
  if (encoded !== undefined) return encoded;
  const trails: string[][] = [];
  const trailIds = new Map<string, number>();
  const flat: number[] = [];
  for (const chunk of chunks) {
    const key = chunk.heading_trail.join("\u0000");
    let id = trailIds.get(key);
    if (id === undefined) {
      id = trails.length;
      trails.push(chunk.heading_trail);
      trailIds.set(key, id);
    }
    flat.push(chunk.start_line, chunk.end_line, id);
  }
  encoded = `${JSON.stringify(flat)},${JSON.stringify(trails)}`;
  encodedChunkTables.set(chunks, encoded);
  return encoded;
}

/**
 * Writes the index as one buffer: a fixed header (magic, version, byte order, section lengths,
 * a CRC-32 of everything after it), the meta JSON (files and chunk spans, heading trails
 * de-duplicated per file), the lexical snapshot's bytes, then every vector as raw float32 (4-byte aligned).
 * The meta JSON is what `JSON.stringify` gives for `{ fingerprint, dimension, next_id, files }`
 * with one array row per file, put together from each file's chunk table encoded once (kept by
 * table, so `chunks` arrays must not be changed in place once saved).
 *
 * @internal
 */
export function encodeIndex(index: StoredIndex): Buffer {
  return Buffer.concat(encodeIndexParts(index));
}

/** Zeros for the vectors of a file that has none (shared, never written to). */
let zeros = Buffer.alloc(0);

/**
 * {@link encodeIndex} as the pieces of the file, in order: the header, meta and lexical sections
 * in one buffer, then each file's vectors as a view of its own `Float32Array` — no copy of the
 * vectors (most of the file) and no fresh buffer to fault in, for a vectored write. The views
 * share memory with the index: the vectors must not change until the pieces are written.
 *
 * @internal
 */
export function encodeIndexParts(index: StoredIndex): Buffer[] {
  const dimension = index.dimension;
  const rows: string[] = new Array(index.files.length);
  let floats = 0;
  index.files.forEach((file, position) => {
    rows[position] =
      `[${JSON.stringify(file.path)},${JSON.stringify(file.size)},${JSON.stringify(file.mtime_ms)},${JSON.stringify(file.sha256)},${JSON.stringify(file.id_base)},${JSON.stringify(file.missing)},${encodeChunkTable(file.chunks)}]`;
    if (dimension > 0) floats += file.chunks.length * dimension;
  });
  const meta = Buffer.from(
    `{"fingerprint":${JSON.stringify(index.fingerprint)},"dimension":${JSON.stringify(dimension)},"next_id":${JSON.stringify(index.next_id)},"files":[${rows.join(",")}]}`,
    "utf8",
  );
  const lexical = index.lexical;
  const unpadded = HEADER_BYTES + meta.length + lexical.length;
  const padding = (4 - (unpadded % 4)) % 4;
  const vectorBytes = floats * 4;
  const head = Buffer.allocUnsafe(unpadded + padding);
  MAGIC.copy(head, 0);
  let offset = HEADER_BYTES;
  meta.copy(head, offset);
  offset += meta.length;
  head.set(lexical, offset);
  offset += lexical.length;
  head.fill(0, offset, offset + padding);
  const parts: Buffer[] = [head];
  let checksum = crc32(head.subarray(HEADER_BYTES));
  if (dimension > 0) {
    for (const file of index.files) {
      const length = file.chunks.length * dimension;
      if (length === 0) continue;
      let part: Buffer;
      if (file.vectors !== undefined && file.vectors.length === length)
        part = Buffer.from(file.vectors.buffer, file.vectors.byteOffset, length * 4);
      else {
        if (zeros.length < length * 4) zeros = Buffer.alloc(length * 4);
        part = zeros.subarray(0, length * 4);
      }
      checksum = crc32(part, checksum);
      parts.push(part);
    }
  }
  head.writeUInt32LE(INDEX_FORMAT_VERSION, 8);
  head.writeUInt32LE(endianness() === "LE" ? LITTLE_ENDIAN_FLAG : 0, 12);
  head.writeUInt32LE(meta.length, 16);
  head.writeUInt32LE(lexical.length, 20);
  head.writeUInt32LE(0, 28);
  head.writeDoubleLE(vectorBytes, 32);
  head.writeUInt32LE(checksum, 24);
  return parts;
}

/**
 * Reads an index written by {@link encodeIndex}. Vectors are views into `buffer` when it is
 * 4-byte aligned (no copy), copies otherwise.
 *
 * @throws IndexFileError when the file is not an index, has another version, is truncated or
 *   fails its checksum
 * @internal
 */
export function decodeIndex(buffer: Buffer): StoredIndex {
  if (buffer.length < HEADER_BYTES) {
    if (buffer.length >= 8 && buffer.subarray(0, 8).equals(MAGIC)) {
      throw new IndexFileError("truncated", `the index file is truncated (${buffer.length} bytes)`);
    }
    throw new IndexFileError("not_an_index", "the index file is not an agentool knowledge index");
  }
  if (!buffer.subarray(0, 8).equals(MAGIC)) {
    throw new IndexFileError("not_an_index", "the index file is not an agentool knowledge index");
  }
  const version = buffer.readUInt32LE(8);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new IndexFileError(
      "old_version",
      `the index file has format version ${version}, this version reads ${INDEX_FORMAT_VERSION}`,
    );
  }
  const flags = buffer.readUInt32LE(12);
  if (((flags & LITTLE_ENDIAN_FLAG) !== 0) !== (endianness() === "LE")) {
    throw new IndexFileError("old_version", "the index file was written with another byte order");
  }
  const metaLength = buffer.readUInt32LE(16);
  const lexicalLength = buffer.readUInt32LE(20);
  const checksum = buffer.readUInt32LE(24);
  const vectorBytes = buffer.readDoubleLE(32);
  const unpadded = HEADER_BYTES + metaLength + lexicalLength;
  const padding = (4 - (unpadded % 4)) % 4;
  const expected = unpadded + padding + vectorBytes;
  if (buffer.length !== expected) {
    throw new IndexFileError(
      buffer.length < expected ? "truncated" : "corrupt",
      buffer.length < expected
        ? `the index file is truncated (${buffer.length} bytes, its header says ${expected})`
        : `the index file has ${buffer.length} bytes, its header says ${expected}`,
    );
  }
  if (crc32(buffer.subarray(HEADER_BYTES)) !== checksum) {
    throw new IndexFileError("corrupt", "the index file fails its checksum");
  }
  let meta: { fingerprint: string; dimension: number; next_id: number; files: FileRow[] };
  const lexical = buffer.subarray(HEADER_BYTES + metaLength, unpadded);
  try {
    meta = JSON.parse(buffer.toString("utf8", HEADER_BYTES, HEADER_BYTES + metaLength));
  } catch (error) {
    throw new IndexFileError(
      "corrupt",
      `the index file's JSON is unreadable: ${(error as Error).message}`,
    );
  }
  if (
    typeof meta !== "object" ||
    meta === null ||
    typeof meta.fingerprint !== "string" ||
    typeof meta.dimension !== "number" ||
    typeof meta.next_id !== "number" ||
    !Array.isArray(meta.files)
  ) {
    throw new IndexFileError("corrupt", "the index file's meta section has the wrong shape");
  }
  const dimension = meta.dimension;
  const vectorOffset = unpadded + padding;
  const floats = vectorBytes / 4;
  let all: Float32Array | undefined;
  if (dimension > 0 && floats > 0) {
    all =
      (buffer.byteOffset + vectorOffset) % 4 === 0
        ? new Float32Array(buffer.buffer, buffer.byteOffset + vectorOffset, floats)
        : new Float32Array(
            buffer.buffer.slice(buffer.byteOffset + vectorOffset, buffer.byteOffset + expected),
          );
  }
  const files: StoredFile[] = [];
  let at = 0;
  for (const row of meta.files) {
    if (!Array.isArray(row) || row.length !== 8) {
      throw new IndexFileError("corrupt", "the index file's file table has the wrong shape");
    }
    const [path, size, mtime_ms, sha256, id_base, missing, flat, trails] = row;
    if (
      typeof path !== "string" ||
      typeof size !== "number" ||
      typeof mtime_ms !== "number" ||
      typeof sha256 !== "string" ||
      typeof id_base !== "number" ||
      !Array.isArray(missing) ||
      !Array.isArray(flat) ||
      !Array.isArray(trails) ||
      !flat.every((value) => typeof value === "number")
    ) {
      throw new IndexFileError("corrupt", "the index file's file table has the wrong types");
    }
    if (flat.length % 3 !== 0)
      throw new IndexFileError("corrupt", "a chunk table has the wrong length");
    const chunks: StoredChunk[] = [];
    for (let index = 0; index < flat.length; index += 3) {
      const trail = trails[flat[index + 2] as number];
      if (!Array.isArray(trail))
        throw new IndexFileError("corrupt", "a chunk names a missing heading trail");
      chunks.push({
        start_line: flat[index] as number,
        end_line: flat[index + 1] as number,
        heading_trail: trail,
      });
    }
    const file: StoredFile = { path, size, mtime_ms, sha256, id_base, chunks, missing };
    if (all !== undefined) {
      const length = chunks.length * dimension;
      if (at + length > all.length)
        throw new IndexFileError("corrupt", "the vector section is too short");
      file.vectors = all.subarray(at, at + length);
      at += length;
    }
    files.push(file);
  }
  if (all !== undefined && at !== all.length) {
    throw new IndexFileError("corrupt", "the vector section does not match the file table");
  }
  return { fingerprint: meta.fingerprint, dimension, next_id: meta.next_id, files, lexical };
}
