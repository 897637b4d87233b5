import { AgentoolError, parseOptions } from "@agentool/contract";
import { z } from "zod";
import type {
  VectorQuery,
  VectorRecord,
  VectorRecordMetadata,
  VectorStore,
} from "../../engine/types.js";
import {
  checkVector,
  checkVectorQuery,
  compareMatches,
  fuseByReciprocalRank,
} from "../internal/vector-query.js";

/** The default table: `knowledge_chunks`. */
export const DEFAULT_PG_VECTOR_TABLE = "knowledge_chunks";

/** The default text-search configuration of the `text_search` column: `english` (stemming, stop words). */
export const DEFAULT_PG_TEXT_SEARCH_CONFIGURATION = "english";

/**
 * Rows per multi-row `INSERT … ON CONFLICT` statement: 500 (11 parameters a row, far under
 * PostgreSQL's 65,535-parameter limit; a statement of a few megabytes at most).
 */
export const PG_UPSERT_ROWS_PER_STATEMENT = 500;

/** pgvector's largest indexable `vector` dimension for HNSW: 2,000. */
export const PG_VECTOR_MAX_INDEXED_DIMENSIONS = 2_000;

/**
 * The smallest client the store needs: `pg`'s `Pool`, `Client` or `PoolClient`, or anything with
 * the same `query(text, values)` returning `{ rows }` (PGlite, a Neon or Vercel driver, a wrapper
 * that logs).
 */
export interface PgQueryClient {
  /** Runs one parameterised statement. */
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

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

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,39}$/;
const CONFIGURATION = /^[a-z_][a-z0-9_]{0,62}$/;

const clientSchema = z.custom<PgQueryClient>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as PgQueryClient).query === "function",
  { error: "expected a client with query(text, values) (pg's Pool or Client)" },
);

const optionsSchema = z.object({
  client: clientSchema,
  table: z
    .string()
    .refine(
      (value) => {
        const parts = value.split(".");
        return parts.length <= 2 && parts.every((part) => IDENTIFIER.test(part));
      },
      {
        message:
          "expected name or schema.name: lower-case letters, digits and _, at most 40 characters each",
      },
    )
    .optional(),
  dimensions: z.number().int().min(1).max(16_000),
  createSchema: z.boolean().optional(),
  textSearchConfiguration: z
    .string()
    .regex(CONFIGURATION, {
      message: "expected a text-search configuration name such as english or simple",
    })
    .optional(),
  hnsw: z
    .object({
      m: z.number().int().min(2).max(100).optional(),
      efConstruction: z.number().int().min(4).max(1_000).optional(),
    })
    .strict()
    .optional(),
});

interface TableNames {
  /** `"schema"."table"` or `"table"` */
  qualified: string;
  /** the bare table name, for index names */
  bare: string;
}

function tableNames(table: string): TableNames {
  const parts = table.split(".");
  const bare = parts[parts.length - 1] as string;
  return { qualified: parts.map((part) => `"${part}"`).join("."), bare };
}

/** Options of {@link pgVectorSchemaStatements}. */
export interface PgVectorSchemaOptions {
  /** The table (`name` or `schema.name`). Default {@link DEFAULT_PG_VECTOR_TABLE}. */
  table?: string;
  /** The vector length. */
  dimensions: number;
  /** The text-search configuration. Default {@link DEFAULT_PG_TEXT_SEARCH_CONFIGURATION}. */
  textSearchConfiguration?: string;
  /** HNSW build parameters. Default `m` 16, `efConstruction` 64. */
  hnsw?: { m?: number; efConstruction?: number };
}

/**
 * The migration, statement by statement (every one idempotent): the `vector` extension, the
 * table, and its four indexes — HNSW on `embedding` (`vector_cosine_ops`), B-tree on
 * `(document_key, chunk_index)` for window ranges, GIN on `tags`, GIN on the generated
 * `text_search` column. What {@link PgVectorStore.migrate} runs, for migration tools that apply SQL
 * themselves.
 *
 * @param options - table, dimensions, text-search configuration, HNSW parameters
 * @returns the SQL statements, in order
 * @throws AgentoolError for a bad table name, configuration or dimension
 * @example
 * for (const statement of pgVectorSchemaStatements({ dimensions: 1536 })) await pool.query(statement);
 * // CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE IF NOT EXISTS "knowledge_chunks" (…); CREATE INDEX IF NOT EXISTS …
 */
