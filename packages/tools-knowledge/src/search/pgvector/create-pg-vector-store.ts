import { parseOptions } from "@agentool/contract";
import { z } from "zod";
import type { VectorRecord, VectorStore } from "../../engine/types.js";
import {
  DEFAULT_PG_TEXT_SEARCH_CONFIGURATION,
  DEFAULT_PG_VECTOR_TABLE,
  pgVectorSchemaFields,
  pgVectorSchemaStatements,
  tableNames,
} from "./pg-vector-schema.js";
import { type PgQueryClient, PgVectorTable } from "./pg-vector-table.js";

/** Options of {@link createPgVectorStore}. */
export interface PgVectorStoreOptions {
  /** The client (`new pg.Pool({ connectionString })` in production). */
  client: PgQueryClient;
  /**
   * The table: `name` or `schema.name`, lower-case letters, digits and `_` (at most 40 characters
   * each, so index names fit PostgreSQL's 63). Default {@link DEFAULT_PG_VECTOR_TABLE}.
   */
  table?: string;
  /** The embedder's vector length (`embedding vector(N)`), 1–16,000; 2,000 at most for the HNSW index. */
  dimensions: number;
  /**
   * Run {@link PgVectorStore.migrate} before the first operation (once per store). Default `true`;
   * `false` when your migration tool applies {@link pgVectorSchemaStatements} itself.
   */
  createSchema?: boolean;
  /**
   * The text-search configuration of the generated `text_search` column and of queries (`english`,
   * `simple`, `german`, …). Default {@link DEFAULT_PG_TEXT_SEARCH_CONFIGURATION}. Changing it on an
   * existing table needs the column dropped and re-added (see the README).
   */
  textSearchConfiguration?: string;
  /** HNSW build parameters. Default pgvector's: `m` 16, `efConstruction` 64. */
  hnsw?: { m?: number; efConstruction?: number };
}

/** The pgvector store: the {@link VectorStore} port plus its migration. */
export interface PgVectorStore extends VectorStore {
  /** `true`: text queries use PostgreSQL full-text search (`text_search @@ websearch_to_tsquery`). */
  readonly searchesText: true;
  /** The quoted, schema-qualified table name the store writes. */
  readonly table: string;
  /**
   * Creates the extension, the table and its indexes when missing (idempotent: `IF NOT EXISTS`
   * throughout; safe to run on every start, and from two processes at once), then checks that an
   * existing table's `embedding` has this store's dimensions.
   */
  migrate(options?: { signal?: AbortSignal }): Promise<void>;
  /** The records of one document with chunk_index in `[from, to]`, in order (one index range scan). */
  range(
    documentKey: string,
    from: number,
    to: number,
    options?: { signal?: AbortSignal },
  ): Promise<VectorRecord[]>;
  /** `count(*)` and `count(DISTINCT document_key)`. */
  count(options?: { signal?: AbortSignal }): Promise<{ records: number; documents: number }>;
}

const clientSchema = z.custom<PgQueryClient>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as PgQueryClient).query === "function",
  { error: "expected a client with query(text, values) (pg's Pool or Client)" },
);

const optionsSchema = z.object({
  client: clientSchema,
  table: pgVectorSchemaFields.table,
  dimensions: pgVectorSchemaFields.dimensions,
  createSchema: z.boolean().optional(),
  textSearchConfiguration: pgVectorSchemaFields.textSearchConfiguration,
  hnsw: pgVectorSchemaFields.hnsw,
});

/**
 * Creates a {@link VectorStore} over any PostgreSQL with the `vector` extension (pgvector ≥ 0.5),
 * in plain SQL through a `query(text, values)` client — `pg`'s `Pool` in production. The path for
 * corpora and fleets that outgrow one process: many app servers share one table.
 *
 * The table (see {@link pgVectorSchemaStatements}): `id text PRIMARY KEY`, `document_key`,
 * `chunk_index integer`, `start_line`, `end_line`, `heading_trail jsonb`, `source`, `tags text[]`,
 * `created_at timestamptz`, `text`, `embedding vector(N)` (NULL for records written without an
 * embedder) and a generated `text_search tsvector` (heading weighted A, text B); indexes HNSW
 * (`vector_cosine_ops`), B-tree `(document_key, chunk_index)`, GIN `tags`, GIN `text_search`.
 *
 * - `upsert`: multi-row `INSERT … ON CONFLICT (id) DO UPDATE`, 500 rows a statement (duplicate ids
 *   in one call: the last wins).
 * - `query`: a vector → `ORDER BY embedding <=> $1` (cosine distance; score = 1 − distance, served by
 *   the HNSW index); a text → `text_search @@ websearch_to_tsquery(…)` ranked by `ts_rank_cd`
 *   (any of the query's words may match); both → the two rankings fused by reciprocal rank.
 *   Filters: `tags @> $n` (every tag), `starts_with(document_key, $n)`, or document key or source.
 * - `range`: `WHERE document_key = $1 AND chunk_index BETWEEN $2 AND $3` (the B-tree index), for
 *   window expansion; `count`: records and distinct documents.
 * - Integer columns are coerced with `Number()` on the way out; vectors are sent as pgvector text
 *   (`'[0.1,0.2,…]'::vector`) and not read back.
 *
 * @param options - the client, the table, the dimensions, whether to migrate, the text-search
 *   configuration, HNSW parameters
 * @returns the store
 * @throws AgentoolError for invalid options
 * @example
 * import pg from "pg";
 * import { createPgVectorStore } from "@agentool/tools-knowledge/pgvector";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = createPgVectorStore({ client: pool, dimensions: 1536 });
 * await store.migrate();
 * await ingest(documents, { store, embeddings });
 * await store.query({ vector, text: "regulator limit", limit: 10, tags: ["hardware"] });
 */
export function createPgVectorStore(options: PgVectorStoreOptions): PgVectorStore {
  const parsed = parseOptions("createPgVectorStore", optionsSchema, options);
  const { client, dimensions } = parsed;
  const tableName = parsed.table ?? DEFAULT_PG_VECTOR_TABLE;
  const { qualified } = tableNames(tableName);
  const configuration = parsed.textSearchConfiguration ?? DEFAULT_PG_TEXT_SEARCH_CONFIGURATION;
  const statements = pgVectorSchemaStatements({
    table: tableName,
    dimensions,
    textSearchConfiguration: configuration,
    ...(parsed.hnsw === undefined ? {} : { hnsw: parsed.hnsw }),
  });
  const table = new PgVectorTable({
    client,
    tableName,
    qualified,
    dimensions,
    configuration,
    statements,
    createSchema: parsed.createSchema ?? true,
  });
  // A plain object of functions over the table, as before: methods may be passed around unbound.
  return {
    searchesText: true,
    table: qualified,
    migrate: (migrateOptions) => table.migrate(migrateOptions),
    upsert: (records, upsertOptions) => table.upsert(records, upsertOptions),
    query: (query, queryOptions) => table.query(query, queryOptions),
    delete: (ids, deleteOptions) => table.delete(ids, deleteOptions),
    range: (documentKey, from, to, rangeOptions) =>
      table.range(documentKey, from, to, rangeOptions),
    count: (countOptions) => table.count(countOptions),
  };
}
