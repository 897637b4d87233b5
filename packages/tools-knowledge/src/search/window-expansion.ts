import { MAX_CHUNK_INDEX } from "./internal/vector-query.js";

/** Default hard cap on one stitched passage: 8,000 characters. */
export const DEFAULT_MAX_PASSAGE_CHARACTERS = 8_000;

/** The widest window accepted: 20 neighbours on each side of a hit. */
export const MAX_WINDOW = 20;

/** How many range fetches run at once by default: 4. */
export const DEFAULT_WINDOW_FETCH_CONCURRENCY = 4;

/** The fields of a chunk window expansion reads (a chunk of a corpus, or a stored record flattened). */
export interface WindowChunk {
  /** The document the chunk belongs to. */
  document_key: string;
  /** Dense position in the document (0, 1, 2, …). Coerced with `Number()` before any arithmetic. */
  chunk_index: number;
  /** First line, 1-based. */
  start_line: number;
  /** Last line, 1-based, inclusive. */
  end_line: number;
  /** Headings the chunk sits under. */
  heading_trail: string[];
  /** The chunk's text. */
  text: string;
}

/** One search hit to widen. */
export interface WindowHit<C extends WindowChunk = WindowChunk> {
  /** The chunk that matched. */
  chunk: C;
  /** Its score: higher is better. */
  score: number;
}

/**
 * Fetches the chunks of one document with `chunk_index` in `[from, to]` — one indexed range
 * query (`WHERE document_key = $1 AND chunk_index BETWEEN $2 AND $3`). Missing chunks are simply
 * absent; the order does not matter.
 */
export type WindowFetch<C extends WindowChunk> = (
  documentKey: string,
  from: number,
  to: number,
  options: { signal?: AbortSignal },
) => Promise<readonly C[]> | readonly C[];

/** Options of {@link expandWindows}. */
export interface ExpandWindowsOptions<C extends WindowChunk> {
  /**
   * Neighbours to add on each side of a hit, 0–{@link MAX_WINDOW}. `0` fetches nothing and only
   * stitches hits that are neighbours already.
   */
  window: number;
  /** Hard cap on a passage's text. Default {@link DEFAULT_MAX_PASSAGE_CHARACTERS} (8,000). */
  maxPassageCharacters?: number;
  /** The range fetch (a store's `range`, or the corpus index's chunks). */
  fetch: WindowFetch<C>;
  /** Stops the fetches. */
  signal?: AbortSignal;
  /** Range fetches in flight at once. Default {@link DEFAULT_WINDOW_FETCH_CONCURRENCY} (4). */
  concurrency?: number;
}

/** A stitched passage: consecutive chunks of one document around one or more hits. */
export interface WindowPassage<C extends WindowChunk = WindowChunk> {
  /** The document. */
  document_key: string;
  /** chunk_index of the passage's first chunk. */
  first_chunk_index: number;
  /** chunk_index of the passage's last chunk. */
  last_chunk_index: number;
  /** First line of the passage, 1-based. */
  start_line: number;
  /** Last line of the passage, 1-based, inclusive. */
  end_line: number;
  /** The heading trail of the passage's best hit. */
  heading_trail: string[];
  /**
   * The chunks' texts joined in order: `\n` between chunks on consecutive lines, `\n\n` across a
   * gap (blank lines or a dropped chunk), nothing between the pieces of one over-long line. At most
   * `maxPassageCharacters`.
   */
  text: string;
  /** The passage's score: its best hit's. */
  score: number;
  /** chunk_index of every hit inside the passage, best first. */
  hit_chunk_indexes: number[];
  /** The chunks stitched, in order. */
  chunks: C[];
  /** Whether the cap left neighbours out or cut the text. */
  truncated: boolean;
}

interface DocumentHits<C extends WindowChunk> {
  documentKey: string;
  /** chunk index → best hit */
  hits: Map<number, WindowHit<C>>;
  /** hits whose chunk_index is not a usable integer: passages of their own, never widened */
  loose: WindowHit<C>[];
}

