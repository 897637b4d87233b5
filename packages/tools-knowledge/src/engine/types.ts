/**
 * The shared vocabulary of the knowledge family: chunks, embedders, hits, the source a search tool
 * reads and the vector-store port the write path fills. Pure types — no runtime code.
 */

/** One heading-aware piece of a document, with its true line span. */
export interface Chunk {
  /** The chunk's text: its source lines joined with `\n` (CRLF normalised), nothing added. */
  text: string;
  /** First line of the chunk in the source file, 1-based. */
  start_line: number;
  /** Last line of the chunk in the source file, 1-based, inclusive. */
  end_line: number;
  /** The headings the chunk sits under, outermost first, e.g. `["Power", "Limits"]`. */
  heading_trail: string[];
  /** Position among the document's chunks: 0, 1, 2, … dense (no gaps). */
  chunk_index: number;
}

/** A document after chunking. */
export interface ChunkedDocument {
  /** The chunks, in document order. */
  chunks: Chunk[];
  /**
   * The front matter's fields flattened to searchable text (`"title: … tags: …"`), or `""` when
   * the document has none. Searchable, never part of a chunk's text.
   */
  front_matter: string;
}

/**
 * Any embedder with LangChain's `Embeddings` shape (`@langchain/core/embeddings`): structural, so
 * this family never imports LangChain.
 */
export interface Embeddings {
  /** Embeds many texts at once (one vector per text, same order). */
  embedDocuments(documents: string[]): Promise<number[][]>;
  /** Embeds one query. */
  embedQuery(document: string): Promise<number[]>;
}

/** One search result as every search tool returns it. */
export interface KnowledgeHit {
  /** The file (or document key) the hit comes from, relative to the corpus root. */
  file: string;
  /** First line of the passage, 1-based. */
  start_line: number;
  /** Last line of the passage, 1-based, inclusive. */
  end_line: number;
  /** Headings the passage sits under, outermost first. */
  heading_trail: string[];
  /** Relevance: higher is better; comparable within one result list only. */
  score: number;
  /** The passage text, capped (the reference opens the whole span). */
  excerpt: string;
  /** `file.md:12-40` — what `read_file` opens with `offset: 12, limit: 29`. */
  reference: string;
  /** Tags of a remembered excerpt (stores only; absent for corpus files). */
  tags?: string[];
  /** Where a remembered excerpt came from (stores only). */
  source?: string;
}

/** Why a search found nothing, so the tool can say so. */
export type EmptyReason = "empty_corpus" | "no_match" | "filtered_out";

/** What a {@link KnowledgeSource} answers. */
export interface KnowledgeSearchResult {
  /** The hits of the requested page, best first. */
  hits: KnowledgeHit[];
  /** How many hits there are in all (before paging). */
  total: number;
  /** Set when `hits` is empty: which of the three empty cases it is. */
  empty_reason?: EmptyReason;
  /** How many documents / chunks were searched (for the model's orientation). */
  searched: { documents: number; chunks: number };
  /** Things the model or host should know (index rebuilt, embedder failed and BM25 used, …). */
  warnings: string[];
}

/** A search request. */
export interface KnowledgeSearchRequest {
  /** The query text. */
  query: string;
  /** 1-based rank of the first hit to return. */
  offset: number;
  /** How many hits to return. */
  limit: number;
  /** Only files under this relative folder / prefix. */
  path_prefix?: string;
  /** Only records carrying every one of these tags (stores). */
  tags?: string[];
}

/** What a source gets besides the request. */
export interface KnowledgeSearchContext {
  /** Aborted when the call is cancelled or times out. */
  signal: AbortSignal;
  /** Indexing progress (files done / total). */
  progress?: (update: { message?: string; completed?: number; total?: number }) => void;
}

/**
 * What `search_knowledge` reads: a corpus folder with its sidecar index (`./node`), or a vector
 * store filled by `remember` / `ingest`. Throws only on a real failure (the tool maps it).
 */
export interface KnowledgeSource {
  /** Searches, refreshing whatever index it keeps first. */
  search(
    request: KnowledgeSearchRequest,
    context: KnowledgeSearchContext,
  ): Promise<KnowledgeSearchResult>;
}

/** The metadata every stored record carries. */
export interface VectorRecordMetadata {
  /** The document the record belongs to (a file path, a source, or a content hash). */
  document_key: string;
  /** Dense position among the document's records (0, 1, 2, …). */
  chunk_index: number;
  /** First line in the source document, 1-based. */
  start_line: number;
  /** Last line in the source document, 1-based, inclusive. */
  end_line: number;
  /** Headings the chunk sits under. */
  heading_trail: string[];
  /** Where it came from (a URL, a file, a conversation), when known. */
  source?: string;
  /** Labels for filtering. */
  tags?: string[];
  /** ISO 8601 time of the write. */
  created_at?: string;
}

/** One stored chunk. */
export interface VectorRecord {
  /** Stable id: `<document_key>#<chunk_index>`. */
  id: string;
  /** The chunk text as stored (sanitised). */
  text: string;
  /** Its embedding, when the store was written with an embedder. */
  vector?: Float32Array;
  /** Where it sits. */
  metadata: VectorRecordMetadata;
}

/** A query against a {@link VectorStore}. */
export interface VectorQuery {
  /** The query's embedding (vector search), when there is an embedder. */
  vector?: Float32Array;
  /** The query's text (lexical search, for stores that have it). */
  text?: string;
  /** How many records at most. */
  limit: number;
  /** Only records with every one of these tags. */
  tags?: string[];
  /** Only records whose document_key starts with this. */
  document_key_prefix?: string;
  /**
   * Only records whose document_key or source starts with this (a store-backed search tool's
   * `path_prefix`: a document key such as `docs/` or a source such as `https://example.com/`).
   */
  key_or_source_prefix?: string;
}

/** One match of a {@link VectorQuery}. */
export interface VectorMatch {
  /** The record. */
  record: VectorRecord;
  /** Higher is better (cosine similarity for vectors, BM25 for text). */
  score: number;
}

/**
 * The small store port `ingest` and `remember` write to and a store-backed `search_knowledge`
 * reads: in-memory, any LangChain `VectorStore`, or pgvector.
 */
export interface VectorStore {
  /** Inserts or replaces records by id. */
  upsert(records: readonly VectorRecord[], options?: { signal?: AbortSignal }): Promise<void>;
  /** Best matches first. Stores that cannot search text need `vector`. */
  query(query: VectorQuery, options?: { signal?: AbortSignal }): Promise<VectorMatch[]>;
  /** Removes records by id (missing ids are ignored). */
  delete(ids: readonly string[], options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * The records of one document with chunk_index in [from, to], in order — for window expansion.
   * Optional: stores without it return hits unexpanded.
   */
  range?(
    documentKey: string,
    from: number,
    to: number,
    options?: { signal?: AbortSignal },
  ): Promise<VectorRecord[]>;
  /**
   * How many records and distinct documents the store holds — for a search's "searched" line and
   * to tell an empty store from a query that matched nothing. Optional.
   */
  count?(options?: { signal?: AbortSignal }): Promise<{ records: number; documents: number }>;
  /**
   * Whether `query` accepts `text` without `vector` (lexical search). A query with both is
   * answered by both rankings fused by reciprocal rank on stores that search text, by the vector
   * alone on the others.
   */
  readonly searchesText: boolean;
}
