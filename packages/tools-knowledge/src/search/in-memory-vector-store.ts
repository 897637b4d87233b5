import { similarity } from "ml-distance";
import { createLexicalIndex, type LexicalIndex } from "../engine/lexical-index.js";
import type { VectorMatch, VectorQuery, VectorRecord, VectorStore } from "../engine/types.js";
import {
  checkVector,
  checkVectorQuery,
  compareMatches,
  fuseByReciprocalRank,
  matchesFilters,
} from "./internal/vector-query.js";

/** The in-memory store: the {@link VectorStore} port plus what a test or a small app may want. */
export interface InMemoryVectorStore extends VectorStore {
  /** `true`: text queries are ranked by BM25. */
  readonly searchesText: true;
  /** The records of one document with chunk_index in `[from, to]`, in order. */
  range(documentKey: string, from: number, to: number): Promise<VectorRecord[]>;
  /** How many records and distinct documents it holds. */
  count(): Promise<{ records: number; documents: number }>;
  /** The vector length of the stored vectors (`undefined` until the first vector is stored). */
  readonly dimensions: number | undefined;
  /** How many records it holds (synchronous). */
  readonly size: number;
  /** Every record, in id order (copies). */
  records(): VectorRecord[];
  /** Removes every record. */
  clear(): void;
}

function copyRecord(record: VectorRecord): VectorRecord {
  const metadata = { ...record.metadata, heading_trail: [...record.metadata.heading_trail] };
  if (record.metadata.tags !== undefined) metadata.tags = [...record.metadata.tags];
  const copy: VectorRecord = { id: record.id, text: record.text, metadata };
  if (record.vector !== undefined) copy.vector = Float32Array.from(record.vector);
  return copy;
}

function checkRecord(record: VectorRecord, position: number): void {
  const where = `createInMemoryVectorStore: records[${position}]`;
  if (typeof record !== "object" || record === null)
    throw new TypeError(`${where} is not a record.`);
  if (typeof record.id !== "string" || record.id.length === 0)
    throw new TypeError(`${where}.id must be a non-empty string.`);
  if (typeof record.text !== "string") throw new TypeError(`${where}.text must be a string.`);
  const metadata = record.metadata;
  if (typeof metadata !== "object" || metadata === null)
    throw new TypeError(`${where}.metadata is missing.`);
  if (typeof metadata.document_key !== "string")
    throw new TypeError(`${where}.metadata.document_key must be a string.`);
  for (const field of ["chunk_index", "start_line", "end_line"] as const) {
    if (!Number.isSafeInteger(Number(metadata[field]))) {
      throw new TypeError(`${where}.metadata.${field} must be an integer.`);
    }
  }
  if (!Array.isArray(metadata.heading_trail))
    throw new TypeError(`${where}.metadata.heading_trail must be an array.`);
  if (record.vector !== undefined) checkVector(record.vector, `${where}.vector`);
}

/** document key → chunk index → id */
type DocumentPositions = Map<string, Map<number, string>>;

/**
 * The state behind {@link createInMemoryVectorStore}: records by id, their positions per document,
 * the BM25 index of their texts and the vector length. Methods validate as the store's port does.
 */
class InMemoryVectorIndex {
  private readonly byId = new Map<string, VectorRecord>();
  private readonly byDocument: DocumentPositions = new Map();
  private lexical: LexicalIndex = createLexicalIndex();
  private vectorDimensions: number | undefined;
  private vectorCount = 0;

  get dimensions(): number | undefined {
    return this.vectorDimensions;
  }

  get size(): number {
    return this.byId.size;
  }