function checkOptions(options: ExpandWindowsOptions<WindowChunk>): {
  window: number;
  max: number;
  concurrency: number;
} {
  const window = Number(options.window);
  if (!Number.isInteger(window) || window < 0 || window > MAX_WINDOW) {
    throw new RangeError(
      `expandWindows: window must be an integer from 0 to ${MAX_WINDOW}, got ${String(options.window)}.`,
    );
  }
  const max = Number(options.maxPassageCharacters ?? DEFAULT_MAX_PASSAGE_CHARACTERS);
  if (!Number.isInteger(max) || max < 1) {
    throw new RangeError(
      `expandWindows: maxPassageCharacters must be a positive integer, got ${String(options.maxPassageCharacters)}.`,
    );
  }
  const concurrency = Number(options.concurrency ?? DEFAULT_WINDOW_FETCH_CONCURRENCY);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `expandWindows: concurrency must be a positive integer, got ${String(options.concurrency)}.`,
    );
  }
  if (typeof options.fetch !== "function")
    throw new TypeError("expandWindows: fetch must be a function.");
  return { window, max, concurrency };
}

/** `Number()` of an integer column, or `undefined` when it is no usable chunk index. */
function chunkIndexOf(chunk: WindowChunk): number | undefined {
  const index = Number(chunk.chunk_index);
  return Number.isSafeInteger(index) && index >= 0 && index <= MAX_CHUNK_INDEX ? index : undefined;
}

function separatorBetween(previous: WindowChunk, next: WindowChunk): string {
  const previousEnd = Number(previous.end_line);
  const nextStart = Number(next.start_line);
  if (nextStart === previousEnd) return ""; // pieces of one over-long line
  return nextStart === previousEnd + 1 ? "\n" : "\n\n";
}

function joinedLength(chunks: readonly WindowChunk[]): number {
  let length = 0;
  for (const [position, chunk] of chunks.entries()) {
    length += chunk.text.length;
    const previous = chunks[position - 1];
    if (previous !== undefined) length += separatorBetween(previous, chunk).length;
  }
  return length;
}

function joinChunks(chunks: readonly WindowChunk[]): string {
  let text = "";
  for (const [position, chunk] of chunks.entries()) {
    const previous = chunks[position - 1];
    if (previous !== undefined) text += separatorBetween(previous, chunk);
    text += chunk.text;
  }
  return text;
}

/** Cuts text to `max` characters, never inside a surrogate pair. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

async function mapWithConcurrency<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  task: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const position = next;
      next += 1;
      results[position] = await task(items[position] as Item);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * Builds one passage from a consecutive run of chunks (indexes `run[i].index`), trimming it to
 * `max` characters around its best hit: the passage grows outward from the best hit, one chunk at
 * a time, towards the side whose next chunk is a hit or nearer a hit, while it fits.
 */
