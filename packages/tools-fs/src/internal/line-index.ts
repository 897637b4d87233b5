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

/** Default lines between two checkpoints of a {@link LineIndex} (it doubles past the cap). */
export const DEFAULT_LINE_INDEX_STRIDE = 256;

/** Default cap on the checkpoints of one index (memory: 8 bytes each). */
export const DEFAULT_MAX_CHECKPOINTS = 65_536;

/** Default chunk size of a line-counting scan: 1 MiB (two such buffers, reused, whatever the file's size). */
export const DEFAULT_INDEX_CHUNK_BYTES = 1_048_576;

/** Default chunk size when reading a page. */
export const DEFAULT_PAGE_CHUNK_BYTES = 65_536;

/** Options of a {@link LineIndex}. */
export interface LineIndexOptions {
  /** Where line 1 starts (the BOM's length). Default 0. */
  start?: number;
  /** Initial lines between checkpoints. Default {@link DEFAULT_LINE_INDEX_STRIDE}. */
  stride?: number;
  /** Most checkpoints kept (even); the stride doubles past it. Default {@link DEFAULT_MAX_CHECKPOINTS}. */
  maxCheckpoints?: number;
}

/** Options of {@link LineIndex.extendTo}. */
export interface ExtendLineIndexOptions {
  /** Bytes per read. Default {@link DEFAULT_INDEX_CHUNK_BYTES}. */
  chunkBytes?: number;
  /** Stops the pass (throws the signal's reason); what was scanned so far stays in the index. */
  signal?: AbortSignal;
  /** Called about every 64 MiB with bytes done and the total. */
  onProgress?: (completed: number, total: number) => void;
}

/**
 * A sparse line index learned only as far as pages need it: reaching line N scans from where the
 * last scan stopped up to line N's start, never further, recording a checkpoint every `stride`
 * lines. Once a scan reaches the end, `totalLines` is known. Scans of one index run one at a
 * time (a later call waits for the earlier one and goes on from where it stopped).
 *
 * @internal
 */
export class LineIndex {
  /** The file's size in bytes when indexing began. */
  readonly size: number;
  /** Where line 1 starts (after a BOM). */
  readonly start: number;
  /** Lines between two checkpoints (doubles when the checkpoints reach their cap). */
  stride: number;
  /** `checkpoints[k]` is the byte offset where line `k * stride + 1` starts. */
  checkpoints: number[];
  /** Lines whose `\n` has been seen. */
  lines = 0;
  /** Where line `lines + 1` starts. */
  lineStart: number;
  /** Bytes scanned so far (from 0; the scan resumes here). */
  scanned: number;
  /** Lines in the file, once a scan reached the end; `undefined` before. */
  totalLines: number | undefined;
  readonly #maxCheckpoints: number;
  #queue: Promise<void> = Promise.resolve();

  /**
   * @param size - the file's size in bytes
   * @param options - where line 1 starts, the first stride and the checkpoint cap
   */
  constructor(size: number, options: LineIndexOptions = {}) {
    this.size = size;
    this.start = options.start ?? 0;
    this.stride = options.stride ?? DEFAULT_LINE_INDEX_STRIDE;
    this.#maxCheckpoints = Math.max(2, (options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS) & ~1);
    this.checkpoints = [this.start];
    this.lineStart = this.start;
    this.scanned = this.start;
    this.totalLines = this.start >= size ? 0 : undefined;
  }

  /** Whether a scan reached the end (then `totalLines` is exact). */
  get complete(): boolean {
    return this.totalLines !== undefined;
  }

  /** Whether line `line`'s start is known (scanned up to it, or the file has fewer lines). */
  reaches(line: number): boolean {
    return this.complete || line <= this.lines + 1;
  }

