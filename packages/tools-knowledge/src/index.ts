export { KnowledgeSourceError } from "./engine/knowledge-source-error.js";
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
} from "./engine/lexical-index.js";
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
} from "./engine/types.js";
export {
  type BaseStoreItemLike,
  type BaseStoreLike,
  type BaseStoreMemoryBackendOptions,
  createBaseStoreMemoryBackend,
  DEFAULT_BASE_STORE_MEMORY_PREFIX,
  DEFAULT_BASE_STORE_PAGE_SIZE,
} from "./memory/base-store-memory-backend.js";
export {
  createMemoryTools,
  MEMORY_TOOL_NAME_LIST,
  type MemoryTool,
  type MemoryToolsOptions,
} from "./memory/create-memory-tools.js";
export {
  createInMemoryMemoryBackend,
  type InMemoryMemoryBackend,
} from "./memory/in-memory-memory-backend.js";
export type { MemoryNamespaceOption } from "./memory/internal/memory-tool-common.js";
export type {
  MemoryBackend,
  MemoryBackendCallOptions,
  MemoryRecord,
  MemorySnapshot,
  MemoryWriteOutcome,
  MemoryWriteRequest,
} from "./memory/memory-backend.js";
export {
  createMemoryDeleteTool,
  DEFAULT_MEMORY_DELETE_TIMEOUT_MS,
  formatMemoryDeleteResult,
  MEMORY_DELETE_ALIASES,
  MEMORY_DELETE_TOOL_NAME,
  type MemoryDeleteTool,
  type MemoryDeleteToolData,
  type MemoryDeleteToolOptions,
  memoryDeleteInputSchema,
} from "./memory/memory-delete.js";
export {
  createMemoryListTool,
  DEFAULT_MEMORY_LIST_LIMIT,
  DEFAULT_MEMORY_LIST_MAX_LIMIT,
  DEFAULT_MEMORY_LIST_TIMEOUT_MS,
  formatMemoryListResult,
  MEMORY_LIST_ALIASES,
  MEMORY_LIST_TOOL_NAME,
  type MemoryListEntry,
  type MemoryListFormatOptions,
  type MemoryListTool,
  type MemoryListToolData,
  type MemoryListToolOptions,
  memoryListInputSchema,
} from "./memory/memory-list.js";
export {
  createMemoryReadTool,
  DEFAULT_MEMORY_READ_TIMEOUT_MS,
  formatMemoryReadResult,
  MEMORY_READ_ALIASES,
  MEMORY_READ_TOOL_NAME,
  type MemoryReadTool,
  type MemoryReadToolData,
  type MemoryReadToolOptions,
  memoryReadInputSchema,
} from "./memory/memory-read.js";
export {
  createMemoryRememberTool,
  EXCERPT_KEY_PREFIX,
  type MemoryRememberToolOptions,
} from "./memory/memory-remember.js";
export {
  DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS,
  encodeNamespaceLabel,
  MAX_MEMORY_CONTENT_CHARACTERS,
  MAX_MEMORY_KEY_CHARACTERS,
  MAX_MEMORY_NAMESPACE_LABEL_CHARACTERS,
  MAX_MEMORY_NAMESPACE_LABELS,
  MAX_MEMORY_TAG_CHARACTERS,
  MAX_MEMORY_TAGS,
  MEMORY_KEY_PATTERN,
  MEMORY_TAG_PATTERN,
  memoryKeyProblem,
  memoryNamespaceProblem,
  memoryTagProblem,
  normalizeMemoryTags,
} from "./memory/memory-rules.js";
export {
  createMemorySearchTool,
  DEFAULT_MEMORY_EXCERPT_CHARACTERS,
  DEFAULT_MEMORY_SEARCH_LIMIT,
  DEFAULT_MEMORY_SEARCH_MAX_LIMIT,
  DEFAULT_MEMORY_SEARCH_TIMEOUT_MS,
  formatMemorySearchResult,
  MEMORY_SEARCH_ALIASES,
  MEMORY_SEARCH_TOOL_NAME,
  type MemorySearchEmptyReason,
  type MemorySearchFormatOptions,
  type MemorySearchResult,
  type MemorySearchTool,
  type MemorySearchToolData,
  type MemorySearchToolOptions,
  memorySearchInputSchema,
} from "./memory/memory-search.js";
export {
  createMemoryWriteTool,
  DEFAULT_MEMORY_WRITE_TIMEOUT_MS,
  formatMemoryWriteResult,
  MEMORY_WRITE_ALIASES,
  MEMORY_WRITE_TOOL_NAME,
  type MemoryWriteFormatOptions,
  type MemoryWriteTool,
  type MemoryWriteToolData,
  type MemoryWriteToolOptions,
  memoryWriteInputSchema,
} from "./memory/memory-write.js";
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
} from "./memory/remember.js";
export {
  BINARY_SNIFF_BYTES,
  type ChunkMarkdownOptions,
  chunkMarkdown,
  DEFAULT_MAX_CHUNK_CHARACTERS,
  isBinaryContent,
  MIN_MAX_CHUNK_CHARACTERS,
} from "./search/chunk-markdown.js";
export {
  createInMemoryVectorStore,
  type InMemoryVectorStore,
} from "./search/in-memory-vector-store.js";
export {
  DEFAULT_INGEST_BATCH_SIZE,
  type IngestDocument,
  type IngestedDocument,
  type IngestOptions,
  type IngestProgress,
  type IngestResult,
  ingest,
  MAX_INGEST_BATCH_SIZE,
} from "./search/ingest.js";
export {
  createLangChainVectorStore,
  type LangChainDocumentLike,
  type LangChainFilterRequest,
  type LangChainVectorStoreLike,
  type LangChainVectorStoreOptions,
} from "./search/lang-chain-vector-store.js";
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
} from "./search/search-knowledge.js";
export {
  createStoreSource,
  DEFAULT_STORE_MAX_RESULTS,
  type StoreSourceOptions,
} from "./search/store-source.js";
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
} from "./search/window-expansion.js";
export {
  createSkillTools,
  SKILL_TOOL_NAMES,
  type SkillToolsOptions,
} from "./skills/create-skill-tools.js";
export {
  createReadSkillFileTool,
  DEFAULT_MAX_SKILL_LINE_CHARACTERS,
  DEFAULT_MAX_SKILL_PAGE_CHARACTERS,
  DEFAULT_READ_SKILL_FILE_LIMIT,
  DEFAULT_READ_SKILL_FILE_MAX_LIMIT,
  DEFAULT_READ_SKILL_FILE_TIMEOUT_MS,
  formatReadSkillFilePage,
  READ_SKILL_FILE_ALIASES,
  READ_SKILL_FILE_TOOL_NAME,
  type ReadSkillFileCutLine,
  type ReadSkillFileFormatOptions,
  type ReadSkillFileTool,
  type ReadSkillFileToolData,
  type ReadSkillFileToolOptions,
  readSkillFileInputSchema,
} from "./skills/read-skill-file.js";
export {
  DEFAULT_SKILL_MENU_TOOL_NAME,
  type RenderSkillMenuOptions,
  renderSkillMenu,
  SKILL_MENU_HEADING,
} from "./skills/render-skill-menu.js";
export {
  MAX_FRONT_MATTER_CHARACTERS,
  MAX_SKILL_DESCRIPTION_CHARACTERS,
  MAX_SKILL_NAME_CHARACTERS,
  type ParsedSkillFile,
  parseSkillFile,
  SKILL_NAME_PATTERN,
  type SkillFileParse,
} from "./skills/skill-front-matter.js";
export type {
  LoadedSkill,
  SkillFileEntry,
  SkillFileProblem,
  SkillFileRead,
  SkillSource,
  SkillSourceContext,
  SkillSummary,
} from "./skills/skill-source.js";
export {
  createUseSkillTool,
  DEFAULT_USE_SKILL_TIMEOUT_MS,
  formatUseSkillResult,
  USE_SKILL_ALIASES,
  USE_SKILL_TOOL_NAME,
  type UseSkillFile,
  type UseSkillFormatOptions,
  type UseSkillTool,
  type UseSkillToolData,
  type UseSkillToolOptions,
  useSkillInputSchema,
} from "./skills/use-skill.js";
