import { isOffsetPastEnd, type ToolContext } from "@agentool/contract";
import type { FileReader, FileStat, FileSystem } from "../file-system.js";
import type { ResolvedPath } from "../workspace.js";
import { KEY_LOOKBACK_STEPS, KeyArmourTracker } from "./key-armour-tracker.js";
import { findTailStart, LineIndex, LruCache, locateLine, readLineBatches } from "./line-index.js";
import { fileVersionKey, type LineTotals } from "./line-totals.js";
import { PageCollector, type PageLimits, type PageOutcome, utf8Length } from "./read-page.js";
import {
  BINARY_SNIFF_BYTES,
  decodeUtf8Lenient,
  detectBom,
  detectLineEnding,
  isBinary,
} from "./text-codec.js";

/** A huge file's cached facts: its line index (complete after a full pass) and its sha. */
interface IndexedFile {
  index: LineIndex;
  sha: string | undefined;
}

/** Where one attempt reads: `lookback` lines from `position`, then the page from `offset`. */
interface ReadWindow {
  kind: "window";
  /** The page's first line (negative: counted from the end). */
  offset: number;
  /** The byte the window starts at. */
  position: number;
  /** Lines read before the page, for the key scanner only. */
  lookback: number;
  /** Whether the page is a tail numbered from the end (its lines were not counted). */
  fromEnd: boolean;
  /** The exact line count, when finding a tail reached the start of the file. */
  tailTotal: number | undefined;
}

/** What one attempt read. */
interface WindowScan {
  page: PageCollector;
  invalidBytes: boolean;
  /** The byte after the last line read, to tell whether lines follow the page. */
  after: number;
  /** Whether the page filled up before the file ended. */
  full: boolean;
  /** Whether every line before the page could be key armour (widen the window). */
  bodyBefore: boolean;
}

/** Options of {@link StreamedPageReader}. */
export interface StreamedPageReaderOptions {
  /** The seam the files are read from. */
  fileSystem: FileSystem;
  /** Lines longer than this (bytes) are read only this far. */
  maxLineBytes: number;
  /** Files up to this size get one full pass (exact total, sha) on their first page. */
  fullPassMaxBytes: number;
  /** Line indexes kept (LRU); `0` disables the cache. */
  indexCacheEntries: number;
  /** The page's caps. */
  limits: PageLimits;
  /** Line counts other tools made of whole files (a page near the end is then found from the end). */
  lineTotals?: LineTotals | undefined;
}

/**
 * Pages a file too large to read whole: one streamed pass builds a sparse line index (cached per
 * real path, size, modification time and identity, with the sha from `FileSystem.digest`), and
 * each page is read with ranged reads from the nearest checkpoint. A file over
 * `fullPassMaxBytes` is read only as far as a page needs (the tail backwards from the end).
 *
 * @internal
 */
export class StreamedPageReader {
  readonly #fileSystem: FileSystem;
  readonly #maxLineBytes: number;
  readonly #fullPassMaxBytes: number;
  readonly #limits: PageLimits;
  readonly #cache: LruCache<Promise<IndexedFile>>;
  readonly #lineTotals: LineTotals | undefined;

  /** @param options - the seam, the caps and the cache size */
  constructor(options: StreamedPageReaderOptions) {
    this.#fileSystem = options.fileSystem;
    this.#maxLineBytes = options.maxLineBytes;
    this.#fullPassMaxBytes = options.fullPassMaxBytes;
    this.#limits = options.limits;
    this.#cache = new LruCache<Promise<IndexedFile>>(options.indexCacheEntries);
    this.#lineTotals = options.lineTotals;
  }