  /**
   * Scans on until line `line` starts (its start known) or the file ends; `Infinity` scans to
   * the end. Reads `chunkBytes` at a time into one reused buffer when the reader can.
   */
  extendTo(reader: FileReader, line: number, options: ExtendLineIndexOptions = {}): Promise<void> {
    const run = this.#queue.then(() => this.#scan(reader, line, options));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #scan(reader: FileReader, line: number, options: ExtendLineIndexOptions): Promise<void> {
    const target = line - 1;
    if (this.reaches(line)) return;
    const size = this.size;
    const chunkBytes = options.chunkBytes ?? DEFAULT_INDEX_CHUNK_BYTES;
    // Two buffers, so the next chunk is read while this one is scanned.
    const buffers =
      reader.readInto === undefined
        ? undefined
        : [new Uint8Array(chunkBytes), new Uint8Array(chunkBytes)];
    let turn = 0;
    const fetch = (position: number): Promise<Uint8Array> => {
      const length = Math.min(chunkBytes, size - position);
      if (buffers === undefined || reader.readInto === undefined)
        return reader.read(position, length);
      const into = buffers[turn] as Uint8Array;
      turn ^= 1;
      return reader
        .readInto(into, position, length)
        .then((read) => (read === into.length ? into : into.subarray(0, read)));
    };
    let nextProgress = (Math.floor(this.scanned / 67_108_864) + 1) * 67_108_864;
    let pending: Promise<Uint8Array> | undefined = fetch(this.scanned);
    // A read started ahead and no longer wanted is awaited, so its buffer is free and no
    // rejection goes unhandled.
    const drop = async () => {
      await pending?.catch(() => undefined);
      pending = undefined;
    };
    while (pending !== undefined) {
      if (options.signal?.aborted) {
        await drop();
        throw options.signal.reason ?? new Error("aborted");
      }
      const chunk: Uint8Array = await pending;
      pending = undefined;
      if (chunk.length === 0) break;
      if (this.scanned + chunk.length < size) pending = fetch(this.scanned + chunk.length);
      const base = this.scanned;
      let index = chunk.indexOf(10);
      let stopped = false;
      while (index !== -1) {
        this.lines += 1;
        this.lineStart = base + index + 1;
        if (this.lines % this.stride === 0) {
          this.checkpoints.push(this.lineStart);
          if (this.checkpoints.length > this.#maxCheckpoints) {
            this.checkpoints = this.checkpoints.filter((_, at) => at % 2 === 0);
            this.stride *= 2;
          }
        }
        if (this.lines >= target) {
          stopped = true;
          break;
        }
        index = chunk.indexOf(10, index + 1);
      }
      this.scanned = stopped ? this.lineStart : base + chunk.length;
      if (options.onProgress !== undefined && this.scanned >= nextProgress) {
        options.onProgress(this.scanned, size);
        nextProgress += 67_108_864;
      }
      if (stopped) {
        await drop();
        // The line asked for would start at the end: there is none, and every line is counted.
        if (this.lineStart >= size) this.totalLines = this.lines;
        return;
      }
    }
    this.totalLines = this.lines + (this.lineStart < this.scanned ? 1 : 0);
  }
}

/** Where the last lines of a file start, found by reading backwards from its end. */
export interface TailStart {
  /** The byte offset where the first of those lines starts. */
  position: number;
  /** How many lines start there or later (at most the number asked for). */
  lines: number;
  /** Whether the search reached line 1: then `lines` is every line of the file. */
  reachedStart: boolean;
}

/**
 * Finds where the last `count` lines start by reading backwards from the end in chunks — the
 * tail of a huge file without counting its lines. A final `\n` ends the last line (it does not
 * start an empty one), as in {@link LineIndex}.
 *
 * @internal
 */
export async function findTailStart(
  reader: FileReader,
  start: number,
  count: number,
  options: { chunkBytes?: number; signal?: AbortSignal } = {},
): Promise<TailStart> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_PAGE_CHUNK_BYTES;
  const size = reader.size;
  if (size <= start || count <= 0) return { position: size, lines: 0, reachedStart: size <= start };
  // The newline that ends the last line starts nothing.
  let end = size;
  const last = await reader.read(size - 1, 1);
  if (last[0] === 10) end -= 1;
  let found = 0;
  while (end > start) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    const from = Math.max(start, end - chunkBytes);
    const chunk = await reader.read(from, end - from);
    if (chunk.length === 0) break;
    let index = chunk.lastIndexOf(10);
    while (index !== -1) {
      found += 1;
      if (found === count) return { position: from + index + 1, lines: count, reachedStart: false };
      index = index === 0 ? -1 : chunk.lastIndexOf(10, index - 1);
    }
    end = from;
  }
  return { position: start, lines: found + 1, reachedStart: true };
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
  for await (const batch of readLineBatches(reader, position, end, maxLineBytes, chunkBytes))
    yield* batch;
}

/**
 * {@link readLines} a chunk at a time: one array of the lines each read completed (a page's
 * hundreds of lines cost one await per chunk, not one per line).
 *
 * @internal
 */
export async function* readLineBatches(
  reader: FileReader,
  position: number,
  end: number,
  maxLineBytes: number,
  chunkBytes = DEFAULT_PAGE_CHUNK_BYTES,
): AsyncGenerator<RawLine[]> {
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
    const batch: RawLine[] = [];
    let from = 0;
    let index = chunk.indexOf(10);
    while (index !== -1) {
      take(chunk.subarray(from, index));
      batch.push(finish(true));
      from = index + 1;
      index = chunk.indexOf(10, from);
    }
    if (from < chunk.length) take(chunk.subarray(from));
    at += chunk.length;
    if (batch.length > 0) yield batch;
  }
  if (length > 0 || parts.length > 0) yield [finish(false)];
}

/**
 * Where to start reading to reach a line: the nearest checkpoint at or before it and how many
 * lines to skip from there.
 *
 * @internal
 */
export function locateLine(
  index: { readonly stride: number; readonly checkpoints: ArrayLike<number> },
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