export function pgVectorSchemaStatements(options: PgVectorSchemaOptions): string[] {
  const parsed = parseOptions(
    "pgVectorSchemaStatements",
    optionsSchema.pick({
      table: true,
      dimensions: true,
      textSearchConfiguration: true,
      hnsw: true,
    }),
    options,
  );
  const { qualified, bare } = tableNames(parsed.table ?? DEFAULT_PG_VECTOR_TABLE);
  const configuration = parsed.textSearchConfiguration ?? DEFAULT_PG_TEXT_SEARCH_CONFIGURATION;
  const m = parsed.hnsw?.m ?? 16;
  const efConstruction = parsed.hnsw?.efConstruction ?? 64;
  const statements = [
    "CREATE EXTENSION IF NOT EXISTS vector",
    `CREATE TABLE IF NOT EXISTS ${qualified} (
  id text PRIMARY KEY,
  document_key text NOT NULL,
  chunk_index integer NOT NULL CHECK (chunk_index >= 0),
  start_line integer NOT NULL,
  end_line integer NOT NULL,
  heading_trail jsonb NOT NULL DEFAULT '[]'::jsonb,
  source text,
  tags text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  text text NOT NULL,
  embedding vector(${parsed.dimensions}),
  text_search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('${configuration}'::regconfig, heading_trail::text), 'A') ||
    setweight(to_tsvector('${configuration}'::regconfig, text), 'B')
  ) STORED
)`,
    `CREATE INDEX IF NOT EXISTS "${bare}_document_chunk_idx" ON ${qualified} (document_key, chunk_index)`,
    `CREATE INDEX IF NOT EXISTS "${bare}_tags_idx" ON ${qualified} USING gin (tags)`,
    `CREATE INDEX IF NOT EXISTS "${bare}_text_search_idx" ON ${qualified} USING gin (text_search)`,
  ];
  if (parsed.dimensions <= PG_VECTOR_MAX_INDEXED_DIMENSIONS) {
    statements.push(
      `CREATE INDEX IF NOT EXISTS "${bare}_embedding_hnsw_idx" ON ${qualified} USING hnsw (embedding vector_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})`,
    );
  }
  return statements;
}

const COLUMNS =
  "id, document_key, chunk_index, start_line, end_line, heading_trail, source, tags, created_at, text";

function vectorLiteral(vector: ArrayLike<number>): string {
  let text = "[";
  for (let index = 0; index < vector.length; index += 1) {
    if (index > 0) text += ",";
    text += String(vector[index]);
  }
  return `${text}]`;
}

function toStringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // A text[] in PostgreSQL's own literal form ({a,b}) when a driver does not parse arrays.
      if (value.startsWith("{") && value.endsWith("}")) {
        const inner = value.slice(1, -1);
        return inner.length === 0 ? [] : inner.split(",").map((part) => part.replace(/^"|"$/g, ""));
      }
    }
  }
  return [];
}

/**
 * A row back to a record. Integer columns are coerced with `Number()` at this boundary: several
 * drivers return integers (and every driver returns `count(*)`, a bigint) as strings, and
 * `"5941" + 2` is `"59412"` in JavaScript.
 */
