import MiniSearch, { type Options, type SearchOptions } from "minisearch";
import { createLexicalScorer, type LexicalScorer } from "./internal/lexical-scorer.js";
import {
  createSnapshotTracker,
  packPublicEngine,
  restoreEngine,
  type SnapshotTracker,
  type TrackedTerm,
} from "./internal/lexical-snapshot.js";
import {
  countDocumentTerms,
  type TermCount,
  TOKENIZER_VERSION,
  termNumberingGeneration,
  tokenize,
} from "./internal/tokenize.js";

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

/** A BM25 index over {@link LexicalDocument}s (MiniSearch underneath). */
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
  /** Whether a document with this id is indexed. */
  has(id: string): boolean;
  /** How many documents are indexed. */
  readonly size: number;
  /** A JSON-serialisable snapshot that {@link loadLexicalIndex} restores. */
  toJSON(): unknown;
}

/** Version of the snapshot {@link LexicalIndex.toJSON} writes; older snapshots are refused. */
export const LEXICAL_INDEX_VERSION = 3;

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

/** Terms cleaned per vacuum step (steps are a millisecond apart, so the event loop stays free). */
export const VACUUM_BATCH_TERMS = 100;

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

const searchOptions: SearchOptions = {
  boost: { ...LEXICAL_FIELD_BOOSTS },
  combineWith: "OR",
  prefix: matchesAsPrefix,
  fuzzy: false,
  bm25: { ...BM25 },
  weights: { prefix: PREFIX_WEIGHT, fuzzy: 0.45 },
  tokenize: tokenizeQuery,
  processTerm: (term) => term,
};

/**
 * The MiniSearch options of every lexical index (exported for the equivalence test only).
 *
 * @internal
 */
export const LEXICAL_MINISEARCH_OPTIONS: Options<LexicalDocument> = {
  idField: "id",
  fields: [...FIELDS],
  storeFields: [],
  tokenize: (text) => tokenize(text, { mode: "document" }),
  processTerm: (term) => term,
  autoVacuum: false,
  searchOptions,
};

function isCjkTerm(term: string): boolean {
  const code = term.codePointAt(0) ?? 0;
  return code >= 0x2e80;
}

/**
 * Creates an empty BM25 index (MiniSearch 7.2's BM25+, k = 1.2, b = 0.7, d = 0.5) over three
 * fields — `heading` (boost 1.5), `text` (1), `front_matter` (1.5) — with the family's English + CJK
 * tokenizer (lowercased, diacritics folded, light stemming, CJK bigrams, stop words dropped) and
 * prefix matching for terms of five letters or more. It stores ids only.
 *
 * `remove` (and `add` of an id already present) uses MiniSearch's `discard`, so an update costs
 * only the changed documents; the index is vacuumed in the background, a hundred terms at a time,
 * when discarded documents reach {@link VACUUM_MIN_DIRT_COUNT} and {@link VACUUM_MIN_DIRT_FACTOR}
 * of the index (searches, updates and snapshots meanwhile skip the discarded documents).
 *
 * @returns an empty index
 * @example
 * const index = createLexicalIndex();
 * index.add([{ id: "a.md#0", heading: "Power > Limits", text: "The regulator caps at 5V.", front_matter: "" }]);
 * index.search("regulator limits"); // [{ id: "a.md#0", score: … }]
 */
export function createLexicalIndex(): LexicalIndex {
  return new MiniSearchLexicalIndex(new MiniSearch<LexicalDocument>(LEXICAL_MINISEARCH_OPTIONS));
}

/**
 * Restores an index from a {@link LexicalIndex.toJSON} snapshot (the object, or its JSON text).
 *
 * @param json - the snapshot
 * @returns the restored index, searchable and updatable like a new one
 * @throws {LexicalIndexLoadError} when the snapshot is corrupt, truncated, of another format or
 * version, or was built with another tokenizer version — rebuild the index then
 * @example
 * const copy = loadLexicalIndex(JSON.parse(JSON.stringify(index.toJSON())));
 */
