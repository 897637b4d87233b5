import { AgentoolError } from "@agentool/contract";
import type { VectorMatch, VectorQuery, VectorRecord } from "../../engine/types.js";
import {
  checkVector,
  checkVectorQuery,
  compareMatches,
  fuseByReciprocalRank,
} from "../internal/vector-query.js";
import {
  filterClauses,
  PG_VECTOR_COLUMNS,
  toRecord,
  upsertStatement,
  vectorLiteral,
} from "./pg-vector-rows.js";

/**
 * Rows per multi-row `INSERT … ON CONFLICT` statement: 500 (11 parameters a row, far under
 * PostgreSQL's 65,535-parameter limit; a statement of a few megabytes at most).
 */
export const PG_UPSERT_ROWS_PER_STATEMENT = 500;

/** Ids per `DELETE … WHERE id = ANY($1)` statement. */
const IDS_PER_DELETE = 10_000;

/**
 * The smallest client the store needs: `pg`'s `Pool`, `Client` or `PoolClient`, or anything with
 * the same `query(text, values)` returning `{ rows }` (PGlite, a Neon or Vercel driver, a wrapper
 * that logs).
 */
export interface PgQueryClient {
  /** Runs one parameterised statement. */
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * What a {@link PgVectorTable} is built from: checked options, defaults applied.
 *
 * @internal
 */
export interface PgVectorTableSettings {
  /** The client. */
  client: PgQueryClient;
  /** The table as given (`name` or `schema.name`). */
  tableName: string;
  /** The quoted, schema-qualified table name. */
  qualified: string;
  /** The vector length. */
  dimensions: number;
  /** The text-search configuration. */
  configuration: string;
  /** The migration's statements. */
  statements: string[];
  /** Whether to migrate before the first operation. */
  createSchema: boolean;
}

type SignalOptions = { signal?: AbortSignal } | undefined;

/**
 * The state and SQL behind `createPgVectorStore`: one table, its migration (run once, retried
 * after a failure) and the statements of every operation.
 *
 * @internal
 */
export class PgVectorTable {
  private readonly settings: PgVectorTableSettings;
  private migration: Promise<void> | undefined;

  constructor(settings: PgVectorTableSettings) {
    this.settings = settings;
  }

  /** Runs the migration's statements (tolerating a concurrent creator), then checks dimensions. */
  async migrate(options?: { signal?: AbortSignal }): Promise<void> {
    const { client, statements } = this.settings;
    for (const statement of statements) {
      options?.signal?.throwIfAborted();
      try {
        await client.query(statement, []);
      } catch (error) {
        // Two processes creating the same object at once: IF NOT EXISTS can still race on the
        // catalog (unique_violation 23505 / duplicate_object 42710 / duplicate_table 42P07).
        const code = (error as { code?: unknown } | null)?.code;
        if (code !== "23505" && code !== "42710" && code !== "42P07") throw error;
      }
    }
    await this.checkDimensions();
  }

  /** Upserts records (the last of a duplicated id wins), {@link PG_UPSERT_ROWS_PER_STATEMENT} a statement. */
  async upsert(records: readonly VectorRecord[], options: SignalOptions): Promise<void> {
    const signal = options?.signal;
    await this.ready(signal);
    const latest = new Map<string, VectorRecord>();
    for (const [position, record] of records.entries()) {
      this.checkRecord(record, position);
      latest.delete(record.id);
      latest.set(record.id, record);
    }
    const unique = [...latest.values()];
    for (let start = 0; start < unique.length; start += PG_UPSERT_ROWS_PER_STATEMENT) {
      const statement = upsertStatement(
        this.settings.qualified,
        unique.slice(start, start + PG_UPSERT_ROWS_PER_STATEMENT),
      );
      await this.run(statement.text, statement.values, signal);
    }
  }

  /** A vector ranking, a text ranking, or both fused by reciprocal rank. */
  async query(query: VectorQuery, options: SignalOptions): Promise<VectorMatch[]> {
    const signal = options?.signal;
    checkVectorQuery(query, { name: "createPgVectorStore", searchesText: true });
    await this.ready(signal);
    const text =
      typeof query.text === "string" && query.text.trim().length > 0 ? query.text : undefined;
    if (query.vector !== undefined && text !== undefined) {
      const [byVector, byText] = await Promise.all([
        this.vectorRanking(query, query.vector, signal),
        this.textRanking(query, text, signal),
      ]);
      return fuseByReciprocalRank([byVector, byText], query.limit);
    }
    if (query.vector !== undefined) return this.vectorRanking(query, query.vector, signal);
    return this.textRanking(query, text as string, signal);
  }

  /** Deletes records by id, {@link IDS_PER_DELETE} a statement. */
  async delete(ids: readonly string[], options: SignalOptions): Promise<void> {
    const signal = options?.signal;
    if (ids.length === 0) return;
    await this.ready(signal);
    for (let start = 0; start < ids.length; start += IDS_PER_DELETE) {
      await this.run(
        `DELETE FROM ${this.settings.qualified} WHERE id = ANY($1::text[])`,
        [ids.slice(start, start + IDS_PER_DELETE)],
        signal,
      );
    }
  }

