import { join, resolve } from "node:path";
import { parseOptions } from "@agentool/contract";
import { z } from "zod";
import { embeddingsSchema } from "../../../engine/option-schemas.js";
import type { Embeddings } from "../../../engine/types.js";
import { DEFAULT_MAX_PASSAGE_CHARACTERS } from "../../window-expansion.js";
import { INDEX_FORMAT_VERSION } from "../internal/index-file.js";
import {
  CORPUS_INDEX_FILE,
  CORPUS_INDEX_FOLDER,
  DEFAULT_CHECKPOINT_MS,
  DEFAULT_CORPUS_EXTENSIONS,
  DEFAULT_DENSE_CANDIDATES,
  DEFAULT_EMBEDDING_BATCH_SIZE,
  DEFAULT_EMBEDDING_COOLDOWN_MS,
  DEFAULT_EMBEDDING_RETRIES,
  DEFAULT_EMBEDDING_RETRY_DELAY_MS,
  DEFAULT_INDEX_WORKER_MINIMUM_BYTES,
  DEFAULT_MAX_CORPUS_FILE_BYTES,
  DEFAULT_MAX_WATCHED_FOLDERS,
  DEFAULT_RESCAN_INTERVAL_MS,
  DEFAULT_SKIPPED_FOLDERS,
} from "./corpus-defaults.js";

/** Options of {@link createCorpusSource}. */
export interface CorpusSourceOptions {
  /** The corpus folder (e.g. where `web_fetch` saves pages). It may not exist yet. */
  root: string;
  /**
   * Where the sidecar index lives. Default `<root>/.knowledge` (hidden, so grep, glob and the
   * corpus walk skip it). Point it elsewhere (e.g. a cache folder) when the corpus must not be
   * written to — a read-only mount, or a server that promises not to touch the folder.
   */
  indexDirectory?: string;
  /** Any LangChain-shaped embedder: turns on hybrid ranking (BM25 + cosine, fused by reciprocal rank). */
  embeddings?: Embeddings;
  /** Texts per `embedDocuments` call. Default {@link DEFAULT_EMBEDDING_BATCH_SIZE} (64). */
  batchSize?: number;
  /** Largest chunk, in characters (passed to `chunkMarkdown`). Default: the chunker's own. */
  maxChunkCharacters?: number;
  /**
   * Neighbouring chunks stitched on each side of a hit into one passage (0 = the chunk alone).
   * Default 0.
   */
  window?: number;
  /** Cap of one stitched passage. Default {@link DEFAULT_MAX_PASSAGE_CHARACTERS} (8,000). */
  maxPassageCharacters?: number;
  /** Retries of a failed embedding call. Default {@link DEFAULT_EMBEDDING_RETRIES} (2). */
  retries?: number;
  /** Pause before the first retry in ms (×4 each next one). Default {@link DEFAULT_EMBEDDING_RETRY_DELAY_MS}. */
  retryDelayMs?: number;
  /** Quiet time after an embedder failure. Default {@link DEFAULT_EMBEDDING_COOLDOWN_MS} (30 s). */
  embeddingCooldownMs?: number;
  /** File name endings to index. Default {@link DEFAULT_CORPUS_EXTENSIONS}. */
  extensions?: readonly string[];
  /** Largest file indexed, in bytes. Default {@link DEFAULT_MAX_CORPUS_FILE_BYTES} (8 MiB). */
  maxFileBytes?: number;
  /** Nearest chunks that join the fusion. Default {@link DEFAULT_DENSE_CANDIDATES} (100). */
  denseCandidates?: number;
  /** Time between two saves of a long build, in ms. Default {@link DEFAULT_CHECKPOINT_MS} (30 s). */
  checkpointMs?: number;
  /**
   * Watch the corpus folders (`fs.watch`, one per folder, never keeping the process alive) so a
   * search with no change since the last one skips the walk entirely; any event, a watcher error
   * or `rescanIntervalMs` without a walk means a full walk (size + mtime) again. `false`: walk on
   * every search (for file systems that send no change events, e.g. some network mounts).
   * Default `true`.
   */
  watch?: boolean;
  /** Longest time without a full walk while watching, in ms. Default {@link DEFAULT_RESCAN_INTERVAL_MS} (30 s). */
  rescanIntervalMs?: number;
  /** Most folders watched; more means a walk on every search. Default {@link DEFAULT_MAX_WATCHED_FOLDERS}. */
  maxWatchedFolders?: number;
  /**
   * Build the BM25 index of a first build (or a clean re-index) on a worker thread, in parallel
   * with reading, chunking and embedding, when the new files hold at least
   * `indexWorkerMinimumBytes`. The index is the same either way (a worker that cannot start or
   * fails means the same work on the calling thread). `false`: everything on the calling thread.
   * Default `true`.
   */
  indexWorker?: boolean;
  /** See `indexWorker`. Default {@link DEFAULT_INDEX_WORKER_MINIMUM_BYTES} (1 MiB). */
  indexWorkerMinimumBytes?: number;
  /** Receives every warning (index rebuilt, embedder failed, file skipped…) as it happens. */
  onWarn?: (message: string) => void;
}

