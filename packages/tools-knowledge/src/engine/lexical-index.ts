import { decodeBase64, encodeBase64 } from "./base64.js";
import { LexicalEngine, LexicalSnapshotError, type RawLexicalEngine } from "./lexical-engine.js";
import { TOKENIZER_VERSION, tokenize } from "./tokenize.js";

/** One searchable unit of a {@link LexicalIndex} — usually a chunk. */
export interface LexicalDocument {
  /** Unique id (the caller maps it back to its chunk: the index stores nothing else). */
  id: string;
  /** The chunk's heading trail, e.g. `"Power > Limits"` — weighted above the body. */
  heading: string;
  /** The chunk's text. */
  text: string;
  /** The document's flattened front matter (`""` when none). */
  front_matter: string;
}

/** Options of {@link LexicalIndex.search}. */
export interface LexicalSearchOptions {
  /** At most this many results (default: every match). */
  limit?: number;
  /** Keeps only the ids for which it returns `true` (applied before `limit`). */
  filter?: (id: string) => boolean;
}

/** One match of {@link LexicalIndex.search}. */
export interface LexicalMatch {
  /** The document id. */
  id: string;
  /** BM25 score with field boosts: higher is better, comparable within one result list only. */
  score: number;
}

/** A BM25 index over {@link LexicalDocument}s (MiniSearch's scoring over flat arrays). */
export interface LexicalIndex {
  /**
   * Adds documents; a document whose id is already indexed replaces the old version (so does a
   * later duplicate in the same call).
   */
  add(documents: readonly LexicalDocument[]): void;
  /** Removes documents by id; ids not in the index are ignored. */
  remove(ids: readonly string[]): void;
  /** Best matches first. An empty or stop-word-only query matches nothing. */
  search(query: string, options?: LexicalSearchOptions): LexicalMatch[];
  /**
   * The distinct terms of a query as a search reads them (for evidence computed outside, e.g.
   * BM25 over whole files from their chunks' postings).
   */
  queryTerms(query: string): string[];
  /** Calls `visit` for each posting of exactly `term` in a live document (once per field holding it). */
  forEachPosting(term: string, visit: (id: string, frequency: number) => void): void;
  /** Whether a document with this id is indexed. */
  has(id: string): boolean;
  /** How many documents are indexed. */
  readonly size: number;
  /** A compact binary snapshot that {@link loadLexicalIndex} restores. */
  toBytes(): Uint8Array;
  /** The same snapshot as a JSON-serialisable object (its bytes in base64). */
  toJSON(): unknown;
}

/** Version of the snapshot {@link LexicalIndex.toJSON} writes; older snapshots are refused. */
export const LEXICAL_INDEX_VERSION = 5;

/** The `format` marker of a snapshot. */
export const LEXICAL_INDEX_FORMAT = "agentool-lexical-index";

/**
 * Field weights: the heading trail and the front matter (title, tags) count 1.5 times the body.
 * A chunk's own heading line is also part of its text, so its words score in both fields. Larger
 * heading boosts were measured worse on the relevance set (document MRR@10 0.950 at 1.5, 0.935 at
 * 2, 0.933 at 3): a heading field holds three or four terms, so BM25's length normalisation
 * already makes a heading match weigh heavily, and a bigger boost lets a short chunk whose heading
 * shares one common word outrank the passage that holds the rare words of the query.
 */
export const LEXICAL_FIELD_BOOSTS: Readonly<Record<"heading" | "text" | "front_matter", number>> =
  Object.freeze({
    heading: 1.5,
    text: 1,
    front_matter: 1.5,
  });

/**
 * Discarded documents are vacuumed out of the index (a pass over its terms, in the background)
 * once there are at least this many of them and they make up {@link VACUUM_MIN_DIRT_FACTOR} of the
 * documents ever held — so the cost of a pass is spread over many removals.
 */
export const VACUUM_MIN_DIRT_COUNT = 64;

/** See {@link VACUUM_MIN_DIRT_COUNT}: the share of discarded documents that triggers a vacuum (10%). */
export const VACUUM_MIN_DIRT_FACTOR = 0.1;