  async upsert(
    records: readonly VectorRecord[],
    options?: { signal?: AbortSignal },
  ): Promise<void> {
    options?.signal?.throwIfAborted();
    if (!Array.isArray(records))
      throw new TypeError("createInMemoryVectorStore: upsert takes an array of records.");
    this.checkBatch(records);
    const documents = [];
    for (const record of records) {
      const copy = copyRecord(record);
      copy.metadata.chunk_index = Number(copy.metadata.chunk_index);
      copy.metadata.start_line = Number(copy.metadata.start_line);
      copy.metadata.end_line = Number(copy.metadata.end_line);
      this.store(copy);
      documents.push({
        id: copy.id,
        heading: copy.metadata.heading_trail.join(" > "),
        text: copy.text,
        front_matter: "",
      });
    }
    this.lexical.add(documents);
  }

  async query(query: VectorQuery, options?: { signal?: AbortSignal }): Promise<VectorMatch[]> {
    options?.signal?.throwIfAborted();
    checkVectorQuery(query, { name: "createInMemoryVectorStore", searchesText: true });
    const text =
      typeof query.text === "string" && query.text.trim().length > 0 ? query.text : undefined;
    const vector = query.vector === undefined ? undefined : Float32Array.from(query.vector);
    let matches: VectorMatch[];
    if (vector !== undefined && text !== undefined) {
      matches = fuseByReciprocalRank(
        [this.vectorRanking(query, vector), this.textRanking(query, text)],
        query.limit,
      );
    } else if (vector !== undefined) matches = this.vectorRanking(query, vector);
    else matches = this.textRanking(query, text as string);
    return matches.map((match) => ({ record: copyRecord(match.record), score: match.score }));
  }

  async delete(ids: readonly string[], options?: { signal?: AbortSignal }): Promise<void> {
    options?.signal?.throwIfAborted();
    const present = ids.filter((id) => this.byId.has(id));
    for (const id of present) this.forget(id);
    this.lexical.remove(present);
  }

  async range(documentKey: string, from: number, to: number): Promise<VectorRecord[]> {
    const positions = this.byDocument.get(documentKey);
    if (positions === undefined) return [];
    const low = Number(from);
    const high = Number(to);
    const found: VectorRecord[] = [];
    if (high - low < positions.size) {
      for (let index = Math.max(0, low); index <= high; index += 1) {
        const id = positions.get(index);
        const record = id === undefined ? undefined : this.byId.get(id);
        if (record !== undefined) found.push(copyRecord(record));
      }
      return found;
    }
    for (const [index, id] of positions) {
      const record = this.byId.get(id);
      if (index >= low && index <= high && record !== undefined) found.push(copyRecord(record));
    }
    return found.sort((left, right) => left.metadata.chunk_index - right.metadata.chunk_index);
  }

  async count(): Promise<{ records: number; documents: number }> {
    return { records: this.byId.size, documents: this.byDocument.size };
  }

  records(): VectorRecord[] {
    return [...this.byId.values()]
      .map(copyRecord)
      .sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  }

  clear(): void {
    this.byId.clear();
    this.byDocument.clear();
    this.lexical = createLexicalIndex();
    this.vectorDimensions = undefined;
    this.vectorCount = 0;
  }

  /** Checks every record of a batch, and that its vectors have one length (the stored one). */
  private checkBatch(records: readonly VectorRecord[]): void {
    let batchDimensions = this.vectorDimensions;
    for (const [position, record] of records.entries()) {
      checkRecord(record, position);
      if (record.vector === undefined) continue;
      batchDimensions ??= record.vector.length;
      if (record.vector.length !== batchDimensions) {
        throw new RangeError(
          `createInMemoryVectorStore: records[${position}].vector has ${record.vector.length} dimensions, the store holds ${batchDimensions}-dimension vectors — one store holds one embedder's vectors.`,
        );
      }
    }
  }

  /** Stores a checked copy, replacing any record with its id. */
  private store(copy: VectorRecord): void {
    this.forget(copy.id);
    this.byId.set(copy.id, copy);
    if (copy.vector !== undefined) {
      this.vectorCount += 1;
      this.vectorDimensions = copy.vector.length;
    }
    let positions = this.byDocument.get(copy.metadata.document_key);
    if (positions === undefined) {
      positions = new Map();
      this.byDocument.set(copy.metadata.document_key, positions);
    }
    positions.set(copy.metadata.chunk_index, copy.id);
  }

