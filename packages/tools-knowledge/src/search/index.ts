/**
 * The search half of `@agentool/tools-knowledge`, runtime-neutral: `search_knowledge`, the stores
 * and sources behind it, ingestion, Markdown chunking and the lexical index.
 *
 * @packageDocumentation
 */

export { KnowledgeSourceError } from "../engine/knowledge-source-error.js";
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
} from "../engine/lexical-index.js";
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
} from "../engine/types.js";
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
  createSearchKnowledgeTool,
  DEFAULT_MAX_EXCERPT_CHARACTERS,
  DEFAULT_SEARCH_KNOWLEDGE_LIMIT,
  DEFAULT_SEARCH_KNOWLEDGE_MAX_LIMIT,
  DEFAULT_SEARCH_KNOWLEDGE_TIMEOUT_MS,
  formatSearchKnowledgeResult,
  type KnowledgeSourceKind,
  MAX_SEARCH_TAGS,
  SEARCH_KNOWLEDGE_ALIASES,
  SEARCH_KNOWLEDGE_TOOL_NAME,
  type SearchKnowledgeFormatOptions,
  type SearchKnowledgeHit,
  type SearchKnowledgeInput,
  type SearchKnowledgeTool,
  type SearchKnowledgeToolData,
  type SearchKnowledgeToolOptions,
  searchKnowledgeInputSchema,
} from "./search-knowledge.js";
export {
  createStoreSource,
  DEFAULT_STORE_MAX_RESULTS,
  type StoreSourceOptions,
} from "./store-source.js";
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