function buildPassage<C extends WindowChunk>(
  documentKey: string,
  run: ReadonlyArray<{ index: number; chunk: C }>,
  hits: ReadonlyMap<number, WindowHit<C>>,
  max: number,
): WindowPassage<C> {
  const runHits = run
    .filter((entry) => hits.has(entry.index))
    .map((entry) => ({ index: entry.index, hit: hits.get(entry.index) as WindowHit<C> }))
    .sort((left, right) => right.hit.score - left.hit.score || left.index - right.index);
  const best = runHits[0] as { index: number; hit: WindowHit<C> };
  const hitIndexes = runHits.map((entry) => entry.index);
  const distanceToHit = (index: number) => {
    let distance = Number.POSITIVE_INFINITY;
    for (const hitIndex of hitIndexes) distance = Math.min(distance, Math.abs(hitIndex - index));
    return distance;
  };
  const positionOfBest = run.findIndex((entry) => entry.index === best.index);
  let low = positionOfBest;
  let high = positionOfBest;
  let truncated = false;
  let length = best.hit.chunk.text.length;
  // The length the passage would have with one more chunk on a side (incremental: linear overall).
  const grownLength = (side: "left" | "right") => {
    if (side === "left") {
      const added = run[low - 1] as { chunk: C };
      return (
        length +
        added.chunk.text.length +
        separatorBetween(added.chunk, (run[low] as { chunk: C }).chunk).length
      );
    }
    const added = run[high + 1] as { chunk: C };
    return (
      length +
      added.chunk.text.length +
      separatorBetween((run[high] as { chunk: C }).chunk, added.chunk).length
    );
  };
  if (joinedLength(run.map((entry) => entry.chunk)) <= max) {
    low = 0;
    high = run.length - 1;
  } else {
    truncated = true;
    for (;;) {
      const left = run[low - 1];
      const right = run[high + 1];
      const options: Array<"left" | "right"> = [];
      if (left !== undefined && right !== undefined) {
        const leftDistance = distanceToHit(left.index);
        const rightDistance = distanceToHit(right.index);
        options.push(
          ...(leftDistance < rightDistance
            ? (["left", "right"] as const)
            : (["right", "left"] as const)),
        );
      } else if (left !== undefined) options.push("left");
      else if (right !== undefined) options.push("right");
      let grown = false;
      for (const side of options) {
        const candidate = grownLength(side);
        if (candidate > max) continue;
        length = candidate;
        if (side === "left") low -= 1;
        else high += 1;
        grown = true;
        break;
      }
      if (!grown) break;
    }
  }
  const kept = run.slice(low, high + 1);
  const chunks = kept.map((entry) => entry.chunk);
  let text = joinChunks(chunks);
  if (text.length > max) {
    text = cutText(text, max);
    truncated = true;
  }
  const first = kept[0] as { index: number; chunk: C };
  const last = kept[kept.length - 1] as { index: number; chunk: C };
  const keptIndexes = new Set(kept.map((entry) => entry.index));
  return {
    document_key: documentKey,
    first_chunk_index: first.index,
    last_chunk_index: last.index,
    start_line: Number(first.chunk.start_line),
    end_line: Number(last.chunk.end_line),
    heading_trail: [...best.hit.chunk.heading_trail],
    text,
    score: best.hit.score,
    hit_chunk_indexes: hitIndexes.filter((index) => keptIndexes.has(index)),
    chunks,
    truncated,
  };
}

function loosePassage<C extends WindowChunk>(hit: WindowHit<C>, max: number): WindowPassage<C> {
  const text = cutText(hit.chunk.text, max);
  const index = Number(hit.chunk.chunk_index);
  return {
    document_key: hit.chunk.document_key,
    first_chunk_index: index,
    last_chunk_index: index,
    start_line: Number(hit.chunk.start_line),
    end_line: Number(hit.chunk.end_line),
    heading_trail: [...hit.chunk.heading_trail],
    text,
    score: hit.score,
    hit_chunk_indexes: [index],
    chunks: [hit.chunk],
    truncated: text.length < hit.chunk.text.length,
  };
}

/**
 * Widens search hits into passages (the window-expansion recipe): for each hit, its neighbours
 * `chunk_index - window … chunk_index + window` in the same document are fetched with one range
 * query per window (overlapping and touching windows of one document merged first, so each range
 * is fetched once); consecutive runs of chunk indexes are stitched back into passages (indexes are
 * dense, so `n, n+1, n+2` is adjacent text); windows of several hits in one document that overlap
 * become one passage, scored by its best hit. Every passage is hard-capped at
 * `maxPassageCharacters`: a run too long for the cap is trimmed around its best hit (neighbours
 * nearest a hit kept first), and a single chunk longer than the cap is cut — so no bad window bound
 * or runaway merge can blow a model's context through the retrieval path.
 *
 * `chunk_index` is coerced with `Number()` before any arithmetic (several PostgreSQL drivers return
 * integer columns as strings, and `"5941" + 2` is `"59412"`); chunks a fetch returns from another
 * document or outside the requested range are ignored. A hit whose index is not an integer stays a
 * passage of its own.
 *
 * @param hits - the search hits (any order; the same chunk twice keeps its best score)
 * @param options - the window, the passage cap, the range fetch, a signal
 * @returns the passages, best first (ties: document key, then position)
 * @throws RangeError for a bad window, cap or concurrency; whatever `fetch` throws
 * @example
 * const passages = await expandWindows(
 *   matches.map((match) => ({ chunk: toWindowChunk(match.record), score: match.score })),
 *   {
 *     window: 2,
 *     fetch: async (key, from, to, { signal }) =>
 *       (await store.range(key, from, to, { signal })).map(toWindowChunk),
 *   },
 * );
 * // passages[0] → { document_key: "docs/power.md", start_line: 10, end_line: 58, text: "…", score: 0.83, … }
 */
