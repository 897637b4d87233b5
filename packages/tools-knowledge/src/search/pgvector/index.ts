export {
  createPgVectorStore,
  DEFAULT_PG_TEXT_SEARCH_CONFIGURATION,
  DEFAULT_PG_VECTOR_TABLE,
  PG_UPSERT_ROWS_PER_STATEMENT,
  PG_VECTOR_MAX_INDEXED_DIMENSIONS,
  type PgQueryClient,
  type PgVectorSchemaOptions,
  type PgVectorStore,
  type PgVectorStoreOptions,
  pgVectorSchemaStatements,
} from "./create-pg-vector-store.js";
