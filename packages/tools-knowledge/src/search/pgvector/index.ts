export {
  createPgVectorStore,
  type PgVectorStore,
  type PgVectorStoreOptions,
} from "./create-pg-vector-store.js";
export {
  DEFAULT_PG_TEXT_SEARCH_CONFIGURATION,
  DEFAULT_PG_VECTOR_TABLE,
  PG_VECTOR_MAX_INDEXED_DIMENSIONS,
  type PgVectorSchemaOptions,
  pgVectorSchemaStatements,
} from "./pg-vector-schema.js";
export {
  PG_UPSERT_ROWS_PER_STATEMENT,
  type PgQueryClient,
} from "./pg-vector-table.js";