  /**
   * Reads one page of a streamed file.
   *
   * @param resolved - the file
   * @param stat - its stat (keys the cached index)
   * @param requestedOffset - the 1-based line to start at (negative: from the end)
   * @param limit - the most lines on the page
   * @param context - the call's signal and progress
   * @returns the page and its facts, or why there is none
   */
  async read(
    resolved: ResolvedPath,
    stat: FileStat,
    requestedOffset: number,
    limit: number,
    context: ToolContext,
  ): Promise<PageOutcome> {
    const reader = await this.#fileSystem.openReader(resolved.real);
    try {
      const head = await reader.read(0, Math.min(reader.size, BINARY_SNIFF_BYTES));
      if (isBinary(head)) return { kind: "binary" };
      const bom = detectBom(head);
      if (bom === "utf-16le" || bom === "utf-16be") return { kind: "utf-16" };
      const start = bom === "utf-8-bom" ? 3 : 0;
      const key = fileVersionKey(resolved.real, stat);
      const { index, sha } = await this.#indexFile(key, resolved, reader.size, start, context);
      if (index.size !== reader.size || (index.complete && index.scanned !== index.size))
        return this.#changed(key);
      // Reading starts a little before the page, so that a key block beginning before it is
      // recognised; the window is widened (256 → 2,048 → 16,384 lines) while every line looked
      // back on could be key armour (see KeyArmourTracker).
      for (let attempt = 0; ; attempt += 1) {
        const lookbackLines = KEY_LOOKBACK_STEPS[attempt] as number;
        const window = await this.#locate(
          reader,
          index,
          start,
          requestedOffset,
          lookbackLines,
          resolved,
          context,
          this.#lineTotals?.get(key),
        );
        if (window.kind === "changed") return this.#changed(key);
        if (window.kind !== "window") return window;
        const last = attempt === KEY_LOOKBACK_STEPS.length - 1;
        const scan = await this.#scan(reader, index, start, window, limit, last, context.signal);
        if (!scan.bodyBefore || last || context.signal.aborted) {
          const sample = decodeUtf8Lenient(head.subarray(start), true).text;
          return {
            kind: "page",
            page: scan.page,
            offset: window.offset,
            facts: {
              ...streamedTotals(index, window, scan),
              encoding: bom ?? "utf-8",
              line_ending: detectLineEnding(sample),
              sha,
              bytes: index.size,
              invalid_bytes: scan.invalidBytes,
              streamed: true,
            },
          };
        }
      }
    } finally {
      await reader.close();
    }
  }

  #changed(key: string): PageOutcome {
    this.#cache.delete(key);
    return { kind: "changed" };
  }

  /**
   * The cached line index of a streamed file version. A file up to `fullPassMaxBytes` gets one
   * full pass with its sha on first use; a larger one starts empty and is scanned only as far as
   * pages need.
   */
  #indexFile(
    key: string,
    resolved: ResolvedPath,
    size: number,
    start: number,
    context: ToolContext,
  ): Promise<IndexedFile> {
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const index = new LineIndex(size, { start });
    const entry =
      size > this.#fullPassMaxBytes
        ? Promise.resolve<IndexedFile>({ index, sha: undefined })
        : this.#fullPass(index, resolved, context);
    this.#cache.set(key, entry);
    entry.catch(() => this.#cache.delete(key));
    return entry;
  }

  async #fullPass(
    index: LineIndex,
    resolved: ResolvedPath,
    context: ToolContext,
  ): Promise<IndexedFile> {
    const reader = await this.#fileSystem.openReader(resolved.real);
    try {
      const [, sha] = await Promise.all([
        index.extendTo(reader, Number.POSITIVE_INFINITY, {
          signal: context.signal,
          onProgress: (completed, total) =>
            context.progress({
              message: `Indexing the lines of ${resolved.display}`,
              completed,
              total,
            }),
        }),
        this.#fileSystem.digest(resolved.real),
      ]);
      return { index, sha };
    } finally {
      await reader.close();
    }
  }

  /** Where an attempt with `lookbackLines` lines of look-back starts reading. */
  async #locate(
    reader: FileReader,
    index: LineIndex,
    start: number,
    requestedOffset: number,
    lookbackLines: number,
    resolved: ResolvedPath,
    context: ToolContext,
    knownTotal: number | undefined,
  ): Promise<
    ReadWindow | { kind: "changed" } | { kind: "past-end"; offset: number; total: number }
  > {
    let offset = requestedOffset;
    if (offset > 0 && knownTotal !== undefined && !index.reaches(offset)) {
      // Another tool counted this version's lines: past the end, or near it, needs no count.
      if (isOffsetPastEnd(offset, knownTotal))
        return { kind: "past-end", offset, total: knownTotal };
      const fromEnd = knownTotal - offset + 1;
      if (fromEnd < offset - index.lines) {
        const found = await findTailStart(reader, start, fromEnd + lookbackLines, {
          signal: context.signal,
        });
        // The count must still hold: as many lines before the window as the total says.
        if (!found.reachedStart || found.lines === knownTotal) {
          return {
            kind: "window",
            offset,
            position: found.position,
            lookback: found.lines - fromEnd,
            fromEnd: false,
            tailTotal: knownTotal,
          };
        }
      }
    }
    if (offset < 0 && !index.complete) {
      // The tail of a file whose lines were not counted: found backwards from the end.
      const wanted = -offset;
      const found = await findTailStart(reader, start, wanted + lookbackLines, {
        signal: context.signal,
      });
      const pageLines = Math.min(wanted, found.lines);
      const lookback = found.lines - pageLines;
      if (found.reachedStart) {
        return {
          kind: "window",
          offset: found.lines - pageLines + 1,
          position: found.position,
          lookback,
          fromEnd: false,
          tailTotal: found.lines,
        };
      }
      return {
        kind: "window",
        offset,
        position: found.position,
        lookback,
        fromEnd: true,
        tailTotal: undefined,
      };
    }
    if (offset < 0) offset = Math.max(1, (index.totalLines ?? 0) + offset + 1);
    const first = Math.max(1, offset - lookbackLines);
    if (!index.reaches(offset)) {
      const target = offset;
      await index.extendTo(reader, target, {
        signal: context.signal,
        onProgress: (completed, total) =>
          context.progress({
            message: `Counting lines of ${resolved.display} up to line ${target}`,
            completed,
            total,
          }),
      });
      if (index.complete && index.scanned !== index.size) return { kind: "changed" };
    }
    if (index.totalLines !== undefined && isOffsetPastEnd(offset, index.totalLines))
      return { kind: "past-end", offset, total: index.totalLines };
    const located = locateLine(index, first);
    return {
      kind: "window",
      offset,
      position: located.position,
      lookback: offset - first + located.skip,
      fromEnd: false,
      tailTotal: undefined,
    };
  }

  /** Reads one window: the look-back lines (for the key scanner only), then the page. */
  async #scan(
    reader: FileReader,
    index: LineIndex,
    start: number,
    window: ReadWindow,
    limit: number,
    last: boolean,
    signal: AbortSignal,
  ): Promise<WindowScan> {
    const page = new PageCollector(window.offset, limit, this.#limits);
    const lookback = window.lookback;
    const tracker = new KeyArmourTracker(lookback > 0 && window.position > start);
    let invalidBytes = false;
    let after = window.position;
    let full = false;
    if (window.position < index.size) {
      let line = 0;
      const batches = readLineBatches(reader, window.position, index.size, this.#maxLineBytes);
      reading: for await (const batch of batches) {
        if (signal.aborted) break;
        for (const raw of batch) {
          const cutShort = raw.bytes.length < raw.byteLength;
          line += 1;
          if (line <= lookback) {
            // Only the key scanner sees lines before the page (and those before the checkpoint's skip).
            tracker.before(decodeUtf8Lenient(raw.bytes, cutShort).text);
            after += raw.byteLength + (raw.newline ? 1 : 0);
            continue;
          }
          if (line === lookback + 1 && tracker.startPage(last)) break reading; // widen, read again
          const decoded = decodeUtf8Lenient(raw.bytes, cutShort);
          const hasCr = !cutShort && decoded.text.endsWith("\r");
          const text = hasCr ? decoded.text.slice(0, -1) : decoded.text;
          const ending = `${hasCr ? "\r" : ""}${raw.newline ? "\n" : ""}`;
          const cutBytes = cutShort ? raw.byteLength - utf8Length(decoded.text) : 0;
          const key = tracker.pageLine(decoded.text);
          if (!page.add({ text, ending, cutBytes, key })) {
            full = true;
            break reading;
          }
          if (decoded.invalidBytes) invalidBytes = true;
          after += raw.byteLength + (raw.newline ? 1 : 0);
        }
      }
    }
    return { page, invalidBytes, after, full, bodyBefore: tracker.bodyBefore };
  }
}

/** The page's `total` (exact) or `total_at_least` and `more`, from what the scan saw. */
function streamedTotals(
  index: LineIndex,
  window: ReadWindow,
  scan: WindowScan,
): { total: number } | { total_at_least: number; more: boolean } {
  const { offset, fromEnd, lookback } = window;
  const { page, after, full } = scan;
  // A tail numbered from the end stays so, even if another call completed the index meanwhile.
  const readToEnd = !fromEnd && !full && after >= index.size && page.shown > 0;
  const known = fromEnd
    ? undefined
    : (index.totalLines ?? window.tailTotal ?? (readToEnd ? offset + page.shown - 1 : undefined));
  if (known !== undefined) return { total: known };
  const endLine = page.shown === 0 ? 0 : offset + page.shown - 1;
  return {
    total_at_least: fromEnd
      ? Math.max(-offset + lookback + 1, index.complete ? 0 : index.lines + 1)
      : Math.max(index.lines, endLine) + (after < index.size || full ? 1 : 0),
    more: fromEnd ? endLine < -1 : full || after < index.size,
  };
}
