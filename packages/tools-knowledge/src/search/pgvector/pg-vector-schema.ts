import { parseOptions } from "@agentool/contract";
import { z } from "zod";

/** The default table: `knowledge_chunks`. */
export const DEFAULT_PG_VECTOR_TABLE = "knowledge_chunks";

/** The default text-search configuration of the `text_search` column: `english` (stemming, stop words). */
export const DEFAULT_PG_TEXT_SEARCH_CONFIGURATION = "english";

/** pgvector's largest indexable `vector` dimension for HNSW: 2,000. */
export const PG_VECTOR_MAX_INDEXED_DIMENSIONS = 2_000;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,39}$/;
const CONFIGURATION = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The option fields the table's shape depends on (table, dimensions, text-search configuration,
 * HNSW parameters), shared by {@link pgVectorSchemaStatements} and `createPgVectorStore`.
 *
 * @internal
 */
export const pgVectorSchemaFields = {
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
};

const schemaOptionsSchema = z.object(pgVectorSchemaFields);

/**
 * A table's names in SQL.
 *
 * @internal
 */
export interface TableNames {
  /** `"schema"."table"` or `"table"` */
  qualified: string;
  /** the bare table name, for index names */
  bare: string;
}

/**
 * Quotes a checked `name` or `schema.name`.
 *
 * @param table - a table name that passed {@link pgVectorSchemaFields}
 * @returns the quoted, schema-qualified name and the bare name
 * @internal
 */
export function tableNames(table: string): TableNames {
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
  const parsed = parseOptions("pgVectorSchemaStatements", schemaOptionsSchema, options);
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