export async function expandWindows<C extends WindowChunk>(
  hits: ReadonlyArray<WindowHit<C>>,
  options: ExpandWindowsOptions<C>,
): Promise<WindowPassage<C>[]> {
  const { window, max, concurrency } = checkOptions(options as ExpandWindowsOptions<WindowChunk>);
  const documents = new Map<string, DocumentHits<C>>();
  for (const hit of hits) {
    const documentKey = String(hit.chunk.document_key);
    let entry = documents.get(documentKey);
    if (entry === undefined) {
      entry = { documentKey, hits: new Map(), loose: [] };
      documents.set(documentKey, entry);
    }
    const index = chunkIndexOf(hit.chunk);
    if (index === undefined) {
      entry.loose.push(hit);
      continue;
    }
    const seen = entry.hits.get(index);
    if (seen === undefined || hit.score > seen.score) entry.hits.set(index, hit);
  }

  // Merged windows per document: touching or overlapping windows become one range.
  const ranges: Array<{ document: DocumentHits<C>; from: number; to: number }> = [];
  for (const document of documents.values()) {
    const indexes = [...document.hits.keys()].sort((left, right) => left - right);
    let current: { document: DocumentHits<C>; from: number; to: number } | undefined;
    for (const index of indexes) {
      const from = Math.max(0, index - window);
      const to = Math.min(MAX_CHUNK_INDEX, index + window);
      if (current !== undefined && from <= current.to + 1) current.to = Math.max(current.to, to);
      else {
        current = { document, from, to };
        ranges.push(current);
      }
    }
  }

  const fetched = await mapWithConcurrency(ranges, concurrency, async (range) => {
    const chunks = new Map<number, C>();
    if (window > 0) {
      options.signal?.throwIfAborted();
      const rows = await options.fetch(range.document.documentKey, range.from, range.to, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      for (const row of rows) {
        if (String(row.document_key) !== range.document.documentKey) continue;
        const index = chunkIndexOf(row);
        if (index === undefined || index < range.from || index > range.to || chunks.has(index))
          continue;
        chunks.set(index, row);
      }
    }
    for (const [index, hit] of range.document.hits) {
      if (index >= range.from && index <= range.to && !chunks.has(index))
        chunks.set(index, hit.chunk);
    }
    return chunks;
  });

  const passages: WindowPassage<C>[] = [];
  for (const [position, range] of ranges.entries()) {
    const chunks = fetched[position] as Map<number, C>;
    const ordered = [...chunks.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, chunk]) => ({ index, chunk }));
    let run: Array<{ index: number; chunk: C }> = [];
    const flush = () => {
      if (run.some((entry) => range.document.hits.has(entry.index))) {
        passages.push(buildPassage(range.document.documentKey, run, range.document.hits, max));
      }
      run = [];
    };
    for (const entry of ordered) {
      const previous = run[run.length - 1];
      if (previous !== undefined && entry.index !== previous.index + 1) flush();
      run.push(entry);
    }
    flush();
  }
  for (const document of documents.values()) {
    for (const hit of document.loose) passages.push(loosePassage(hit, max));
  }
  return passages.sort(
    (left, right) =>
      right.score - left.score ||
      (left.document_key < right.document_key
        ? -1
        : left.document_key > right.document_key
          ? 1
          : 0) ||
      left.first_chunk_index - right.first_chunk_index,
  );
}
