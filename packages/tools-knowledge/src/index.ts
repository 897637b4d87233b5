export {
  BINARY_SNIFF_BYTES,
  type ChunkMarkdownOptions,
  chunkMarkdown,
  DEFAULT_MAX_CHUNK_CHARACTERS,
  isBinaryContent,
  MIN_MAX_CHUNK_CHARACTERS,
} from "./chunk-markdown.js";
export {
  createInMemoryVectorStore,
  type InMemoryVectorStore,
} from "./in-memory-vector-store.js";
export {
  DEFAULT_INGEST_BATCH_SIZE,
  type IngestDocument,
  type IngestedDocument,
  type IngestOptions,
  type IngestProgress,
  type IngestResult,
  ingest,
  MAX_INGEST_BATCH_SIZE,
} from "./ingest.js";
export {
  createLangChainVectorStore,
  type LangChainDocumentLike,
  type LangChainFilterRequest,
  type LangChainVectorStoreLike,
  type LangChainVectorStoreOptions,
} from "./lang-chain-vector-store.js";
export {
  createLexicalIndex,
  LEXICAL_FIELD_BOOSTS,
  LEXICAL_INDEX_FORMAT,
  LEXICAL_INDEX_VERSION,
  type LexicalDocument,
  type LexicalIndex,
  LexicalIndexLoadError,
  type LexicalMatch,
  type LexicalSearchOptions,
  loadLexicalIndex,
} from "./lexical-index.js";
export {
  createRememberTool,
  DEFAULT_MAX_REMEMBER_CHARACTERS,
  DEFAULT_MAX_REMEMBER_TAGS,
  DEFAULT_REMEMBER_SEARCH_TOOL_NAME,
  DEFAULT_REMEMBER_TIMEOUT_MS,
  formatRememberResult,
  MAX_REMEMBER_SOURCE_CHARACTERS,
  MAX_REMEMBER_TAG_CHARACTERS,
  REMEMBER_ALIASES,
  REMEMBER_TOOL_NAME,
  type RememberFormatOptions,
  type RememberTool,
  type RememberToolData,
  type RememberToolOptions,
  rememberInputSchema,
} from "./remember.js";
export {
  createStoreSource,
  DEFAULT_STORE_MAX_RESULTS,
  type StoreSourceOptions,
} from "./store-source.js";
export type {
  Chunk,
  ChunkedDocument,
  Embeddings,
  EmptyReason,
  KnowledgeHit,
  KnowledgeSearchContext,
  KnowledgeSearchRequest,
  KnowledgeSearchResult,
  KnowledgeSource,
  VectorMatch,
  VectorQuery,
  VectorRecord,
  VectorRecordMetadata,
  VectorStore,
} from "./types.js";
export {
  DEFAULT_MAX_PASSAGE_CHARACTERS,
  DEFAULT_WINDOW_FETCH_CONCURRENCY,
  type ExpandWindowsOptions,
  expandWindows,
  MAX_WINDOW,
  type WindowChunk,
  type WindowFetch,
  type WindowHit,
  type WindowPassage,
} from "./window-expansion.js";