const optionsSchema = z.object({
  root: z.string().min(1),
  indexDirectory: z.string().min(1).optional(),
  embeddings: embeddingsSchema.optional(),
  batchSize: z.number().int().min(1).max(10_000).optional(),
  maxChunkCharacters: z.number().int().min(100).max(1_000_000).optional(),
  window: z.number().int().min(0).max(20).optional(),
  maxPassageCharacters: z.number().int().min(100).max(1_000_000).optional(),
  retries: z.number().int().min(0).max(10).optional(),
  retryDelayMs: z.number().int().min(0).max(60_000).optional(),
  embeddingCooldownMs: z.number().int().min(0).optional(),
  extensions: z
    .array(z.string().regex(/^\.[A-Za-z0-9._-]+$/, "an extension starts with a dot, e.g. '.md'"))
    .min(1)
    .readonly()
    .optional(),
  maxFileBytes: z.number().int().min(1).optional(),
  denseCandidates: z.number().int().min(1).max(100_000).optional(),
  checkpointMs: z.number().int().min(0).optional(),
  watch: z.boolean().optional(),
  rescanIntervalMs: z.number().int().min(0).optional(),
  maxWatchedFolders: z.number().int().min(1).max(1_000_000).optional(),
  indexWorker: z.boolean().optional(),
  indexWorkerMinimumBytes: z.number().int().min(0).optional(),
  onWarn: z.custom<(message: string) => void>((value) => typeof value === "function").optional(),
});

/** The options of a corpus source, checked, with every default filled in. */
export interface CorpusSettings {
  /** The corpus root, absolute (as given, not resolved through links). */
  root: string;
  /** The sidecar folder, absolute. */
  folder: string;
  /** The sidecar index file, absolute. */
  indexPath: string;
  /**
   * Whether the sidecar folder is the default `<root>/.knowledge`, inside content someone else may
   * have written: then it must be a real folder (not a link), else the index stays in memory.
   * A host's `indexDirectory` is trusted as given.
   */
  confinedFolder: boolean;
  embeddings: Embeddings | undefined;
  batchSize: number;
  /** As given (`undefined`: the chunker's own cap). */
  maxChunkCharacters: number | undefined;
  /** What `chunkMarkdown` is given. */
  chunkOptions: { maxChunkCharacters?: number };
  windowSize: number;
  maxPassageCharacters: number;
  retries: number;
  retryDelayMs: number;
  cooldownMs: number;
  /** Lower-cased. */
  extensions: string[];
  skipFolders: ReadonlySet<string>;
  maxFileBytes: number;
  denseCandidates: number;
  checkpointMs: number;
  indexWorker: boolean;
  indexWorkerMinimumBytes: number;
  watchFolders: boolean;
  rescanIntervalMs: number;
  maxWatchedFolders: number;
  /** What an index must have been built with to be used: format, chunk size, embedder. */
  fingerprint: string;
  /** Records a warning in `warnings` and tells the host's `onWarn` (whose errors are ignored). */
  warn(warnings: string[], message: string): void;
}

