/**
 * The search half of `@agentool/tools-knowledge` on Node: a corpus source over a folder of
 * Markdown with an incremental sidecar index.
 *
 * @packageDocumentation
 */
export {
  CORPUS_INDEX_FILE,
  CORPUS_INDEX_FOLDER,
  DEFAULT_CHECKPOINT_MS,
  DEFAULT_CORPUS_EXTENSIONS,
  DEFAULT_DENSE_CANDIDATES,
  DEFAULT_EMBEDDING_BATCH_SIZE,
  DEFAULT_EMBEDDING_COOLDOWN_MS,
  DEFAULT_EMBEDDING_RETRIES,
  DEFAULT_EMBEDDING_RETRY_DELAY_MS,
  DEFAULT_MAX_CORPUS_FILE_BYTES,
  DEFAULT_SKIPPED_FOLDERS,
} from "./corpus/corpus-defaults.js";
export type { CorpusSourceOptions } from "./corpus/corpus-settings.js";
export type { CorpusRefreshReport, CorpusSource } from "./corpus/corpus-source.js";
export { createCorpusSource } from "./corpus/create-corpus-source.js";
