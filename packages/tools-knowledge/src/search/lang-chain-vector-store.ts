import { AgentoolError, parseOptions } from "@agentool/contract";
import { z } from "zod";
import type {
  VectorMatch,
  VectorQuery,
  VectorRecord,
  VectorRecordMetadata,
  VectorStore,
} from "../engine/types.js";
import {
  checkVector,
  checkVectorQuery,
  compareMatches,
  matchesFilters,
} from "./internal/vector-query.js";

/** A LangChain `Document` as this adapter reads and writes it (structural: no LangChain import). */
export interface LangChainDocumentLike {
  /** The text. */
  pageContent: string;
  /** Flat metadata (this adapter writes `document_key`, `chunk_index`, … and `record_id`). */
  metadata: Record<string, unknown>;
  /** The document's id, when the store keeps one. */
  id?: string;
}

/**
 * The part of a LangChain `VectorStore` (`@langchain/core/vectorstores`) the adapter uses —
 * structural, so any LangChain store fits without this package importing LangChain.
 */
export interface LangChainVectorStoreLike {
  /** Adds documents with their vectors (`ids` for stores that take them). */
  addVectors(
    vectors: number[][],
    documents: LangChainDocumentLike[],
    options?: { ids?: string[] },
  ): Promise<unknown>;
  /** The `k` nearest documents with their scores. */
  similaritySearchVectorWithScore(
    query: number[],
    k: number,
    filter?: unknown,
  ): Promise<Array<[LangChainDocumentLike, number]>>;
  /** Deletes by ids (many stores implement it; the base class throws "Not implemented."). */
  delete?(parameters: { ids: string[] }): Promise<unknown>;
}

/** The filters of one query, for {@link LangChainVectorStoreOptions.filter}. */
export interface LangChainFilterRequest {
  /** Records must carry every one of these tags. */
  tags?: string[];
  /** Records' `document_key` must start with this. */
  documentKeyPrefix?: string;
  /** Records' `document_key` or `source` must start with this. */
  keyOrSourcePrefix?: string;
}

/** Options of {@link createLangChainVectorStore}. */
export interface LangChainVectorStoreOptions {
  /**
   * Builds the store's own filter (its `FilterType`: a function for `MemoryVectorStore`, an object
   * for most database stores) from a query's filters, so the store filters before it ranks.
   * Results are checked against the filters here either way; without a builder the adapter
   * over-fetches (doubling `k` up to `maxFetch`) and filters what comes back.
   */
  filter?: (request: LangChainFilterRequest) => unknown;
  /**
   * What the store's scores are: `"similarity"` (higher is better; `MemoryVectorStore`, most
   * stores) or `"distance"` (lower is better; turned into `1 − distance`). Default `"similarity"`.
   */
  scores?: "similarity" | "distance";
  /**
   * How `upsert` replaces a record: `"delete-then-add"` (default: delete the ids, then add) or
   * `"add"` (the store's `addVectors` with `ids` already replaces). Stores that cannot delete
   * (`MemoryVectorStore`) need the `delete` option to replace records; without it their duplicates
   * are dropped from results (the best-scoring copy is kept).
   */
  upsertMode?: "delete-then-add" | "add";
  /** Deletes records by id, for stores without a working `delete`. */
  delete?: (ids: string[]) => Promise<unknown>;
  /** Largest `k` asked of the store when filtering here. Default 1,000. */
  maxFetch?: number;
}

const storeSchema = z.custom<LangChainVectorStoreLike>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as LangChainVectorStoreLike).addVectors === "function" &&
    typeof (value as LangChainVectorStoreLike).similaritySearchVectorWithScore === "function",
  {
    error:
      "expected a LangChain VectorStore ({ addVectors, similaritySearchVectorWithScore, delete? })",
  },
);

const functionSchema = (what: string) =>
  z.custom<(...parameters: never[]) => unknown>((value) => typeof value === "function", {
    error: `expected ${what}`,
  });

const optionsSchema = z.object({
  filter: functionSchema("a function (request) => filter").optional(),
  scores: z.enum(["similarity", "distance"]).optional(),
  upsertMode: z.enum(["delete-then-add", "add"]).optional(),
  delete: functionSchema("a function (ids: string[]) => Promise").optional(),
  maxFetch: z.number().int().min(1).max(100_000).optional(),
});

function isNotImplemented(error: unknown): boolean {
  return error instanceof Error && /not implemented/i.test(error.message);
}

function toStringList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string" && value.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // not a JSON list: fall through
    }
  }
  return undefined;
}

