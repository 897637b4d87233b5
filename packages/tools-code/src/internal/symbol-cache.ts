import type { Workspace } from "@agentool/tools-fs";
import type { ExtractionMethod } from "./tree-sitter/extract-symbols.js";
import type { CodeSymbol } from "./tree-sitter/symbol.js";

/**
 * The tree-sitter symbols of files already parsed, shared by every code tool of one workspace
 * (`find_symbol` and `repo_map` made by `createCodeTools` use one cache, not a copy each), and
 * recognised by size + mtime + identity (inode): a file is parsed once per version. Bounded by
 * entries and by an estimate of the bytes held (least recently used evicted first). No text and no
 * tree is kept, and every string is a flat copy (a name sliced from a file's text would keep the
 * whole text alive).
 *
 * A file changed in the last {@link SETTLE_MS} is not remembered: its mtime has the kernel's
 * coarse clock granularity, so a rewrite of the same size in the same tick would keep the stamp
 * (git's "racy" rule). Such a file is parsed again on the next call, until it settles.
 *
 * @internal
 */

/** What tells one version of a file from another. */
export interface FileStamp {
  /** Size in bytes. */
  size: number;
  /** Modification time, ms. */
  mtimeMs: number;
  /** The file's identity (device and inode), when the file system has one. */
  identity?: string;
}

/** The symbols of one file version. */
export interface FileSymbols {
  /** The symbols, in document order. */
  readonly symbols: readonly CodeSymbol[];
  /** `heuristic` when not from a grammar (too large, parse timeout, grammar unavailable). */
  readonly method: ExtractionMethod;
}

/** Default most files one cache remembers. */
export const DEFAULT_SYMBOL_CACHE_FILES = 50_000;

/** Default most bytes (estimated) one cache holds: 64 MiB. */
export const DEFAULT_SYMBOL_CACHE_BYTES = 64 * 1024 * 1024;

/** A file modified this recently (ms) is not remembered (see the module comment). */
export const SETTLE_MS = 2_000;

interface Entry {
  stamp: string;
  value: FileSymbols;
  bytes: number;
}

function stampKey(stamp: FileStamp): string {
  return `${stamp.size}:${stamp.mtimeMs}:${stamp.identity ?? ""}`;
}

/** Bytes a symbol list holds, roughly: the strings (UTF-16) and each record's overhead. */
function estimateBytes(path: string, symbols: readonly CodeSymbol[]): number {
  let bytes = 200 + path.length * 2;
  for (const symbol of symbols) {
    bytes +=
      120 +
      2 *
        (symbol.name.length +
          symbol.qualified_name.length +
          symbol.signature.length +
          (symbol.parent?.length ?? 0));
  }
  return bytes;
}

/** See the module comment. */
export class SymbolCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxFiles: number;
  readonly #maxBytes: number;
  #bytes = 0;

  /**
   * @param maxFiles - most files remembered
   * @param maxBytes - most bytes (estimated) held
   */
  constructor(maxFiles = DEFAULT_SYMBOL_CACHE_FILES, maxBytes = DEFAULT_SYMBOL_CACHE_BYTES) {
    this.#maxFiles = maxFiles;
    this.#maxBytes = maxBytes;
  }

  /** How many files are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  /** The bytes held, estimated. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The symbols of a file when its stamp is unchanged (and marks it recently used).
   *
   * @param path - workspace path
   * @param stamp - its current size, mtime and identity
   * @returns the symbols, or `undefined` when unknown or stale
   */
  get(path: string, stamp: FileStamp): FileSymbols | undefined {
    const entry = this.#entries.get(path);
    if (entry === undefined) return undefined;
    this.#remove(path, entry);
    if (entry.stamp !== stampKey(stamp)) return undefined;
    this.#entries.set(path, entry);
    this.#bytes += entry.bytes;
    return entry.value;
  }

  /**
   * Remembers a file's symbols (flat copies), unless the file changed too recently to trust its
   * stamp; evicts the least recently used past the bounds.
   *
   * @param path - workspace path
   * @param stamp - the stamp read before the file was read
   * @param value - the symbols found
   * @param now - the current time (ms since the epoch)
   * @returns the value to use (the flat copy when remembered)
   */
  set(path: string, stamp: FileStamp, value: FileSymbols, now = Date.now()): FileSymbols {
    const previous = this.#entries.get(path);
    if (previous !== undefined) this.#remove(path, previous);
    if (now - stamp.mtimeMs < SETTLE_MS) return value;
    const copy: FileSymbols = {
      symbols: JSON.parse(JSON.stringify(value.symbols)) as CodeSymbol[],
      method: value.method,
    };
    const bytes = estimateBytes(path, copy.symbols);
    if (bytes > this.#maxBytes) return copy;
    this.#entries.set(path, { stamp: stampKey(stamp), value: copy, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.#maxFiles || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.entries().next().value;
      if (oldest === undefined) break;
      this.#remove(oldest[0], oldest[1]);
    }
    return copy;
  }

  #remove(path: string, entry: Entry): void {
    this.#entries.delete(path);
    this.#bytes -= entry.bytes;
  }
}

const caches = new WeakMap<Workspace, SymbolCache>();

/**
 * The symbol cache of a workspace, made on first use: every tool built on the same workspace
 * object shares it (and it goes when the workspace does).
 *
 * @param workspace - the tools' workspace
 * @returns its cache
 */
export function symbolCacheOf(workspace: Workspace): SymbolCache {
  let cache = caches.get(workspace);
  if (cache === undefined) {
    cache = new SymbolCache();
    caches.set(workspace, cache);
  }
  return cache;
}