function describeEmbedder(
  embeddings: Embeddings | undefined,
): Record<string, string | number> | null {
  if (embeddings === undefined) return null;
  const record = embeddings as unknown as Record<string, unknown>;
  const description: Record<string, string | number> = {
    class: (embeddings as { constructor?: { name?: string } }).constructor?.name ?? "Object",
  };
  for (const key of ["model", "modelName", "dimensions"] as const) {
    const value = record[key];
    if (typeof value === "string" || typeof value === "number") description[key] = value;
  }
  return description;
}

/**
 * Checks the options of {@link createCorpusSource} and fills in every default.
 *
 * @param options - what the host passed
 * @returns the settings
 * @throws AgentoolError when the options are invalid
 */
export function resolveCorpusSettings(options: CorpusSourceOptions): CorpusSettings {
  const parsed = parseOptions("createCorpusSource", optionsSchema, options);
  const root = resolve(parsed.root);
  const folder =
    parsed.indexDirectory === undefined
      ? join(root, CORPUS_INDEX_FOLDER)
      : resolve(parsed.indexDirectory);
  const maxChunkCharacters = parsed.maxChunkCharacters;
  const onWarn = parsed.onWarn;
  return {
    root,
    folder,
    indexPath: join(folder, CORPUS_INDEX_FILE),
    confinedFolder: parsed.indexDirectory === undefined,
    embeddings: parsed.embeddings,
    batchSize: parsed.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE,
    maxChunkCharacters,
    chunkOptions: maxChunkCharacters === undefined ? {} : { maxChunkCharacters },
    windowSize: parsed.window ?? 0,
    maxPassageCharacters: parsed.maxPassageCharacters ?? DEFAULT_MAX_PASSAGE_CHARACTERS,
    retries: parsed.retries ?? DEFAULT_EMBEDDING_RETRIES,
    retryDelayMs: parsed.retryDelayMs ?? DEFAULT_EMBEDDING_RETRY_DELAY_MS,
    cooldownMs: parsed.embeddingCooldownMs ?? DEFAULT_EMBEDDING_COOLDOWN_MS,
    extensions: (parsed.extensions ?? DEFAULT_CORPUS_EXTENSIONS).map((extension) =>
      extension.toLowerCase(),
    ),
    skipFolders: new Set(DEFAULT_SKIPPED_FOLDERS),
    maxFileBytes: parsed.maxFileBytes ?? DEFAULT_MAX_CORPUS_FILE_BYTES,
    denseCandidates: parsed.denseCandidates ?? DEFAULT_DENSE_CANDIDATES,
    checkpointMs: parsed.checkpointMs ?? DEFAULT_CHECKPOINT_MS,
    indexWorker: parsed.indexWorker ?? true,
    indexWorkerMinimumBytes: parsed.indexWorkerMinimumBytes ?? DEFAULT_INDEX_WORKER_MINIMUM_BYTES,
    watchFolders: parsed.watch ?? true,
    rescanIntervalMs: parsed.rescanIntervalMs ?? DEFAULT_RESCAN_INTERVAL_MS,
    maxWatchedFolders: parsed.maxWatchedFolders ?? DEFAULT_MAX_WATCHED_FOLDERS,
    fingerprint: JSON.stringify({
      format: INDEX_FORMAT_VERSION,
      chunk: maxChunkCharacters ?? "default",
      embedder: describeEmbedder(parsed.embeddings),
    }),
    warn(warnings, message) {
      warnings.push(message);
      try {
        onWarn?.(message);
      } catch {
        // a host's listener never breaks a refresh
      }
    },
  };
}