/** A query's first 256 terms are searched; the rest are ignored (bounds the work of a huge query). */
export const MAX_QUERY_TERMS = 256;

const FIELDS = ["heading", "text", "front_matter"] as const;

const marker = Symbol.for("agentool.lexical-index-load-error");

/**
 * Thrown by {@link loadLexicalIndex} when a snapshot is not one it can restore (corrupt, truncated,
 * another format, or written by an older version): the caller rebuilds the index.
 */
export class LexicalIndexLoadError extends Error {
  /** @internal */
  readonly [marker] = true;

  /**
   * @param message - what is wrong with the snapshot
   * @param options - the underlying cause, if any
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LexicalIndexLoadError";
  }

  /**
   * Tells whether a value is a {@link LexicalIndexLoadError}, even from another copy of this package.
   *
   * @param value - anything
   * @returns `true` for a snapshot that must be rebuilt
   * @example
   * try {
   *   index = loadLexicalIndex(saved);
   * } catch (error) {
   *   if (!LexicalIndexLoadError.isInstance(error)) throw error;
   *   index = rebuild();
   * }
   */
  static isInstance(value: unknown): value is LexicalIndexLoadError {
    return typeof value === "object" && value !== null && marker in value;
  }
}

/** MiniSearch's BM25+ parameters (its defaults, stated so the fast scorer uses the same). */
const BM25 = Object.freeze({ k: 1.2, b: 0.7, d: 0.5 });

/** MiniSearch's weight of a prefix match (its default, stated for the same reason). */
const PREFIX_WEIGHT = 0.375;

// Stems of five letters or more also match longer terms (`configur` → `configuration`), at
// MiniSearch's reduced prefix weight.
const matchesAsPrefix = (term: string): boolean => term.length >= 5 && !isCjkTerm(term);
const tokenizeQuery = (text: string): string[] =>
  tokenize(text, { mode: "query" }).slice(0, MAX_QUERY_TERMS);

function isCjkTerm(term: string): boolean {
  const code = term.codePointAt(0) ?? 0;
  return code >= 0x2e80;
}

/**
 * How every lexical index ranks, restated for the equivalence test (which builds MiniSearch 7.2
 * with these options and compares its scores with ours).
 *
 * @internal
 */
export const LEXICAL_RANKING = Object.freeze({
  fields: FIELDS,
  bm25: BM25,
  prefixWeight: PREFIX_WEIGHT,
  matchesAsPrefix,
  tokenizeQuery,
  tokenizeDocument: (text: string): string[] => tokenize(text, { mode: "document" }),
});

const scoring = {
  fieldBoosts: FIELDS.map((field) => LEXICAL_FIELD_BOOSTS[field]),
  bm25: BM25,
  prefixWeight: PREFIX_WEIGHT,
  prefix: matchesAsPrefix,
  tokenize: tokenizeQuery,
};

/** What a binary snapshot's header carries: its version, then the tokenizer's. */
const SNAPSHOT_HEADER = [LEXICAL_INDEX_VERSION, TOKENIZER_VERSION] as const;

/**
 * Creates an empty BM25 index (BM25+ with k = 1.2, b = 0.7, d = 0.5, as MiniSearch 7.2 scores)
 * over three fields — `heading` (boost 1.5), `text` (1), `front_matter` (1.5) — with the family's
 * English + CJK tokenizer (lowercased, diacritics folded, light stemming, CJK bigrams, stop words
 * dropped) and prefix matching for terms of five letters or more. It stores ids only.
 *
 * The postings are flat arrays (see the package README, "The lexical engine"): a build costs one
 * array push per distinct term of a document, a snapshot is a run of varints, and loading one
 * fills typed arrays. Scores equal MiniSearch's own `search` with the same options (the tests
 * compare them). `remove` (and `add` of an id already present) marks documents dead at once; their
 * postings are dropped by a compaction in the background once they reach
 * {@link VACUUM_MIN_DIRT_COUNT} and {@link VACUUM_MIN_DIRT_FACTOR} of the index (until then a
 * snapshot keeps them, marked dead, so one after a small change re-encodes only the changed
 * terms and copies the rest from the previous one).
 *
 * @returns an empty index
 * @example
 * const index = createLexicalIndex();
 * index.add([{ id: "a.md#0", heading: "Power > Limits", text: "The regulator caps at 5V.", front_matter: "" }]);
 * index.search("regulator limits"); // [{ id: "a.md#0", score: … }]
 */
