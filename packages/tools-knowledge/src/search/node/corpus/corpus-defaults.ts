// The corpus source's defaults and limits, public (exported on `./node`) and internal.

/** The sidecar folder inside the corpus root (hidden: grep, glob and the corpus walk skip it). */
export const CORPUS_INDEX_FOLDER = ".knowledge";

/** The index file inside {@link CORPUS_INDEX_FOLDER}. */
export const CORPUS_INDEX_FILE = "index.bin";

/**
 * Largest sidecar read: 4 GiB (a larger `index.bin` is rebuilt with a warning, never read). About a
 * million 1,024-dimension vectors.
 */
export const MAX_INDEX_FILE_BYTES = 4 * 1024 * 1024 * 1024;

/** File name endings indexed by default: Markdown and plain text. */
export const DEFAULT_CORPUS_EXTENSIONS: readonly string[] = Object.freeze([
  ".md",
  ".markdown",
  ".mdx",
  ".txt",
  ".rst",
]);

/** Folders skipped besides hidden ones. */
export const DEFAULT_SKIPPED_FOLDERS: readonly string[] = Object.freeze(["node_modules"]);

/** Default texts per `embedDocuments` call: 64. */
export const DEFAULT_EMBEDDING_BATCH_SIZE = 64;

/** Default retries of a failed embedding call: 2 (three attempts, 250 ms then 1 s apart). */
export const DEFAULT_EMBEDDING_RETRIES = 2;

/** Default pause before the first retry; each next one waits four times longer. */
export const DEFAULT_EMBEDDING_RETRY_DELAY_MS = 250;

/**
 * Default time after an embedder failure during which searches do not call it again (BM25
 * answers, with a warning): 30 seconds. Keeps a down embedder from slowing every search.
 */
export const DEFAULT_EMBEDDING_COOLDOWN_MS = 30_000;

/** Default largest file indexed: 8 MiB (larger files are skipped with a warning). */
export const DEFAULT_MAX_CORPUS_FILE_BYTES = 8 * 1024 * 1024;

/** Default number of nearest chunks (by cosine) that join the fusion: 100. */
export const DEFAULT_DENSE_CANDIDATES = 100;

/** Default time between two saves of a long cold build: 30 seconds. */
export const DEFAULT_CHECKPOINT_MS = 30_000;

/**
 * New text below this (bytes) is indexed on the calling thread, above it on a worker (starting one
 * costs tens of milliseconds; see `indexWorker`).
 */
export const DEFAULT_INDEX_WORKER_MINIMUM_BYTES = 1024 * 1024;

/**
 * Default longest time a watched corpus goes without a full walk: 30 seconds. Between walks a
 * search trusts the folder watchers (no event, no change); this bounds what a missed event (a
 * network mount that sends none) can hide.
 */
export const DEFAULT_RESCAN_INTERVAL_MS = 30_000;

/** Most watcher-named entries a refresh checks one by one; more means a walk. */
export const MAX_EVENT_PATHS = 256;

/** Default most folders watched; a corpus with more is walked on every search instead: 4,096. */
export const DEFAULT_MAX_WATCHED_FOLDERS = 4_096;

/** Files read at once during a refresh. */
export const READ_CONCURRENCY = 8;

/** Files up to this size are read synchronously (see `readSmallFile`). */
export const SYNC_READ_MAX_BYTES = 256 * 1024;

/** Longest run of synchronous work in the read loop before it yields, in ms. */
export const SYNC_READ_SLICE_MS = 20;

/** Buffers per vectored write (Linux's IOV_MAX is 1,024). */
export const WRITE_PARTS_PER_CALL = 512;
