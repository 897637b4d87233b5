/**
 * The memory half of `@agentool/tools-knowledge`, runtime-neutral: the keyed memory tools
 * (`memory_write`, `memory_read`, `memory_search`, `memory_list`, `memory_delete`) with their
 * in-process and LangGraph `BaseStore` backends, and `remember`, the write half of a store-backed
 * search.
 *
 * @packageDocumentation
 */
export {
  type BaseStoreItemLike,
  type BaseStoreLike,
  type BaseStoreMemoryBackendOptions,
  createBaseStoreMemoryBackend,
  DEFAULT_BASE_STORE_MEMORY_PREFIX,
  DEFAULT_BASE_STORE_PAGE_SIZE,
} from "./base-store-memory-backend.js";
export {
  createMemoryTools,
  MEMORY_TOOL_NAME_LIST,
  type MemoryTool,
  type MemoryToolsOptions,
} from "./create-memory-tools.js";
export {
  createInMemoryMemoryBackend,
  type InMemoryMemoryBackend,
} from "./in-memory-memory-backend.js";
export type { MemoryNamespaceOption } from "./internal/memory-tool-common.js";
export type {
  MemoryBackend,
  MemoryBackendCallOptions,
  MemoryRecord,
  MemorySnapshot,
  MemoryWriteOutcome,
  MemoryWriteRequest,
} from "./memory-backend.js";
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
} from "./memory-delete.js";
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
} from "./memory-list.js";
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
} from "./memory-read.js";
export {
  createMemoryRememberTool,
  EXCERPT_KEY_PREFIX,
  type MemoryRememberToolOptions,
} from "./memory-remember.js";
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
} from "./memory-rules.js";
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
} from "./memory-search.js";
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
} from "./memory-write.js";
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
