import type { CodeLanguage } from "../tree-sitter/languages.js";
import type { NameScan } from "./scan-names.js";

/**
 * What `repo_map` remembers about one file between calls, recognised by size + mtime: its lexical
 * scan. (The tree-sitter symbols of the files shown live in the workspace's symbol cache, shared
 * with `find_symbol`: `../symbol-cache.ts`.) No text and no tree is kept.
 * One cache per tool instance, bounded by entries (least recently used evicted) and holding every
 * name once ({@link FileFactsCache.idOf}).
 *
 * @internal
 */

/** A symbol as the map shows it (the engine's record without offsets). */
export interface MapSymbol {
  kind: string;
  name: string;
  qualified_name: string;
  signature: string;
  start_line: number;
  end_line: number;
  parent: string | null;
  depth: number;
}

/** One file's cached facts. */
export interface FileFacts {
  /** Size in bytes when scanned. */
  size: number;
  /** Modification time (ms) when scanned. */
  mtimeMs: number;
  /** The file's identity (device and inode) when scanned, when known. */
  identity?: string;
  /** Its language. */
  language: CodeLanguage;
  /** The lexical scan (definitions, referenced names). */
  scan: NameScan;
}

/** Default most files remembered by one tool instance. */
export const DEFAULT_MAX_CACHED_FILES = 50_000;

/** Past this many distinct names the name table starts over (and the cache with it). */
const MAX_NAMES = 4_000_000;

/** A copy of `text` that holds no reference to the (large) string it was sliced from. */
function flatCopy(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** The per-tool-instance cache of {@link FileFacts}. */
export class FileFactsCache {
  readonly #entries = new Map<string, FileFacts>();
  readonly #ids = new Map<string, number>();
  #names: string[] = [];
  #generation = 0;
  readonly #maxFiles: number;

  /** @param maxFiles - most files remembered (least recently used evicted first) */
  constructor(maxFiles = DEFAULT_MAX_CACHED_FILES) {
    this.#maxFiles = maxFiles;
  }

  /** How many files are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The facts of a file when its size and mtime are unchanged (and marks it recently used).
   *
   * @param path - workspace path
   * @param size - current size in bytes
   * @param mtimeMs - current modification time
   * @param identity - current identity (device and inode), when known
   * @returns the facts, or `undefined` when unknown or stale
   */
  get(path: string, size: number, mtimeMs: number, identity?: string): FileFacts | undefined {
    const entry = this.#entries.get(path);
    if (entry === undefined) return undefined;
    if (entry.size !== size || entry.mtimeMs !== mtimeMs || entry.identity !== identity) {
      this.#entries.delete(path);
      return undefined;
    }
    this.#entries.delete(path);
    this.#entries.set(path, entry);
    return entry;
  }

  /**
   * Remembers a file's facts, evicting the least recently used past the bound.
   *
   * @param path - workspace path
   * @param facts - what was found
   */
  set(path: string, facts: FileFacts): void {
    this.#entries.delete(path);
    this.#entries.set(path, facts);
    while (this.#entries.size > this.#maxFiles) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Changes whenever the name table starts over (ids of earlier scans mean nothing then). */
  get generation(): number {
    return this.#generation;
  }

  /** How many names the name table holds (ids are below this). */
  get nameCount(): number {
    return this.#names.length;
  }

  /**
   * The id of a name, added to the table when new (stored as a flat copy: a sliced string would
   * keep a whole file's text alive). Call {@link FileFactsCache.makeRoom} before a batch.
   *
   * @param name - a name sliced from a file's text
   * @returns its id
   */
  readonly idOf = (name: string): number => {
    const known = this.#ids.get(name);
    if (known !== undefined) return known;
    const copy = flatCopy(name);
    const id = this.#names.length;
    this.#names.push(copy);
    this.#ids.set(copy, id);
    return id;
  };

  /**
   * The name of an id.
   *
   * @param id - a name id
   * @returns the name, or `""` for an unknown id
   */
  nameOf(id: number): string {
    return this.#names[id] ?? "";
  }

  /**
   * The id of a name when the table has it.
   *
   * @param name - a name
   * @returns its id, or `undefined`
   */
  knownId(name: string): number | undefined {
    return this.#ids.get(name);
  }

  /** Starts over (names and files) when the name table is past its bound; call between batches. */
  makeRoom(): void {
    if (this.#names.length < MAX_NAMES) return;
    this.#ids.clear();
    this.#names = [];
    this.#entries.clear();
    this.#generation += 1;
  }
}