export function loadLexicalIndex(json: unknown): LexicalIndex {
  let snapshot: unknown = json;
  if (typeof snapshot === "string") {
    try {
      snapshot = JSON.parse(snapshot);
    } catch (error) {
      throw new LexicalIndexLoadError("The lexical index snapshot is not valid JSON.", {
        cause: error,
      });
    }
  }
  if (!isRecord(snapshot) || snapshot.format !== LEXICAL_INDEX_FORMAT) {
    throw new LexicalIndexLoadError(`The value is not a ${LEXICAL_INDEX_FORMAT} snapshot.`);
  }
  if (snapshot.version !== LEXICAL_INDEX_VERSION) {
    throw new LexicalIndexLoadError(
      `The lexical index snapshot has version ${String(snapshot.version)}; this version reads ${LEXICAL_INDEX_VERSION} only.`,
    );
  }
  if (snapshot.tokenizer_version !== TOKENIZER_VERSION) {
    throw new LexicalIndexLoadError(
      `The lexical index was built with tokenizer version ${String(snapshot.tokenizer_version)}; this version uses ${TOKENIZER_VERSION}.`,
    );
  }
  try {
    return new MiniSearchLexicalIndex(restoreEngine(snapshot, FIELDS, LEXICAL_MINISEARCH_OPTIONS));
  } catch (error) {
    throw new LexicalIndexLoadError(
      `The lexical index snapshot is damaged: ${error instanceof Error ? error.message : String(error)}.`,
      { cause: error },
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The MiniSearch 7.2 internals the add fast path uses (the version is pinned exactly). */
interface MiniSearchInternals {
  _documentCount: number;
  _idToShortId: Map<string, number>;
  _fieldIds: Record<string, number>;
  addDocumentId(id: string): number;
  addFieldLength(documentId: number, fieldId: number, count: number, length: number): void;
  saveStoredFields(documentId: number, document: LexicalDocument): void;
}

/**
 * Makes adds about twice as fast and snapshots incremental. The replacement of MiniSearch's `add`
 * does what MiniSearch's own does, in the same order (so the index, its snapshot and every score
 * are the same), with three savings: each field is tokenized into its distinct terms with their
 * counts ({@link countDocumentTerms}: no `Set` for the field length, one posting update per
 * distinct term instead of one per token); the tracker remembers each term's posting map in a plain
 * `Map` instead of a radix-tree walk per term (a map in the tree is never empty, so an emptied one —
 * a term a vacuum deleted — is looked up again); and it notes each document's first posting in a
 * term so the next snapshot re-encodes only the terms that changed.
 */
function installTrackedAdd(engine: MiniSearch<LexicalDocument>, tracker: SnapshotTracker): void {
  const internals = engine as unknown as Partial<MiniSearchInternals>;
  if (
    typeof internals.addDocumentId !== "function" ||
    typeof internals.addFieldLength !== "function" ||
    typeof internals.saveStoredFields !== "function" ||
    !(internals._idToShortId instanceof Map) ||
    typeof internals._documentCount !== "number" ||
    typeof internals._fieldIds !== "object" ||
    FIELDS.some((field, index) => internals._fieldIds?.[field] !== index)
  )
    return;
  const engineInternals = internals as MiniSearchInternals;
  // Each term's tracker entry by the tokenizer's number for it: an array read instead of a lookup
  // in the tracker's map of every term.
  let entries: Array<TrackedTerm | undefined> = [];
  let generation = termNumberingGeneration();
  engine.add = (document: LexicalDocument): void => {
    const id = document.id;
    if (id == null) throw new Error('MiniSearch: document does not have ID field "id"');
    if (engineInternals._idToShortId.has(id)) throw new Error(`MiniSearch: duplicate ID ${id}`);
    const documentId = engineInternals.addDocumentId(id);
    engineInternals.saveStoredFields(documentId, document);
    for (let fieldId = 0; fieldId < FIELDS.length; fieldId += 1) {
      const value: unknown = document[FIELDS[fieldId] as (typeof FIELDS)[number]];
      if (value == null) continue;
      const terms = countDocumentTerms(typeof value === "string" ? value : String(value));
      if (termNumberingGeneration() !== generation) {
        generation = termNumberingGeneration();
        entries = [];
      }
      engineInternals.addFieldLength(
        documentId,
        fieldId,
        engineInternals._documentCount - 1,
        terms.length,
      );
      for (let index = 0; index < terms.length; index += 1) {
        const { term, count, number } = terms[index] as TermCount;
        let entry = entries[number];
        if (entry === undefined || !tracker.isCurrent(entry)) {
          entry = tracker.postingsOf(term);
          entries[number] = entry;
        }
        const fieldPostings = entry.postings.get(fieldId);
        if (fieldPostings === undefined) {
          entry.postings.set(fieldId, new Map([[documentId, count]]));
          tracker.firstOccurrence(documentId, entry);
          continue;
        }
        const frequency = fieldPostings.get(documentId);
        if (frequency === undefined) {
          fieldPostings.set(documentId, count);
          tracker.firstOccurrence(documentId, entry);
        } else fieldPostings.set(documentId, frequency + count);
      }
    }
  };
}

class MiniSearchLexicalIndex implements LexicalIndex {
  private readonly tracker: SnapshotTracker | undefined;

  private readonly scorer: LexicalScorer | undefined;

  constructor(private readonly engine: MiniSearch<LexicalDocument>) {
    this.tracker = createSnapshotTracker(engine);
    if (this.tracker !== undefined) installTrackedAdd(engine, this.tracker);
    this.scorer = createLexicalScorer(engine as MiniSearch<unknown>, {
      fieldBoosts: FIELDS.map((field) => LEXICAL_FIELD_BOOSTS[field]),
      bm25: BM25,
      prefixWeight: PREFIX_WEIGHT,
      prefix: matchesAsPrefix,
      tokenize: tokenizeQuery,
    });
  }

  get size(): number {
    return this.engine.documentCount;
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
      if (this.engine.has(document.id)) {
        this.discard(document.id);
        discarded = true;
      }
      this.engine.add({
        id: document.id,
        heading: document.heading ?? "",
        text: document.text ?? "",
        front_matter: document.front_matter ?? "",
      });
    }
    this.scorer?.invalidate();
    if (discarded) this.maybeVacuum();
  }

  remove(ids: readonly string[]): void {
    let discarded = false;
    for (const id of ids) {
      if (!this.engine.has(id)) continue;
      this.discard(id);
      discarded = true;
    }
    this.scorer?.invalidate();
    if (discarded) this.maybeVacuum();
  }

  search(query: string, options: LexicalSearchOptions = {}): LexicalMatch[] {
    const { limit, filter } = options;
    if (limit !== undefined && limit <= 0) return [];
    if (this.scorer !== undefined) return this.scorer.search(query, limit, filter);
    const results = this.engine.search(
      query,
      filter === undefined ? {} : { filter: (result) => filter(String(result.id)) },
    );
    const count = limit === undefined ? results.length : Math.min(limit, results.length);
    const matches: LexicalMatch[] = new Array(count);
    for (let index = 0; index < count; index += 1) {
      const result = results[index] as (typeof results)[number];
      matches[index] = { id: String(result.id), score: result.score };
    }
    return matches;
  }

  toJSON(): unknown {
    return {
      format: LEXICAL_INDEX_FORMAT,
      version: LEXICAL_INDEX_VERSION,
      tokenizer_version: TOKENIZER_VERSION,
      ...(this.tracker?.pack(FIELDS.length) ?? packPublicEngine(this.engine, FIELDS.length)),
    };
  }

  private discard(id: string): void {
    this.tracker?.discarding(id);
    this.engine.discard(id);
  }

  private maybeVacuum(): void {
    // While a pass runs, MiniSearch queues (at most) one more, which cleans what the running one
    // started too late to see.
    if (
      this.engine.dirtCount < VACUUM_MIN_DIRT_COUNT ||
      this.engine.dirtFactor < VACUUM_MIN_DIRT_FACTOR
    )
      return;
    // In steps of VACUUM_BATCH_TERMS terms a millisecond apart: searches and updates run between
    // them (each sees a consistent index: discarded documents are skipped until they are gone).
    // The promise never rejects.
    this.tracker?.vacuuming();
    void this.engine.vacuum({ batchSize: VACUUM_BATCH_TERMS, batchWait: 1 });
  }
}