  private forget(id: string): void {
    const old = this.byId.get(id);
    if (old === undefined) return;
    this.byId.delete(id);
    if (old.vector !== undefined) this.vectorCount -= 1;
    const { document_key: documentKey, chunk_index: chunkIndex } = old.metadata;
    const positions = this.byDocument.get(documentKey);
    if (positions?.get(chunkIndex) === id) positions.delete(chunkIndex);
    if (positions !== undefined && positions.size === 0) this.byDocument.delete(documentKey);
    if (this.vectorCount === 0) this.vectorDimensions = undefined;
  }

  private vectorRanking(query: VectorQuery, vector: Float32Array): VectorMatch[] {
    const dimensions = this.vectorDimensions;
    if (dimensions !== undefined && vector.length !== dimensions) {
      throw new RangeError(
        `createInMemoryVectorStore: the query vector has ${vector.length} dimensions, the stored vectors ${dimensions} — embed the query with the embedder that filled the store.`,
      );
    }
    const matches: VectorMatch[] = [];
    for (const record of this.byId.values()) {
      if (record.vector === undefined || !matchesFilters(record, query)) continue;
      const score = similarity.cosine(vector, record.vector);
      matches.push({ record, score: Number.isFinite(score) ? score : 0 });
    }
    return matches.sort(compareMatches).slice(0, query.limit);
  }

  private textRanking(query: VectorQuery, text: string): VectorMatch[] {
    const filtered =
      query.tags !== undefined ||
      query.document_key_prefix !== undefined ||
      query.key_or_source_prefix !== undefined;
    const found = this.lexical.search(text, {
      limit: query.limit,
      ...(filtered
        ? {
            filter: (id: string) => {
              const record = this.byId.get(id);
              return record !== undefined && matchesFilters(record, query);
            },
          }
        : {}),
    });
    const matches: VectorMatch[] = [];
    for (const { id, score } of found) {
      const record = this.byId.get(id);
      if (record !== undefined) matches.push({ record, score });
    }
    return matches.sort(compareMatches);
  }
}

/**
 * Creates an in-memory {@link VectorStore}: vectors ranked by cosine similarity (`ml-distance`),
 * texts by BM25 (this family's lexical index: English and CJK tokenizer, heading weight), a query
 * with both answered by the two rankings fused by reciprocal rank (k = 60). So it searches with no
 * embedder at all (`searchesText: true`). Filters: every tag, a document-key prefix, a
 * key-or-source prefix. `range()` serves window expansion; `count()` the search tool's summary.
 *
 * Upserting an id replaces the record; all vectors must have one length (vector spaces never mix).
 * Records are copied in and out, so callers cannot change what is stored by accident. A vector
 * query scans every record (exact, not approximate): fine for thousands of chunks; use the
 * pgvector store when a corpus outgrows one process.
 *
 * @returns the store
 * @example
 * const store = createInMemoryVectorStore();
 * await ingest([{ text: "# Power\nThe regulator caps at 5 V." }], { store });
 * await store.query({ text: "regulator limit", limit: 5 });
 * // → [{ record: { id: "sha256-…#0", text: "# Power\n…", metadata: { … } }, score: 1.73 }]
 */
export function createInMemoryVectorStore(): InMemoryVectorStore {
  const index = new InMemoryVectorIndex();
  // A plain object of functions over the index, as before: methods may be passed around unbound.
  return {
    searchesText: true,
    get dimensions() {
      return index.dimensions;
    },
    get size() {
      return index.size;
    },
    upsert: (records, options) => index.upsert(records, options),
    query: (query, options) => index.query(query, options),
    delete: (ids, options) => index.delete(ids, options),
    range: (documentKey, from, to) => index.range(documentKey, from, to),
    count: () => index.count(),
    records: () => index.records(),
    clear: () => index.clear(),
  };
}
