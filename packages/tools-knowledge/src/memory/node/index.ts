/**
 * The memory half of `@agentool/tools-knowledge` on Node: the crash-safe file store.
 *
 * @packageDocumentation
 */
export {
  createFileMemoryBackend,
  type FileMemoryBackend,
  type FileMemoryBackendOptions,
} from "./file-memory-backend.js";
export {
  FILE_MEMORY_FINE_RACY_WINDOW_MS,
  FILE_MEMORY_FORMAT,
  FILE_MEMORY_RACY_WINDOW_MS,
  FILE_MEMORY_SHARDS,
  FILE_MEMORY_STALE_TEMP_MS,
} from "./file-memory-format.js";