  /** The records of one document with chunk_index in `[from, to]`, in order. */
  async range(
    documentKey: string,
    from: number,
    to: number,
    options: SignalOptions,
  ): Promise<VectorRecord[]> {
    const signal = options?.signal;
    await this.ready(signal);
    const low = Math.max(0, Math.trunc(Number(from)));
    const high = Math.min(2_147_483_647, Math.trunc(Number(to)));
    if (!Number.isFinite(low) || !Number.isFinite(high) || high < low) return [];
    const rows = await this.run(
      `SELECT ${PG_VECTOR_COLUMNS} FROM ${this.settings.qualified}
          WHERE document_key = $1 AND chunk_index BETWEEN $2::integer AND $3::integer
          ORDER BY chunk_index`,
      [documentKey, low, high],
      signal,
    );
    return rows.map(toRecord);
  }

  /** Records and distinct documents. */
  async count(options: SignalOptions): Promise<{ records: number; documents: number }> {
    const signal = options?.signal;
    await this.ready(signal);
    const rows = await this.run(
      `SELECT count(*) AS records, count(DISTINCT document_key) AS documents FROM ${this.settings.qualified}`,
      [],
      signal,
    );
    return { records: Number(rows[0]?.records ?? 0), documents: Number(rows[0]?.documents ?? 0) };
  }

  /** The migration, once per table object when `createSchema` is on; a failed one is retried. */
  private ready(signal?: AbortSignal): Promise<void> {
    if (!this.settings.createSchema) return Promise.resolve();
    signal?.throwIfAborted();
    if (this.migration === undefined) {
      this.migration = this.migrate().catch((error: unknown) => {
        this.migration = undefined; // a failed migration is retried by the next call
        throw error;
      });
    }
    return this.migration;
  }

  private async run(
    text: string,
    values: unknown[],
    signal?: AbortSignal,
  ): Promise<Array<Record<string, unknown>>> {
    signal?.throwIfAborted();
    const result = await this.settings.client.query(text, values);
    return Array.isArray(result?.rows) ? result.rows : [];
  }

  /** Refuses an existing table whose `embedding` column has other dimensions. */
  private async checkDimensions(): Promise<void> {
    const { tableName, qualified, dimensions } = this.settings;
    const [schemaName, bareName] = tableName.includes(".")
      ? tableName.split(".")
      : [undefined, tableName];
    const rows = await this.run(
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
  }

  private checkRecord(record: VectorRecord, position: number): void {
    if (typeof record?.id !== "string" || record.id.length === 0) {
      throw new TypeError(
        `createPgVectorStore: records[${position}].id must be a non-empty string.`,
      );
    }
    if (record.vector === undefined) return;
    checkVector(record.vector, `createPgVectorStore: records[${position}].vector`);
    const { dimensions } = this.settings;
    if (record.vector.length !== dimensions) {
      throw new RangeError(
        `createPgVectorStore: records[${position}].vector has ${record.vector.length} dimensions, the table ${dimensions}.`,
      );
    }
  }

  private async vectorRanking(
    query: VectorQuery,
    vector: ArrayLike<number>,
    signal?: AbortSignal,
  ): Promise<VectorMatch[]> {
    const { dimensions, qualified } = this.settings;
    if (vector.length !== dimensions) {
      throw new RangeError(
        `createPgVectorStore: the query vector has ${vector.length} dimensions, the table ${dimensions} — embed the query with the embedder that filled it.`,
      );
    }
    const values: unknown[] = [vectorLiteral(vector)];
    const where = ["embedding IS NOT NULL", ...filterClauses(query, values)];
    values.push(query.limit);
    // ORDER BY the distance alone, so the HNSW index serves it; ties are ordered by id below.
    const rows = await this.run(
      `SELECT ${PG_VECTOR_COLUMNS}, 1 - (embedding <=> $1::vector) AS score FROM ${qualified}
        WHERE ${where.join(" AND ")}
        ORDER BY embedding <=> $1::vector LIMIT $${values.length}`,
      values,
      signal,
    );
    return rows
      .map((row) => ({ record: toRecord(row), score: Number(row.score) || 0 }))
      .sort(compareMatches);
  }

  private async textRanking(
    query: VectorQuery,
    text: string,
    signal?: AbortSignal,
  ): Promise<VectorMatch[]> {
    // Any word may match (websearch syntax "a or b or c"); words only, so no operator sneaks in.
    const words = (text.match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((word) => word.toLowerCase() !== "or")
      .slice(0, 64);
    if (words.length === 0) return [];
    const { configuration, qualified } = this.settings;
    const values: unknown[] = [words.join(" or ")];
    const tsQuery = `websearch_to_tsquery('${configuration}'::regconfig, $1::text)`;
    const where = [`text_search @@ ${tsQuery}`, ...filterClauses(query, values)];
    values.push(query.limit);
    const rows = await this.run(
      `SELECT ${PG_VECTOR_COLUMNS}, ts_rank_cd('{0.1, 0.2, 0.67, 1.0}'::float4[], text_search, ${tsQuery}, 1) AS score
         FROM ${qualified}
        WHERE ${where.join(" AND ")}
        ORDER BY score DESC, id LIMIT $${values.length}`,
      values,
      signal,
    );
    return rows
      .map((row) => ({ record: toRecord(row), score: Number(row.score) || 0 }))
      .sort(compareMatches);
  }
}