/**
 * Turns a LangChain document written by this adapter back into a record. Integer fields are
 * coerced with `Number()` (stores that serialise metadata return strings), lists that come back as
 * JSON text are parsed.
 *
 * @param document - a document from the store
 * @returns the record (no vector: LangChain stores do not return them)
 */
function toRecord(document: LangChainDocumentLike): VectorRecord {
  const metadata = document.metadata ?? {};
  const documentKey = String(metadata.document_key ?? "");
  const chunkIndex = Number(metadata.chunk_index ?? 0);
  const recordMetadata: VectorRecordMetadata = {
    document_key: documentKey,
    chunk_index: chunkIndex,
    start_line: Number(metadata.start_line ?? 1),
    end_line: Number(metadata.end_line ?? metadata.start_line ?? 1),
    heading_trail: toStringList(metadata.heading_trail) ?? [],
  };
  if (typeof metadata.source === "string") recordMetadata.source = metadata.source;
  const tags = toStringList(metadata.tags);
  if (tags !== undefined) recordMetadata.tags = tags;
  if (typeof metadata.created_at === "string") recordMetadata.created_at = metadata.created_at;
  else if (metadata.created_at instanceof Date)
    recordMetadata.created_at = metadata.created_at.toISOString();
  const id =
    typeof metadata.record_id === "string" && metadata.record_id.length > 0
      ? metadata.record_id
      : typeof document.id === "string" && document.id.length > 0
        ? document.id
        : `${documentKey}#${chunkIndex}`;
  return { id, text: String(document.pageContent ?? ""), metadata: recordMetadata };
}

function toDocument(record: VectorRecord): LangChainDocumentLike {
  const { metadata } = record;
  const flat: Record<string, unknown> = {
    record_id: record.id,
    document_key: metadata.document_key,
    chunk_index: metadata.chunk_index,
    start_line: metadata.start_line,
    end_line: metadata.end_line,
    heading_trail: [...metadata.heading_trail],
  };
  if (metadata.source !== undefined) flat.source = metadata.source;
  if (metadata.tags !== undefined) flat.tags = [...metadata.tags];
  if (metadata.created_at !== undefined) flat.created_at = metadata.created_at;
  return { pageContent: record.text, metadata: flat, id: record.id };
}

/**
 * Adapts any LangChain `VectorStore` (`MemoryVectorStore` from `@langchain/classic`, PGVector,
 * Chroma, Pinecone, Qdrant, …) to this family's {@link VectorStore} port, so `ingest`, `remember`
 * and a store-backed `search_knowledge` work over it. Structural: the store needs `addVectors`,
 * `similaritySearchVectorWithScore` and (to replace and delete records) `delete({ ids })`.
 *
 * - Records become documents with flat metadata (`document_key`, `chunk_index`, `start_line`,
 *   `end_line`, `heading_trail`, `source`, `tags`, `created_at`, `record_id`) and the record id as
 *   the document id; reading back coerces integers with `Number()` and parses lists stored as JSON.
 * - Vector search only (`searchesText: false`): the store-backed search tool needs an embedder.
 * - Filters (tags, prefixes) go to the store through the `filter` builder when given, and are
 *   checked here on every result either way (over-fetching when the store cannot filter).
 * - Results are re-sorted best first (ties by id) and deduplicated by id (the best copy kept), so a
 *   store that cannot replace records still answers with each record once, in a stable order.
 * - No `range` (a LangChain store has no indexed range query): hits are not widened, and a shorter
 *   re-ingest cannot find the old chunks past its end.
 *
 * @param store - the LangChain store
 * @param options - the filter builder, the score kind, how to replace, a delete for stores without one
 * @returns the port
 * @throws AgentoolError when `store` or the options are not what is expected
 * @example
 * import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
 *
 * const langChainStore = new MemoryVectorStore(embeddings);
 * const store = createLangChainVectorStore(langChainStore, {
 *   filter: (request) => (document) => (request.tags ?? []).every((tag) => document.metadata.tags?.includes(tag)),
 *   delete: async (ids) => {
 *     langChainStore.memoryVectors = langChainStore.memoryVectors.filter((vector) => !ids.includes(vector.id ?? ""));
 *   },
 * });
 * await ingest(documents, { store, embeddings });
 */
