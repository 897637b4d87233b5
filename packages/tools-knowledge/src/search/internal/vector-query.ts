import type { VectorMatch, VectorQuery, VectorRecord } from "../../engine/types.js";
import { fuseReciprocalRanks } from "./rank-fusion.js";

/**
 * What the stores share: filters, ordering and reciprocal-rank fusion of {@link VectorMatch}es,
 * and the checks every `query` runs first.
 *
 * @internal
 */

/** The largest chunk index a store holds (PostgreSQL's `integer`): 2,147,483,647. */
export const MAX_CHUNK_INDEX = 2_147_483_647;

/**
 * The id of a record: `<document_key>#<chunk_index>`.
 *
 * @param documentKey - the document's key
 * @param chunkIndex - the chunk's dense index
 * @returns e.g. `"docs/a.md#3"`
 * @internal
 */
export function recordId(documentKey: string, chunkIndex: number): string {
  return `${documentKey}#${chunkIndex}`;
}

/**
 * Whether a record passes a query's filters (tags, document-key prefix, key-or-source prefix).
 *
 * @param record - a stored record
 * @param query - the query
 * @returns `true` when it passes every filter given
 * @internal
 */
export function matchesFilters(record: VectorRecord, query: VectorQuery): boolean {
  const { metadata } = record;
  if (
    query.document_key_prefix !== undefined &&
    !metadata.document_key.startsWith(query.document_key_prefix)
  ) {
    return false;
  }
  if (query.key_or_source_prefix !== undefined) {
    const prefix = query.key_or_source_prefix;
    if (!metadata.document_key.startsWith(prefix) && !(metadata.source ?? "").startsWith(prefix)) {
      return false;
    }
  }
  if (query.tags !== undefined && query.tags.length > 0) {
    const tags = metadata.tags ?? [];
    for (const tag of query.tags) if (!tags.includes(tag)) return false;
  }
  return true;
}

/**
 * Orders matches best first, ties by id (so the same query on the same store gives the same list).
 *
 * @param left - a match
 * @param right - another
 * @returns a negative number when `left` comes first
 * @internal
 */
export function compareMatches(left: VectorMatch, right: VectorMatch): number {
  if (right.score !== left.score) return right.score - left.score;
  return left.record.id < right.record.id ? -1 : left.record.id > right.record.id ? 1 : 0;
}

/**
 * Fuses rankings by reciprocal rank: each record scores `Σ 1 / (60 + rank)` over the rankings it
 * appears in (rank 1-based). Scale-free, so BM25 scores and cosine similarities mix without
 * calibration.
 *
 * @param rankings - the rankings, best first each
 * @param limit - how many fused matches to keep
 * @returns the fused matches, best first (ties by id)
 * @internal
 */
export function fuseByReciprocalRank(
  rankings: ReadonlyArray<readonly VectorMatch[]>,
  limit: number,
): VectorMatch[] {
  const records = new Map<string, VectorRecord>();
  for (const ranking of rankings) {
    for (const match of ranking) records.set(match.record.id, match.record);
  }
  const scores = fuseReciprocalRanks(
    rankings.map((ranking) => ranking.map((match) => match.record.id)),
  );
  return [...scores]
    .map(([id, score]): VectorMatch => ({ record: records.get(id) as VectorRecord, score }))
    .sort(compareMatches)
    .slice(0, limit);
}

/**
 * Checks a query before a store runs it: a positive integer `limit`, a finite vector, and a
 * vector or a text (the text only where the store searches text).
 *
 * @param query - the query
 * @param store - the store's name (for messages) and whether it searches text
 * @throws Error naming what is wrong
 * @internal
 */
export function checkVectorQuery(
  query: VectorQuery,
  store: { name: string; searchesText: boolean },
): void {
  if (!Number.isSafeInteger(query.limit) || query.limit < 1) {
    throw new RangeError(
      `${store.name}: query.limit must be a positive integer, got ${String(query.limit)}.`,
    );
  }
  if (query.vector !== undefined) checkVector(query.vector, `${store.name}: query.vector`);
  const hasText = typeof query.text === "string" && query.text.trim().length > 0;
  if (query.vector === undefined && (!hasText || !store.searchesText)) {
    throw new TypeError(
      store.searchesText
        ? `${store.name}: a query needs a vector or a non-blank text.`
        : `${store.name}: this store searches by vector only — pass query.vector (embed the query text first).`,
    );
  }
}

/**
 * Checks that a vector is a non-empty `Float32Array` (or array) of finite numbers.
 *
 * @param vector - the vector
 * @param what - its name, for the message
 * @throws TypeError naming the problem
 * @internal
 */
export function checkVector(vector: ArrayLike<number>, what: string): void {
  if (!(vector instanceof Float32Array) && !Array.isArray(vector)) {
    throw new TypeError(`${what} must be a Float32Array.`);
  }
  if (vector.length === 0) throw new TypeError(`${what} is empty.`);
  for (let index = 0; index < vector.length; index += 1) {
    if (!Number.isFinite(vector[index])) {
      throw new TypeError(`${what} holds a non-finite number at position ${index}.`);
    }
  }
}