function toRecord(row: Record<string, unknown>): VectorRecord {
  const metadata: VectorRecordMetadata = {
    document_key: String(row.document_key),
    chunk_index: Number(row.chunk_index),
    start_line: Number(row.start_line),
    end_line: Number(row.end_line),
    heading_trail: toStringList(row.heading_trail),
  };
  if (row.source !== null && row.source !== undefined) metadata.source = String(row.source);
  const tags = toStringList(row.tags);
  if (tags.length > 0) metadata.tags = tags;
  const createdAt = row.created_at;
  if (createdAt instanceof Date) metadata.created_at = createdAt.toISOString();
  else if (typeof createdAt === "string") metadata.created_at = new Date(createdAt).toISOString();
  return { id: String(row.id), text: String(row.text), metadata };
}

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
  const createSchema = parsed.createSchema ?? true;
  let migration: Promise<void> | undefined;

  const run = async (text: string, values: unknown[], signal?: AbortSignal) => {
    signal?.throwIfAborted();
    const result = await client.query(text, values);
    return Array.isArray(result?.rows) ? result.rows : [];
  };

  const migrate = async (migrateOptions?: { signal?: AbortSignal }): Promise<void> => {
    for (const statement of statements) {
      migrateOptions?.signal?.throwIfAborted();
      try {
        await client.query(statement, []);
      } catch (error) {
        // Two processes creating the same object at once: IF NOT EXISTS can still race on the
        // catalog (unique_violation 23505 / duplicate_object 42710 / duplicate_table 42P07).
        const code = (error as { code?: unknown } | null)?.code;
        if (code !== "23505" && code !== "42710" && code !== "42P07") throw error;
      }
    }
    const [schemaName, bareName] = tableName.includes(".")
      ? tableName.split(".")
      : [undefined, tableName];
    const rows = await run(
      `SELECT format_type(a.atttypid, a.atttypmod) AS type
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relname = $1 AND a.attname = 'embedding' AND NOT a.attisdropped
          AND ($2::text IS NULL AND n.nspname = ANY (current_schemas(false)) OR n.nspname = $2::text)
        LIMIT 1`,
      [bareName, schemaName ?? null],
    );
    const type = rows[0]?.type;
    if (typeof type === "string" && type !== `vector(${dimensions})`) {
      throw new AgentoolError(
        `createPgVectorStore: the table ${qualified} has embedding ${type}, this store writes vector(${dimensions}) — vector spaces never mix: use another table for this embedder, or drop and re-ingest.`,
      );
    }
  };

  const ready = (signal?: AbortSignal): Promise<void> => {
    if (!createSchema) return Promise.resolve();
    signal?.throwIfAborted();
    if (migration === undefined) {
      migration = migrate().catch((error: unknown) => {
        migration = undefined; // a failed migration is retried by the next call
        throw error;
      });
    }
    return migration;
  };

  const filterClauses = (query: VectorQuery, values: unknown[]): string[] => {
    const clauses: string[] = [];
    if (query.tags !== undefined && query.tags.length > 0) {
      values.push([...query.tags]);
      clauses.push(`tags @> $${values.length}::text[]`);
    }
    if (query.document_key_prefix !== undefined) {
      values.push(query.document_key_prefix);
      clauses.push(`starts_with(document_key, $${values.length}::text)`);
    }
    if (query.key_or_source_prefix !== undefined) {
      values.push(query.key_or_source_prefix);
      const parameter = `$${values.length}::text`;
      clauses.push(
        `(starts_with(document_key, ${parameter}) OR starts_with(coalesce(source, ''), ${parameter}))`,
      );
    }
    return clauses;
  };

  const vectorRanking = async (
    query: VectorQuery,
    vector: ArrayLike<number>,
    signal?: AbortSignal,
  ) => {
    if (vector.length !== dimensions) {
      throw new RangeError(
        `createPgVectorStore: the query vector has ${vector.length} dimensions, the table ${dimensions} — embed the query with the embedder that filled it.`,
      );
    }
    const values: unknown[] = [vectorLiteral(vector)];
    const where = ["embedding IS NOT NULL", ...filterClauses(query, values)];
    values.push(query.limit);
    // ORDER BY the distance alone, so the HNSW index serves it; ties are ordered by id below.
    const rows = await run(
      `SELECT ${COLUMNS}, 1 - (embedding <=> $1::vector) AS score FROM ${qualified}
        WHERE ${where.join(" AND ")}
        ORDER BY embedding <=> $1::vector LIMIT $${values.length}`,
      values,
      signal,
    );
    return rows
      .map((row) => ({ record: toRecord(row), score: Number(row.score) || 0 }))
      .sort(compareMatches);
  };

  const textRanking = async (query: VectorQuery, text: string, signal?: AbortSignal) => {
    // Any word may match (websearch syntax "a or b or c"); words only, so no operator sneaks in.
    const words = (text.match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((word) => word.toLowerCase() !== "or")
      .slice(0, 64);
    if (words.length === 0) return [];
    const values: unknown[] = [words.join(" or ")];
    const tsQuery = `websearch_to_tsquery('${configuration}'::regconfig, $1::text)`;
    const where = [`text_search @@ ${tsQuery}`, ...filterClauses(query, values)];
    values.push(query.limit);
    const rows = await run(
      `SELECT ${COLUMNS}, ts_rank_cd('{0.1, 0.2, 0.67, 1.0}'::float4[], text_search, ${tsQuery}, 1) AS score
         FROM ${qualified}
        WHERE ${where.join(" AND ")}
        ORDER BY score DESC, id LIMIT $${values.length}`,
      values,
      signal,
    );
    return rows
      .map((row) => ({ record: toRecord(row), score: Number(row.score) || 0 }))
      .sort(compareMatches);
  };

  const store: PgVectorStore = {
    searchesText: true,
    table: qualified,
    migrate,
    async upsert(records, upsertOptions) {
      const signal = upsertOptions?.signal;
      await ready(signal);
      const latest = new Map<string, VectorRecord>();
      for (const [position, record] of records.entries()) {
        if (typeof record?.id !== "string" || record.id.length === 0) {
          throw new TypeError(
            `createPgVectorStore: records[${position}].id must be a non-empty string.`,
          );
        }
        if (record.vector !== undefined) {
          checkVector(record.vector, `createPgVectorStore: records[${position}].vector`);
          if (record.vector.length !== dimensions) {
            throw new RangeError(
              `createPgVectorStore: records[${position}].vector has ${record.vector.length} dimensions, the table ${dimensions}.`,
            );
          }
        }
        latest.delete(record.id);
        latest.set(record.id, record);
      }
      const unique = [...latest.values()];
      for (let start = 0; start < unique.length; start += PG_UPSERT_ROWS_PER_STATEMENT) {
        const rows = unique.slice(start, start + PG_UPSERT_ROWS_PER_STATEMENT);
        const values: unknown[] = [];
        const tuples = rows.map((record) => {
          const { metadata } = record;
          values.push(
            record.id,
            metadata.document_key,
            Number(metadata.chunk_index),
            Number(metadata.start_line),
            Number(metadata.end_line),
            JSON.stringify(metadata.heading_trail ?? []),
            metadata.source ?? null,
            [...(metadata.tags ?? [])],
            metadata.created_at ?? null,
            record.text,
            record.vector === undefined ? null : vectorLiteral(record.vector),
          );
          const base = values.length - 11;
          const parameter = (offset: number) => `$${base + offset}`;
          return `(${parameter(1)}, ${parameter(2)}, ${parameter(3)}::integer, ${parameter(4)}::integer, ${parameter(5)}::integer, ${parameter(6)}::jsonb, ${parameter(7)}, ${parameter(8)}::text[], coalesce(${parameter(9)}::timestamptz, now()), ${parameter(10)}, ${parameter(11)}::vector)`;
        });
        await run(
          `INSERT INTO ${qualified} (${COLUMNS}, embedding) VALUES ${tuples.join(", ")}
           ON CONFLICT (id) DO UPDATE SET
             document_key = EXCLUDED.document_key, chunk_index = EXCLUDED.chunk_index,
             start_line = EXCLUDED.start_line, end_line = EXCLUDED.end_line,
             heading_trail = EXCLUDED.heading_trail, source = EXCLUDED.source, tags = EXCLUDED.tags,
             created_at = EXCLUDED.created_at, text = EXCLUDED.text, embedding = EXCLUDED.embedding`,
          values,
          signal,
        );
      }
    },
    async query(query, queryOptions) {
      const signal = queryOptions?.signal;
      checkVectorQuery(query, { name: "createPgVectorStore", searchesText: true });
      await ready(signal);
      const text =
        typeof query.text === "string" && query.text.trim().length > 0 ? query.text : undefined;
      if (query.vector !== undefined && text !== undefined) {
        const [byVector, byText] = await Promise.all([
          vectorRanking(query, query.vector, signal),
          textRanking(query, text, signal),
        ]);
        return fuseByReciprocalRank([byVector, byText], query.limit);
      }
      if (query.vector !== undefined) return vectorRanking(query, query.vector, signal);
      return textRanking(query, text as string, signal);
    },
    async delete(ids, deleteOptions) {
      const signal = deleteOptions?.signal;
      if (ids.length === 0) return;
      await ready(signal);
      for (let start = 0; start < ids.length; start += 10_000) {
        await run(
          `DELETE FROM ${qualified} WHERE id = ANY($1::text[])`,
          [ids.slice(start, start + 10_000)],
          signal,
        );
      }
    },
    async range(documentKey, from, to, rangeOptions) {
      const signal = rangeOptions?.signal;
      await ready(signal);
      const low = Math.max(0, Math.trunc(Number(from)));
      const high = Math.min(2_147_483_647, Math.trunc(Number(to)));
      if (!Number.isFinite(low) || !Number.isFinite(high) || high < low) return [];
      const rows = await run(
        `SELECT ${COLUMNS} FROM ${qualified}
          WHERE document_key = $1 AND chunk_index BETWEEN $2::integer AND $3::integer
          ORDER BY chunk_index`,
        [documentKey, low, high],
        signal,
      );
      return rows.map(toRecord);
    },
    async count(countOptions) {
      const signal = countOptions?.signal;
      await ready(signal);
      const rows = await run(
        `SELECT count(*) AS records, count(DISTINCT document_key) AS documents FROM ${qualified}`,
        [],
        signal,
      );
      return { records: Number(rows[0]?.records ?? 0), documents: Number(rows[0]?.documents ?? 0) };
    },
  };
  return store;
}
