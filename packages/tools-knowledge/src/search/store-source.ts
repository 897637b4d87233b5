import { AgentoolError, errorMessage, parseOptions } from "@agentool/contract";
import { z } from "zod";
import {
  KnowledgeSourceError,
  QUOTED_MESSAGE_CHARACTERS,
} from "../engine/knowledge-source-error.js";
import { embeddingsSchema, vectorStoreSchema } from "../engine/option-schemas.js";
import type {
  Embeddings,
  EmptyReason,
  KnowledgeHit,
  KnowledgeSearchResult,
  KnowledgeSource,
  VectorMatch,
  VectorQuery,
  VectorRecord,
  VectorStore,
} from "../engine/types.js";
import { checkVector } from "./internal/vector-query.js";
import {
  DEFAULT_MAX_PASSAGE_CHARACTERS,
  expandWindows,
  MAX_WINDOW,
  type WindowChunk,
} from "./window-expansion.js";

/**
 * Default length of a store search's result list: the best 100 matches. `total` counts this list,
 * so paging never runs past what the store ranked.
 */
export const DEFAULT_STORE_MAX_RESULTS = 100;

/** Options of {@link createStoreSource}. */
export interface StoreSourceOptions {
  /** The store `ingest` / `remember` filled. */
  store: VectorStore;
  /**
   * The embedder that filled it (same model: vector spaces never mix). With one, queries are
   * embedded (and fused with BM25 on stores that search text); without one, the store must search
   * text.
   */
  embeddings?: Embeddings;
  /**
   * Neighbouring chunks to stitch onto each side of a hit (window expansion; needs `store.range`).
   * Default 0 (hits as stored).
   */
  window?: number;
  /** Hard cap on a stitched passage. Default 8,000 characters. */
  maxPassageCharacters?: number;
  /** Length of the ranked result list the pages come from. Default {@link DEFAULT_STORE_MAX_RESULTS} (100). */
  maxResults?: number;
}

const optionsSchema = z.object({
  store: vectorStoreSchema,
  embeddings: embeddingsSchema.optional(),
  window: z.number().int().min(0).max(MAX_WINDOW).optional(),
  maxPassageCharacters: z.number().int().min(100).max(1_000_000).optional(),
  maxResults: z.number().int().min(1).max(10_000).optional(),
});

interface RecordChunk extends WindowChunk {
  record: VectorRecord;
}

function toChunk(record: VectorRecord): RecordChunk {
  return {
    document_key: record.metadata.document_key,
    chunk_index: Number(record.metadata.chunk_index),
    start_line: Number(record.metadata.start_line),
    end_line: Number(record.metadata.end_line),
    heading_trail: record.metadata.heading_trail,
    text: record.text,
    record,
  };
}

function toHit(
  record: VectorRecord,
  span: { start_line: number; end_line: number; heading_trail: string[]; text: string },
  score: number,
): KnowledgeHit {
  const file = record.metadata.document_key;
  const hit: KnowledgeHit = {
    file,
    start_line: span.start_line,
    end_line: span.end_line,
    heading_trail: [...span.heading_trail],
    score,
    excerpt: span.text,
    reference: `${file}:${span.start_line}-${span.end_line}`,
  };
  if (record.metadata.tags !== undefined && record.metadata.tags.length > 0)
    hit.tags = [...record.metadata.tags];
  if (record.metadata.source !== undefined) hit.source = record.metadata.source;
  return hit;
}

const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/** A store failure that a retry may fix (connection lost, server restarting) becomes NETWORK_ERROR. */
function classifyStoreError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (CONNECTION_ERROR_CODES.has(code) || code.startsWith("08"))) {
    return new KnowledgeSourceError(
      "NETWORK_ERROR",
      `The store could not be reached: ${errorMessage(error, QUOTED_MESSAGE_CHARACTERS)}`,
      {
        hint: "Try the same call again shortly; if it keeps failing the host must check the database connection.",
        retryable: true,
        cause: error,
      },
    );
  }
  return error;
}

/**
 * Creates the {@link KnowledgeSource} of a vector store filled by `ingest` or `remember`, for
 * `createSearchKnowledgeTool({ source, sourceKind: "store", name: "search_memory" })`.
 *
 * Each search ranks the store's best `maxResults` matches: the query embedded with `embeddings`
 * (vector search; on stores that also search text, fused with BM25 by reciprocal rank) or, with no
 * embedder, BM25 / full text alone. `path_prefix` keeps records whose document key or source starts
 * with it; `tags` keeps records carrying every tag. With `window`, each hit is widened into its
 * neighbouring chunks (`expandWindows` over `store.range`), overlapping windows merged, each
 * passage hard-capped. Hits carry `file` = the document key, true lines from the metadata, the
 * heading trail, the source and the tags; `reference` is `document_key:start-end`.
 *
 * If the embedder fails and the store searches text, the search answers by keywords with a
 * warning; otherwise it throws a `KnowledgeSourceError` (`NETWORK_ERROR`, retryable), as it does for a
 * lost database connection. An empty answer says why: an empty store, nothing matched, or the
 * filters left nothing. `searched` is the store's `count()`; a store without one reports what the
 * result list covered.
 *
 * @param options - the store, its embedder, the window, the passage cap, the result-list length
 * @returns the source
 * @throws AgentoolError for invalid options, a store that searches by vector only given no
 *   embedder, or a window on a store without `range`
 * @example
 * const store = createInMemoryVectorStore();
 * const searchMemory = createSearchKnowledgeTool({
 *   source: createStoreSource({ store, embeddings }),
 *   sourceKind: "store",
 *   name: "search_memory",
 *   mountedTools: ["remember"],
 * });
 * const remember = createRememberTool({ store, embeddings, searchToolName: "search_memory" });
 */