export function createLexicalIndex(): LexicalIndex {
  return new FlatLexicalIndex(new LexicalEngine(FIELDS.length, scoring));
}

/**
 * Restores an index from a snapshot: the bytes of {@link LexicalIndex.toBytes}, the object of
 * {@link LexicalIndex.toJSON}, or that object's JSON text.
 *
 * @param snapshot - the snapshot
 * @returns the restored index, searchable and updatable like a new one
 * @throws {LexicalIndexLoadError} when the snapshot is corrupt, truncated, of another format or
 * version, or was built with another tokenizer version — rebuild the index then
 * @example
 * const copy = loadLexicalIndex(index.toBytes());
 * const same = loadLexicalIndex(JSON.parse(JSON.stringify(index.toJSON())));
 */
export function loadLexicalIndex(snapshot: unknown): LexicalIndex {
  let bytes: Uint8Array;
  if (snapshot instanceof Uint8Array) bytes = snapshot;
  else {
    let value: unknown = snapshot;
    if (typeof value === "string") {
      try {
        value = JSON.parse(value);
      } catch (error) {
        throw new LexicalIndexLoadError("The lexical index snapshot is not valid JSON.", {
          cause: error,
        });
      }
    }
    if (!isRecord(value) || value.format !== LEXICAL_INDEX_FORMAT) {
      throw new LexicalIndexLoadError(`The value is not a ${LEXICAL_INDEX_FORMAT} snapshot.`);
    }
    if (value.version !== LEXICAL_INDEX_VERSION) {
      throw new LexicalIndexLoadError(
        `The lexical index snapshot has version ${String(value.version)}; this version reads ${LEXICAL_INDEX_VERSION} only.`,
      );
    }
    if (value.tokenizer_version !== TOKENIZER_VERSION) {
      throw new LexicalIndexLoadError(
        `The lexical index was built with tokenizer version ${String(value.tokenizer_version)}; this version uses ${TOKENIZER_VERSION}.`,
      );
    }
    if (typeof value.data !== "string") {
      throw new LexicalIndexLoadError("The lexical index snapshot has no data.");
    }
    try {
      bytes = decodeBase64(value.data);
    } catch (error) {
      throw new LexicalIndexLoadError("The lexical index snapshot's data is not base64.", {
        cause: error,
      });
    }
  }
  return restore(snapshot instanceof Uint8Array ? bytes.slice() : bytes);
}

/** An index from snapshot bytes it may keep (see `LexicalEngine.fromBytes`). */
function restore(bytes: Uint8Array): FlatLexicalIndex {
  try {
    return new FlatLexicalIndex(
      LexicalEngine.fromBytes(bytes, SNAPSHOT_HEADER, FIELDS.length, scoring, true),
    );
  } catch (error) {
    if (!(error instanceof LexicalSnapshotError)) throw error;
    throw new LexicalIndexLoadError(
      `The lexical index snapshot cannot be restored: ${error.message}.`,
      { cause: error },
    );
  }
}

/**
 * Loads a snapshot whose bytes nobody else holds (a worker's transferred answer, a sidecar file
 * just read) without copying them: the index keeps them as its previous snapshot, so its next
 * `toBytes()` copies unchanged terms from them. The bytes must not be changed afterwards.
 *
 * @param bytes - a `toBytes()` snapshot, handed over
 * @returns the index
 * @throws LexicalIndexLoadError as {@link loadLexicalIndex}
 * @internal
 */
export function adoptLexicalSnapshot(bytes: Uint8Array): LexicalIndex {
  return restore(bytes);
}

