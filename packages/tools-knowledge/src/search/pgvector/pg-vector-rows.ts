import type { VectorQuery, VectorRecord, VectorRecordMetadata } from "../../engine/types.js";

/**
 * The columns the store reads and writes, `embedding` aside.
 *
 * @internal
 */
export const PG_VECTOR_COLUMNS =
  "id, document_key, chunk_index, start_line, end_line, heading_trail, source, tags, created_at, text";

/** Parameters per row of an upsert: the columns and the embedding. */
const PARAMETERS_PER_ROW = 11;

/**
 * A vector in pgvector's text form, `[0.1,0.2,…]`.
 *
 * @param vector - the numbers
 * @returns the literal, for a `$n::vector` parameter
 * @internal
 */
export function vectorLiteral(vector: ArrayLike<number>): string {
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
 *
 * @param row - a row with {@link PG_VECTOR_COLUMNS}
 * @returns the record (without its vector)
 * @internal
 */
export function toRecord(row: Record<string, unknown>): VectorRecord {
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
 * The `WHERE` clauses of a query's filters — every tag (`tags @>`), a document-key prefix, a
 * key-or-source prefix — their values appended to `values`.
 *
 * @param query - the query
 * @param values - the statement's parameters so far; the filters' values are pushed onto it
 * @returns the clauses, to be joined with `AND`
 * @internal
 */
export function filterClauses(query: VectorQuery, values: unknown[]): string[] {
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
}

/**
 * One multi-row `INSERT … ON CONFLICT (id) DO UPDATE` for checked records with distinct ids.
 *
 * @param qualified - the quoted table name
 * @param records - the rows
 * @returns the statement and its parameters (11 a row)
 * @internal
 */
export function upsertStatement(
  qualified: string,
  records: readonly VectorRecord[],
): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples = records.map((record) => {
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
    const base = values.length - PARAMETERS_PER_ROW;
    const parameter = (offset: number) => `$${base + offset}`;
    return `(${parameter(1)}, ${parameter(2)}, ${parameter(3)}::integer, ${parameter(4)}::integer, ${parameter(5)}::integer, ${parameter(6)}::jsonb, ${parameter(7)}, ${parameter(8)}::text[], coalesce(${parameter(9)}::timestamptz, now()), ${parameter(10)}, ${parameter(11)}::vector)`;
  });
  const text = `INSERT INTO ${qualified} (${PG_VECTOR_COLUMNS}, embedding) VALUES ${tuples.join(", ")}
           ON CONFLICT (id) DO UPDATE SET
             document_key = EXCLUDED.document_key, chunk_index = EXCLUDED.chunk_index,
             start_line = EXCLUDED.start_line, end_line = EXCLUDED.end_line,
             heading_trail = EXCLUDED.heading_trail, source = EXCLUDED.source, tags = EXCLUDED.tags,
             created_at = EXCLUDED.created_at, text = EXCLUDED.text, embedding = EXCLUDED.embedding`;
  return { text, values };
}