export function createStoreSource(options: StoreSourceOptions): KnowledgeSource {
  const parsed = parseOptions("createStoreSource", optionsSchema, options);
  const { store, embeddings } = parsed;
  const window = parsed.window ?? 0;
  const maxPassageCharacters = parsed.maxPassageCharacters ?? DEFAULT_MAX_PASSAGE_CHARACTERS;
  const maxResults = parsed.maxResults ?? DEFAULT_STORE_MAX_RESULTS;
  if (embeddings === undefined && store.searchesText !== true) {
    throw new AgentoolError(
      "createStoreSource: this store searches by vector only (searchesText is false) — pass the embeddings that filled it.",
    );
  }
  if (window > 0 && typeof store.range !== "function") {
    throw new AgentoolError(
      "createStoreSource: window expansion needs a store with range(documentKey, from, to); this store has none — leave window out.",
    );
  }

  const runQuery = async (query: VectorQuery, signal: AbortSignal): Promise<VectorMatch[]> => {
    try {
      return await store.query(query, { signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw classifyStoreError(error);
    }
  };

  return {
    async search(request, context): Promise<KnowledgeSearchResult> {
      const { signal } = context;
      const warnings: string[] = [];
      let vector: Float32Array | undefined;
      if (embeddings !== undefined) {
        try {
          vector = Float32Array.from(await embeddings.embedQuery(request.query));
          checkVector(vector, "the query embedding");
        } catch (error) {
          if (signal.aborted) throw error;
          vector = undefined;
          if (store.searchesText !== true) {
            throw new KnowledgeSourceError(
              "NETWORK_ERROR",
              `The embedder failed: ${errorMessage(error, QUOTED_MESSAGE_CHARACTERS)}`,
              {
                hint: "Try the same call again shortly; the store can only be searched with the embedder.",
                retryable: true,
                cause: error,
              },
            );
          }
          warnings.push(
            `The embedder failed (${errorMessage(error, QUOTED_MESSAGE_CHARACTERS)}); ranked by keywords only.`,
          );
        }
      }
      signal.throwIfAborted();
      const filters: Pick<VectorQuery, "tags" | "key_or_source_prefix"> = {};
      if (request.tags !== undefined && request.tags.length > 0) filters.tags = [...request.tags];
      if (request.path_prefix !== undefined && request.path_prefix.length > 0) {
        filters.key_or_source_prefix = request.path_prefix;
      }
      const unfiltered: VectorQuery = { limit: maxResults };
      if (vector !== undefined) unfiltered.vector = vector;
      if (store.searchesText === true) unfiltered.text = request.query;
      const filtered = Object.keys(filters).length > 0;
      const matches = await runQuery({ ...unfiltered, ...filters }, signal);

      let hits: KnowledgeHit[];
      if (window > 0 && matches.length > 0 && typeof store.range === "function") {
        const range = store.range.bind(store);
        const passages = await expandWindows(
          matches.map((match) => ({ chunk: toChunk(match.record), score: match.score })),
          {
            window,
            maxPassageCharacters,
            signal,
            fetch: async (documentKey, from, to) => {
              try {
                return (await range(documentKey, from, to, { signal })).map(toChunk);
              } catch (error) {
                if (signal.aborted) throw error;
                throw classifyStoreError(error);
              }
            },
          },
        );
        hits = passages.map((passage) => {
          const best =
            passage.chunks.find((chunk) => chunk.chunk_index === passage.hit_chunk_indexes[0]) ??
            passage.chunks[0];
          return toHit((best as RecordChunk).record, passage, passage.score);
        });
      } else {
        hits = matches.map((match) => {
          const chunk = toChunk(match.record);
          return toHit(match.record, chunk, match.score);
        });
      }

      const counts = typeof store.count === "function" ? await store.count({ signal }) : undefined;
      const searched =
        counts === undefined
          ? {
              documents: new Set(matches.map((match) => match.record.metadata.document_key)).size,
              chunks: matches.length,
            }
          : { documents: Number(counts.documents), chunks: Number(counts.records) };

      const result: KnowledgeSearchResult = {
        hits: hits.slice(request.offset - 1, request.offset - 1 + request.limit),
        total: hits.length,
        searched,
        warnings,
      };
      if (hits.length === 0) {
        let reason: EmptyReason = "no_match";
        let unfilteredMatches: number | undefined;
        if (filtered) {
          unfilteredMatches = (await runQuery({ ...unfiltered, limit: 1 }, signal)).length;
          if (unfilteredMatches > 0) reason = "filtered_out";
        }
        if (reason === "no_match") {
          if (counts !== undefined) {
            if (Number(counts.records) === 0) reason = "empty_corpus";
          } else if (vector !== undefined) {
            // A vector query matches every record with a vector: nothing at all means an empty store.
            unfilteredMatches ??= filtered
              ? (await runQuery({ ...unfiltered, limit: 1 }, signal)).length
              : 0;
            if (unfilteredMatches === 0) reason = "empty_corpus";
          }
        }
        result.empty_reason = reason;
      }
      return result;
    },
  };
}
