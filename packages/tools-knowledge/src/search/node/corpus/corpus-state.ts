import type { LexicalDocument, LexicalIndex } from "../../../engine/lexical-index.js";
import { createLexicalIndex } from "../../../engine/lexical-index.js";
import type { ChunkedDocument } from "../../../engine/types.js";
import type { StoredChunk } from "../internal/index-file.js";
import type { LexicalBuild } from "../internal/lexical-build.js";
import { buildScanMatrix, type ScanMatrix, vectorNorms } from "./dense-scan.js";

/** One indexed file in memory. */
export interface FileEntry {
  path: string;
  size: number;
  mtime_ms: number;
  sha256: string;
  /** Chunk `c` of the file has the id `id_base + c`. */
  id_base: number;
  chunks: StoredChunk[];
  /** Chunk indexes without a vector. */
  missing: Set<number>;
  /** `chunks.length × dimension` floats, row `c` chunk `c`'s vector; `undefined` before any. */
  vectors: Float32Array | undefined;
}

/** Where a chunk id points: its file and its index there. */
export interface ChunkReference {
  file: FileEntry;
  index: number;
}

/** A file read once and found binary (not read again while its size and time stay). */
export interface SkippedFile {
  size: number;
  mtime_ms: number;
}

/** Words of a file's name, searched as part of its first chunk's heading. */
function fileTitle(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return (dot > 0 ? name.slice(0, dot) : name).replace(/[-_.]+/g, " ");
}

/**
 * The index of one corpus in memory: its files, their chunks (by id), the BM25 index and the
 * vectors. Every change to the files or their vectors goes through {@link CorpusState.changed},
 * which moves the generation on: the caches derived from the vectors (the scan matrix, whether
 * any vector is missing, each file's norms) are rebuilt when they are asked for next.
 */
export class CorpusState {
  /** What the index was built with (format, chunk size, embedder). */
  readonly fingerprint: string;
  /** Vector length; 0 before the first vector. */
  dimension = 0;
  /** The id the next chunk gets. */
  nextId = 0;
  /** Indexed files by path. */
  readonly files = new Map<string, FileEntry>();
  /** Files read once and found binary, by path. */
  readonly skipped = new Map<string, SkippedFile>();
  /** Every chunk by id. */
  readonly chunks = new Map<number, ChunkReference>();
  /** The BM25 index. */
  lexical: LexicalIndex;
  /** The BM25 build of a running refresh while it is on a worker: chunks go there meanwhile. */
  build: LexicalBuild | undefined;
  #generation = 0;
  #matrix: ScanMatrix | undefined;
  #missingAt = -1;
  #missing = false;
  #norms = new WeakMap<Float32Array, Float32Array>();

  /**
   * @param fingerprint - what the index is built with
   * @param lexical - the BM25 index (default: an empty one)
   */
  constructor(fingerprint: string, lexical: LexicalIndex = createLexicalIndex()) {
    this.fingerprint = fingerprint;
    this.lexical = lexical;
  }

  /** Chunks in the index. */
  get chunkCount(): number {
    return this.chunks.size;
  }

  /** Moves on after a change to the files or their vectors; `vectors` were written in place. */
  changed(vectors?: Float32Array): void {
    this.#generation += 1;
    if (vectors !== undefined) this.#norms.delete(vectors);
  }

  /**
   * Adds a file and its chunks (to the BM25 index or the running build).
   *
   * @param entry - the file, its `id_base` set
   * @param document - its chunks' texts
   */
  addFile(entry: FileEntry, document: ChunkedDocument): void {
    this.changed();
    const documents: LexicalDocument[] = [];
    const title = fileTitle(entry.path);
    for (const [index, chunk] of document.chunks.entries()) {
      const trail = chunk.heading_trail.join(" ");
      documents.push({
        id: String(entry.id_base + index),
        heading: index === 0 ? `${title} ${trail}`.trim() : trail,
        text: chunk.text,
        front_matter: index === 0 ? document.front_matter : "",
      });
      this.chunks.set(entry.id_base + index, { file: entry, index });
    }
    if (documents.length > 0) (this.build ?? this.lexical).add(documents);
    this.files.set(entry.path, entry);
  }

  /**
   * Adds a file read from the sidecar (its chunks are in the BM25 index already).
   *
   * @param entry - the file
   */
  restoreFile(entry: FileEntry): void {
    this.files.set(entry.path, entry);
    for (let index = 0; index < entry.chunks.length; index += 1) {
      this.chunks.set(entry.id_base + index, { file: entry, index });
    }
  }

  /**
   * Removes a file and its chunks.
   *
   * @param entry - the file
   */
  removeFile(entry: FileEntry): void {
    this.changed();
    const ids: string[] = [];
    for (let index = 0; index < entry.chunks.length; index += 1) {
      ids.push(String(entry.id_base + index));
      this.chunks.delete(entry.id_base + index);
    }
    if (ids.length > 0) (this.build ?? this.lexical).remove(ids);
    this.files.delete(entry.path);
  }

  /** Drops every vector (the embedder's vectors changed length): every chunk is embedded again. */
  resetVectors(): void {
    this.changed();
    this.dimension = 0;
    for (const entry of this.files.values()) {
      entry.vectors = undefined;
      entry.missing = new Set(entry.chunks.keys());
    }
  }

  /** Chunks without a vector, in every file. */
  pendingEmbeddings(): number {
    let count = 0;
    for (const entry of this.files.values()) count += entry.missing.size;
    return count;
  }

  /** Whether any chunk has no vector (remembered until the next change). */
  hasMissingVectors(): boolean {
    if (this.#missingAt === this.#generation) return this.#missing;
    let missing = false;
    for (const entry of this.files.values()) {
      if (entry.missing.size > 0) {
        missing = true;
        break;
      }
    }
    this.#missing = missing;
    this.#missingAt = this.#generation;
    return missing;
  }

  /** Whether the scan matrix holds the vectors as they are now. */
  hasFreshMatrix(): boolean {
    return this.#matrix !== undefined && this.#matrix.generation === this.#generation;
  }

  /** Every embedded chunk's unit vector in one array (built again after a change). */
  scanMatrix(): ScanMatrix {
    if (this.#matrix === undefined || this.#matrix.generation !== this.#generation) {
      this.#matrix = buildScanMatrix(this.files.values(), this.dimension, this.#generation);
    }
    return this.#matrix;
  }

  /**
   * Per-chunk norms of a file's vectors, remembered until the array changes.
   *
   * @param vectors - a file's vectors
   * @returns one norm per chunk
   */
  normsOf(vectors: Float32Array): Float32Array {
    let found = this.#norms.get(vectors);
    if (found === undefined) {
      found = vectorNorms(vectors, this.dimension);
      this.#norms.set(vectors, found);
    }
    return found;
  }
}
