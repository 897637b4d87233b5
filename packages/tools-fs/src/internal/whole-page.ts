import {
  containsPrivateKey,
  createPrivateKeyLineScanner,
  isOffsetPastEnd,
} from "@agentool/contract";
import type { FileStat, FileSystem } from "../file-system.js";
import type { ResolvedPath } from "../workspace.js";
import { LruCache } from "./line-index.js";
import { PageCollector, type PageLimits, type PageOutcome } from "./read-page.js";
import { type DecodedText, decodeText, isBinary, sha256Hex } from "./text-codec.js";
import { countNewlines } from "./unified-diff.js";

/** How many small files' decoded text is kept for the next page (each at most 2 MiB). */
const WHOLE_CACHE_ENTRIES = 4;

/** The largest file whose decoded text is kept between calls. */
const WHOLE_CACHE_MAX_BYTES = 2 * 1_048_576;

/** How long ago a file must have changed before its text is kept (timestamps are coarse). */
const WHOLE_CACHE_SETTLED_MS = 2_000;

/** A small file read whole: its text and the facts every page reports. */
interface DecodedWholeFile {
  decoded: DecodedText;
  sha: string;
  total: number;
  bytes: number;
}

/** Options of {@link WholePageReader}. */
export interface WholePageReaderOptions {
  /** The seam the files are read from. */
  fileSystem: FileSystem;
  /** Whether decoded text may be kept between calls. */
  cache: boolean;
  /** The page's caps. */
  limits: PageLimits;
}

/**
 * Pages a file small enough to read whole: read, sniffed, hashed and decoded once, its text kept
 * for the next page (paging repeats the call with another offset).
 *
 * @internal
 */
export class WholePageReader {
  readonly #fileSystem: FileSystem;
  readonly #limits: PageLimits;
  readonly #cache: LruCache<Promise<DecodedWholeFile | undefined>>;

  /** @param options - the seam, whether to cache, the caps */
  constructor(options: WholePageReaderOptions) {
    this.#fileSystem = options.fileSystem;
    this.#limits = options.limits;
    this.#cache = new LruCache(options.cache ? WHOLE_CACHE_ENTRIES : 0);
  }

  /**
   * Reads one page of a file read whole.
   *
   * @param resolved - the file
   * @param stat - its stat (keys the kept text)
   * @param offset - the 1-based line to start at (negative: from the end)
   * @param limit - the most lines on the page
   * @returns the page and its facts, or why there is none
   */
  async read(
    resolved: ResolvedPath,
    stat: FileStat,
    offset: number,
    limit: number,
  ): Promise<PageOutcome> {
    const whole = await this.#load(resolved, stat);
    if (whole === undefined) return { kind: "binary" };
    const { decoded, sha, total } = whole;
    const text = decoded.text;
    // A negative offset counts from the end; the total is known, so the page is numbered as usual.
    if (offset < 0) offset = Math.max(1, total + offset + 1);
    if (isOffsetPastEnd(offset, total)) return { kind: "past-end", offset, total };
    const page = new PageCollector(offset, limit, this.#limits);
    // One linear indexOf pass; only a file holding a key pays for the line-by-line scan.
    const isKeyLine = containsPrivateKey(text) ? createPrivateKeyLineScanner() : undefined;
    let start = 0;
    for (let line = 1; line < offset; line += 1) {
      const next = text.indexOf("\n", start) + 1;
      if (isKeyLine !== undefined) isKeyLine(text.slice(start, next === 0 ? text.length : next));
      start = next;
    }
    while (total > 0 && start < text.length) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const hasCr = end > start && text.charCodeAt(end - 1) === 13;
      const line = text.slice(start, hasCr ? end - 1 : end);
      const ending = `${hasCr ? "\r" : ""}${newline === -1 ? "" : "\n"}`;
      if (!page.add({ text: line, ending, cutBytes: 0, key: isKeyLine?.(line) })) break;
      if (newline === -1) break;
      start = newline + 1;
    }
    return {
      kind: "page",
      page,
      offset,
      facts: {
        total,
        encoding: decoded.encoding,
        line_ending: decoded.lineEnding,
        sha,
        bytes: whole.bytes,
        invalid_bytes: decoded.invalidBytes,
        streamed: false,
      },
    };
  }

  /** The decoded file, kept when it is small and settled; `undefined` for a binary one. */
  #load(resolved: ResolvedPath, stat: FileStat): Promise<DecodedWholeFile | undefined> {
    // Keyed by size, time and identity like the line indexes of large files.
    const key = `${resolved.real}\0${stat.size}\0${stat.modifiedMs}\0${stat.identity ?? ""}`;
    // A file changed within the last moments may change again within the same timestamp tick
    // without its size changing (git's "racily clean" entries): such a file is never kept.
    const cacheable =
      stat.size <= WHOLE_CACHE_MAX_BYTES &&
      stat.identity !== undefined &&
      Date.now() - stat.modifiedMs > WHOLE_CACHE_SETTLED_MS;
    let reading = cacheable ? this.#cache.get(key) : undefined;
    if (reading === undefined) {
      reading = this.#decode(resolved.real);
      if (cacheable) {
        this.#cache.set(key, reading);
        reading.catch(() => this.#cache.delete(key));
      }
    }
    return reading;
  }

  /** Reads, sniffs, hashes and decodes a whole file; `undefined` for a binary one. */
  async #decode(real: string): Promise<DecodedWholeFile | undefined> {
    const bytes = await this.#fileSystem.readFile(real);
    if (isBinary(bytes)) return undefined;
    // Web Crypto hashes off the main thread: decode meanwhile.
    const hashing = sha256Hex(bytes);
    const decoded = decodeText(bytes);
    if (decoded === undefined) return undefined;
    const sha = await hashing;
    const text = decoded.text;
    const total = text.length === 0 ? 0 : countNewlines(text) + (text.endsWith("\n") ? 0 : 1);
    return { decoded, sha, total, bytes: bytes.length };
  }
}
