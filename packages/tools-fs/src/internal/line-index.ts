/**
 * Paging huge files without reading them whole: one streamed pass counts the lines and keeps a
 * **sparse line index** (the byte offset of every `stride`-th line); a page is then read from the
 * nearest checkpoint with ranged reads. Indexes are cached in a small LRU keyed by the file's
 * real path, size, modification time and identity, so later pages of an unchanged file need no
 * rescan.
 *
 * @internal
 */

import type { FileReader } from "../file-system.js";

/** Default lines between two checkpoints of a {@link SparseLineIndex} (it doubles past the cap). */
export const DEFAULT_LINE_INDEX_STRIDE = 256;

/** Default cap on the checkpoints of one index (memory: 8 bytes each). */
export const DEFAULT_MAX_CHECKPOINTS = 65_536;

/** Default chunk size of the indexing pass (256 KiB: smaller chunks keep the garbage, so peak RSS, low). */
export const DEFAULT_INDEX_CHUNK_BYTES = 262_144;

/** Default chunk size when reading a page. */
export const DEFAULT_PAGE_CHUNK_BYTES = 65_536;

/** The line structure of a file, learned in one streamed pass. */
export interface SparseLineIndex {
  /** The file's size in bytes when indexed. */
  readonly size: number;
  /** Where line 1 starts (after a BOM). */
  readonly start: number;
  /** Lines in the file (a last line without `\n` counts; an empty file has 0). */
  readonly totalLines: number;
  /** Lines between two checkpoints. */
  readonly stride: number;
  /** `checkpoints[k]` is the byte offset where line `k * stride + 1` starts. */
  readonly checkpoints: Float64Array;
}

/** Options of {@link buildLineIndex}. */
export interface BuildLineIndexOptions {
  /** Where line 1 starts (the BOM's length). Default 0. */
  start?: number;
  /** Initial lines between checkpoints. Default {@link DEFAULT_LINE_INDEX_STRIDE}. */
  stride?: number;
  /** Most checkpoints kept (even); the stride doubles past it. Default {@link DEFAULT_MAX_CHECKPOINTS}. */
  maxCheckpoints?: number;
  /** Bytes per read. Default {@link DEFAULT_INDEX_CHUNK_BYTES}. */
  chunkBytes?: number;
  /** Stops the pass (throws the signal's reason). */
  signal?: AbortSignal;
  /** Called about every 64 MiB with bytes done and the total. */
  onProgress?: (completed: number, total: number) => void;
}

/**
 * Reads the file once, in chunks, counting `\n` bytes and recording checkpoints. Memory stays at
 * one chunk plus the checkpoints, whatever the file's size.
 *
 * @internal
 */
export async function buildLineIndex(
  reader: FileReader,
  options: BuildLineIndexOptions = {},
): Promise<SparseLineIndex> {
  const size = reader.size;
  const start = options.start ?? 0;
  let stride = options.stride ?? DEFAULT_LINE_INDEX_STRIDE;
  const maxCheckpoints = Math.max(2, (options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS) & ~1);
  const chunkBytes = options.chunkBytes ?? DEFAULT_INDEX_CHUNK_BYTES;
  let checkpoints: number[] = [start];
  let newlines = 0;
  let position = start;
  let lastByte = -1;
  let nextProgress = 64 * 1_048_576;
  while (position < size) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    const chunk = await reader.read(position, Math.min(chunkBytes, size - position));
    if (chunk.length === 0) break;
    let index = chunk.indexOf(10);
    while (index !== -1) {
      newlines += 1;
      if (newlines % stride === 0) {
        checkpoints.push(position + index + 1);
        if (checkpoints.length > maxCheckpoints) {
          checkpoints = checkpoints.filter((_, at) => at % 2 === 0);
          stride *= 2;
        }
      }
      index = chunk.indexOf(10, index + 1);
    }
    lastByte = chunk[chunk.length - 1] as number;
    position += chunk.length;
    if (options.onProgress !== undefined && position >= nextProgress) {
      options.onProgress(position, size);
      nextProgress += 64 * 1_048_576;
    }
  }
  const totalLines = position === start ? 0 : newlines + (lastByte === 10 ? 0 : 1);
  return { size: position, start, totalLines, stride, checkpoints: Float64Array.from(checkpoints) };
}

/** One line read from a file: its bytes (without `\n`), cut at a cap, and its full length. */
export interface RawLine {
  /** The line's bytes without the `\n`, at most the cap. */
  bytes: Uint8Array;
  /** The line's full length in bytes (without the `\n`). */
  byteLength: number;
  /** Whether a `\n` ended the line (false only for a last line without one). */
  newline: boolean;
}

/**
 * Yields the lines starting at byte `position`, reading `chunkBytes` at a time and keeping at
 * most `maxLineBytes` of each line (the rest is skipped, only counted).
 *
 * @internal
 */
export async function* readLines(
  reader: FileReader,
  position: number,
  end: number,
  maxLineBytes: number,
  chunkBytes = DEFAULT_PAGE_CHUNK_BYTES,
): AsyncGenerator<RawLine> {
  let parts: Uint8Array[] = [];
  let kept = 0;
  let length = 0;
  let at = position;
  const take = (slice: Uint8Array) => {
    length += slice.length;
    if (kept < maxLineBytes) {
      const piece = slice.subarray(0, maxLineBytes - kept);
      // Copy: the reader may reuse its buffer.
      parts.push(piece.slice());
      kept += piece.length;
    }
  };
  const finish = (newline: boolean): RawLine => {
    let bytes: Uint8Array;
    if (parts.length === 1) bytes = parts[0] as Uint8Array;
    else {
      bytes = new Uint8Array(kept);
      let offset = 0;
      for (const part of parts) {
        bytes.set(part, offset);
        offset += part.length;
      }
    }
    const line = { bytes, byteLength: length, newline };
    parts = [];
    kept = 0;
    length = 0;
    return line;
  };
  while (at < end) {
    const chunk = await reader.read(at, Math.min(chunkBytes, end - at));
    if (chunk.length === 0) break;
    let from = 0;
    let index = chunk.indexOf(10);
    while (index !== -1) {
      take(chunk.subarray(from, index));
      yield finish(true);
      from = index + 1;
      index = chunk.indexOf(10, from);
    }
    if (from < chunk.length) take(chunk.subarray(from));
    at += chunk.length;
  }
  if (length > 0 || parts.length > 0) yield finish(false);
}

/**
 * Where to start reading to reach a line: the nearest checkpoint at or before it and how many
 * lines to skip from there.
 *
 * @internal
 */
export function locateLine(
  index: SparseLineIndex,
  line: number,
): { position: number; skip: number } {
  const checkpoint = Math.min(Math.floor((line - 1) / index.stride), index.checkpoints.length - 1);
  return {
    position: index.checkpoints[checkpoint] as number,
    skip: line - 1 - checkpoint * index.stride,
  };
}

/**
 * A bounded least-recently-used cache (a `Map` in use order).
 *
 * @internal
 */
export class LruCache<Value> {
  readonly #entries = new Map<string, Value>();
  readonly #capacity: number;

  /** @param capacity - most entries kept (0 disables the cache) */
  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The value for `key`, marked as most recently used. */
  get(key: string): Value | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Stores a value, evicting the least recently used entries past the capacity. */
  set(key: string, value: Value): void {
    if (this.#capacity <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** Removes an entry. */
  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Formats one line `cat -n` style: the number right-aligned in six columns, a tab, the line.
 *
 * @internal
 */
export function numberLine(line: number, text: string): string {
  return `${String(line).padStart(6)}\t${text}`;
}