export function createLangChainVectorStore(
  store: LangChainVectorStoreLike,
  options: LangChainVectorStoreOptions = {},
): VectorStore {
  const checked = storeSchema.safeParse(store);
  if (!checked.success) {
    throw new AgentoolError(
      "createLangChainVectorStore: expected a LangChain VectorStore ({ addVectors, similaritySearchVectorWithScore, delete? }).",
    );
  }
  const parsed = parseOptions("createLangChainVectorStore", optionsSchema, options);
  const scores = parsed.scores ?? "similarity";
  const upsertMode = parsed.upsertMode ?? "delete-then-add";
  const maxFetch = parsed.maxFetch ?? 1_000;
  const customDelete = parsed.delete as ((ids: string[]) => Promise<unknown>) | undefined;
  const buildFilter = parsed.filter as ((request: LangChainFilterRequest) => unknown) | undefined;
  /** Set once the store's `delete` said "Not implemented": upserts then only add. */
  let storeCannotDelete = typeof store.delete !== "function";

  const deleteIds = async (ids: string[], strict: boolean): Promise<void> => {
    if (ids.length === 0) return;
    if (customDelete !== undefined) {
      await customDelete(ids);
      return;
    }
    if (!storeCannotDelete && typeof store.delete === "function") {
      try {
        await store.delete({ ids });
        return;
      } catch (error) {
        if (!isNotImplemented(error)) throw error;
        storeCannotDelete = true;
      }
    }
    if (strict) {
      throw new Error(
        "createLangChainVectorStore: this LangChain store cannot delete (delete is not implemented) — pass the delete option.",
      );
    }
  };

  return {
    searchesText: false,
    async upsert(records, upsertOptions) {
      upsertOptions?.signal?.throwIfAborted();
      const latest = new Map<string, VectorRecord>();
      for (const [position, record] of records.entries()) {
        if (record.vector === undefined) {
          throw new TypeError(
            `createLangChainVectorStore: records[${position}] has no vector — a LangChain store needs one (ingest with embeddings).`,
          );
        }
        checkVector(record.vector, `createLangChainVectorStore: records[${position}].vector`);
        latest.delete(record.id);
        latest.set(record.id, record);
      }
      const unique = [...latest.values()];
      if (unique.length === 0) return;
      const ids = unique.map((record) => record.id);
      if (upsertMode === "delete-then-add") await deleteIds(ids, false);
      upsertOptions?.signal?.throwIfAborted();
      await store.addVectors(
        unique.map((record) => Array.from(record.vector as Float32Array)),
        unique.map(toDocument),
        { ids },
      );
    },
    async query(query: VectorQuery, queryOptions) {
      queryOptions?.signal?.throwIfAborted();
      checkVectorQuery(query, { name: "createLangChainVectorStore", searchesText: false });
      if (query.vector === undefined)
        throw new TypeError("createLangChainVectorStore: query.vector is required.");
      const vector = Array.from(query.vector);
      const request: LangChainFilterRequest = {};
      if (query.tags !== undefined && query.tags.length > 0) request.tags = [...query.tags];
      if (query.document_key_prefix !== undefined)
        request.documentKeyPrefix = query.document_key_prefix;
      if (query.key_or_source_prefix !== undefined)
        request.keyOrSourcePrefix = query.key_or_source_prefix;
      const filtered = Object.keys(request).length > 0;
      const nativeFilter = filtered && buildFilter !== undefined ? buildFilter(request) : undefined;
      let k = Math.min(query.limit, maxFetch);
      for (;;) {
        const found =
          nativeFilter === undefined
            ? await store.similaritySearchVectorWithScore(vector, k)
            : await store.similaritySearchVectorWithScore(vector, k, nativeFilter);
        const best = new Map<string, VectorMatch>();
        for (const [document, raw] of found) {
          const record = toRecord(document);
          if (!matchesFilters(record, query)) continue;
          const numeric = Number(raw);
          const score = Number.isFinite(numeric)
            ? scores === "distance"
              ? 1 - numeric
              : numeric
            : 0;
          const seen = best.get(record.id);
          if (seen === undefined || score > seen.score) best.set(record.id, { record, score });
        }
        const matches = [...best.values()].sort(compareMatches);
        // Enough, or the store has nothing more to give, or the fetch cap is reached.
        if (matches.length >= query.limit || found.length < k || k >= maxFetch) {
          return matches.slice(0, query.limit);
        }
        queryOptions?.signal?.throwIfAborted();
        k = Math.min(k * 2, maxFetch);
      }
    },
    async delete(ids, deleteOptions) {
      deleteOptions?.signal?.throwIfAborted();
      await deleteIds([...ids], true);
    },
  };
}