/**
 * A finished index as plain arrays for `postMessage` (list `transfer` as the transfer list): the
 * index must not be used afterwards. {@link importLexicalIndex} rebuilds it on the other side
 * without a snapshot's encode and decode.
 *
 * @param index - an index made by this module
 * @returns the arrays
 * @internal
 */
export function exportLexicalIndex(index: LexicalIndex): RawLexicalEngine {
  if (!(index instanceof FlatLexicalIndex))
    throw new Error("exportLexicalIndex moves indexes made by createLexicalIndex only");
  return index.exportRaw();
}

/**
 * Rebuilds an index from {@link exportLexicalIndex} (of this module's own worker: trusted).
 *
 * @param raw - the arrays
 * @returns the index
 * @internal
 */
export function importLexicalIndex(raw: RawLexicalEngine): LexicalIndex {
  return new FlatLexicalIndex(LexicalEngine.fromRaw(raw, scoring));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Appends the documents of `source` to `target` as if they had been added there after its own
 * (both made by this module); `source` is left as it was. Joins a build split between threads.
 *
 * @param target - the index that grows
 * @param source - the index whose documents join it
 * @throws Error when both hold the same id, or either index is not this module's
 * @internal
 */
export function appendLexicalIndex(target: LexicalIndex, source: LexicalIndex): void {
  if (!(target instanceof FlatLexicalIndex) || !(source instanceof FlatLexicalIndex))
    throw new Error("appendLexicalIndex joins indexes made by createLexicalIndex only");
  target.absorb(source);
}

class FlatLexicalIndex implements LexicalIndex {
  private compactionScheduled = false;

  constructor(private readonly engine: LexicalEngine) {}

  get size(): number {
    return this.engine.size;
  }

  has(id: string): boolean {
    return this.engine.has(id);
  }

  add(documents: readonly LexicalDocument[]): void {
    for (const document of documents) {
      if (typeof document.id !== "string" || document.id.length === 0) {
        throw new TypeError(
          "Every lexical document needs a non-empty string id; nothing was added.",
        );
      }
    }
    let discarded = false;
    for (const document of documents) {
      if (this.engine.discard(document.id)) discarded = true;
      this.engine.add(document.id, [
        document.heading ?? "",
        document.text ?? "",
        document.front_matter ?? "",
      ]);
    }
    if (discarded) this.maybeCompact();
  }

  remove(ids: readonly string[]): void {
    let discarded = false;
    for (const id of ids) if (this.engine.discard(id)) discarded = true;
    if (discarded) this.maybeCompact();
  }

  queryTerms(query: string): string[] {
    return [...new Set(this.engine.queryTerms(query))];
  }

  forEachPosting(term: string, visit: (id: string, frequency: number) => void): void {
    this.engine.forEachPosting(term, visit);
  }

  search(query: string, options: LexicalSearchOptions = {}): LexicalMatch[] {
    const { limit, filter } = options;
    if (limit !== undefined && limit <= 0) return [];
    return this.engine.search(query, limit, filter);
  }

  toBytes(): Uint8Array {
    return this.engine.toBytes(SNAPSHOT_HEADER);
  }

  exportRaw(): RawLexicalEngine {
    return this.engine.toRaw(SNAPSHOT_HEADER);
  }

  absorb(other: FlatLexicalIndex): void {
    this.engine.absorb(other.engine);
  }

  toJSON(): unknown {
    return {
      format: LEXICAL_INDEX_FORMAT,
      version: LEXICAL_INDEX_VERSION,
      tokenizer_version: TOKENIZER_VERSION,
      data: encodeBase64(this.toBytes()),
    };
  }

  private maybeCompact(): void {
    if (
      this.compactionScheduled ||
      this.engine.dirtCount < VACUUM_MIN_DIRT_COUNT ||
      this.engine.dirtFactor < VACUUM_MIN_DIRT_FACTOR
    )
      return;
    // After the current call: searches and updates meanwhile skip the discarded documents.
    this.compactionScheduled = true;
    const timer = setTimeout(() => {
      this.compactionScheduled = false;
      this.engine.compact();
    }, 0);
    (timer as { unref?: () => void }).unref?.();
  }
}
