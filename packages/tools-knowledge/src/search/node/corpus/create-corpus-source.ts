import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  type FSWatcher,
  constants as fsConstants,
  fstatSync,
  openSync,
  readFileSync,
  watch,
} from "node:fs";
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { parseOptions } from "@agentool/contract";
import { similarity } from "ml-distance";
import { z } from "zod";
import { KnowledgeSourceError } from "../../engine/knowledge-source-error.js";
import {
  adoptLexicalSnapshot,
  createLexicalIndex,
  type LexicalDocument,
  type LexicalIndex,
} from "../../engine/lexical-index.js";
import type {
  ChunkedDocument,
  Embeddings,
  KnowledgeHit,
  KnowledgeSearchContext,
  KnowledgeSearchRequest,
  KnowledgeSearchResult,
  KnowledgeSource,
} from "../../engine/types.js";
import { embeddingsSchema } from "../../internal/option-schemas.js";
import { chunkMarkdown, DEFAULT_MAX_CHUNK_CHARACTERS, isBinaryContent } from "../chunk-markdown.js";
import { fuseReciprocalRanks, RECIPROCAL_RANK_K, rankDocuments } from "../internal/rank-fusion.js";
import { DEFAULT_MAX_PASSAGE_CHARACTERS } from "../window-expansion.js";
import {
  hasCorpusExtension,
  isSecretCorpusPath,
  type WalkedFile,
  walkCorpus,
} from "./internal/corpus-walk.js";
import {
  decodeIndex,
  encodeIndexParts,
  INDEX_FORMAT_VERSION,
  IndexFileError,
  type StoredChunk,
  type StoredFile,
} from "./internal/index-file.js";
import { type LexicalBuild, startLexicalBuild } from "./internal/lexical-build.js";

/** The sidecar folder inside the corpus root (hidden: grep, glob and the corpus walk skip it). */
export const CORPUS_INDEX_FOLDER = ".knowledge";

/** The index file inside {@link CORPUS_INDEX_FOLDER}. */
export const CORPUS_INDEX_FILE = "index.bin";

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
const MAX_EVENT_PATHS = 256;

/** Default most folders watched; a corpus with more is walked on every search instead: 4,096. */
export const DEFAULT_MAX_WATCHED_FOLDERS = 4_096;

const READ_CONCURRENCY = 8;

/** Files up to this size are read synchronously (see `readSmallFile`). */
const SYNC_READ_MAX_BYTES = 256 * 1024;

/** Longest run of synchronous work in the read loop before it yields, in ms. */
const SYNC_READ_SLICE_MS = 20;

/** Buffers per vectored write (Linux's IOV_MAX is 1,024). */
const WRITE_PARTS_PER_CALL = 512;

/**
 * Writes `parts` one after another into a new file at `path` (vectored writes, short writes
 * resumed), then closes it.
 */
async function writeParts(path: string, parts: readonly Buffer[]): Promise<void> {
  const handle = await open(path, "wx");
  try {
    let next = 0;
    // Bytes of parts[next] already written (after a short write).
    let written = 0;
    while (next < parts.length) {
      const batch = parts.slice(next, next + WRITE_PARTS_PER_CALL);
      batch[0] = (batch[0] as Buffer).subarray(written);
      let { bytesWritten } = await handle.writev(batch);
      if (bytesWritten === 0) throw new Error("the index file accepts no more bytes");
      let whole = 0;
      while (whole < batch.length && bytesWritten >= (batch[whole] as Buffer).length) {
        bytesWritten -= (batch[whole] as Buffer).length;
        whole += 1;
      }
      if (whole === 0) written += bytesWritten;
      else {
        next += whole;
        written = bytesWritten;
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * Reads a small regular file synchronously. Opened non-blocking, so a FIFO or device put in the
 * file's place since the walk can never block the thread; anything but a regular file, and any
 * error, is `undefined` (the file is treated as gone).
 */
function readSmallFile(path: string): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    if (!fstatSync(descriptor).isFile()) return undefined;
    return readFileSync(descriptor);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

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

/** What one refresh did. */
export interface CorpusRefreshReport {
  /** Files in the index after the refresh. */
  files: number;
  /** Chunks in the index after the refresh. */
  chunks: number;
  /** Files seen for the first time. */
  added: number;
  /** Files whose content changed (re-chunked, re-embedded). */
  changed: number;
  /** Files whose size or time changed but whose bytes did not (re-hashed only). */
  touched: number;
  /** Files gone since the last refresh. */
  removed: number;
  /** Chunks embedded by this refresh. */
  embedded: number;
  /** Chunks still without a vector (their embedding failed; retried next time). */
  pendingEmbeddings: number;
  /** Whether the sidecar was written. */
  saved: boolean;
  /**
   * Whether the folder was walked (every file stat'ed). `false` when the folder watchers saw no
   * change since the last walk (see `watch`).
   */
  walked: boolean;
  /**
   * Entries checked because a folder watcher named them, when that was enough (no walk): each
   * was `lstat`ed, nothing else. 0 after a walk or when nothing changed.
   */
  eventPaths: number;
  /** Whether the BM25 index of this refresh was built on a worker thread (see `indexWorker`). */
  builtOnWorker: boolean;
  /** What went wrong or was rebuilt. */
  warnings: string[];
  /** Wall time in ms. */
  durationMs: number;
}

/** A corpus folder with its sidecar index: a {@link KnowledgeSource} for `search_knowledge`. */
export interface CorpusSource extends KnowledgeSource {
  /** The corpus root, absolute. */
  readonly root: string;
  /** The sidecar index file, absolute. */
  readonly indexPath: string;
  /**
   * Brings the index up to date with the folder (what every search does first). Concurrent calls
   * in one process share one refresh.
   */
  refresh(context?: Partial<KnowledgeSearchContext>): Promise<CorpusRefreshReport>;
  /**
   * Waits until the sidecar on disk holds what the index in memory holds. A search answers
   * before its changes are written (the write follows in the background); `refresh()` and
   * `close()` wait for it themselves.
   *
   * @returns whether the last write succeeded (`true` when there was nothing to write)
   */
  flush(): Promise<{ saved: boolean; warnings: string[] }>;
  /** Stops any refresh, waits for the last save and drops the in-memory index (a later search reloads it). */
  close(): Promise<void>;
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

/** One indexed file in memory. */
interface FileEntry {
  path: string;
  size: number;
  mtime_ms: number;
  sha256: string;
  id_base: number;
  chunks: StoredChunk[];
  /** Chunk indexes without a vector. */
  missing: Set<number>;
  vectors: Float32Array | undefined;
}

interface ChunkReference {
  file: FileEntry;
  index: number;
}

interface SkippedFile {
  size: number;
  mtime_ms: number;
}

interface IndexState {
  fingerprint: string;
  dimension: number;
  nextId: number;
  files: Map<string, FileEntry>;
  /** Files read once and found binary (not read again while their size and time stay). */
  skipped: Map<string, SkippedFile>;
  lexical: LexicalIndex;
  chunks: Map<number, ChunkReference>;
  chunkCount: number;
}

interface PendingEmbedding {
  file: FileEntry;
  index: number;
  text: string;
  /** The file's sha when the text was read (a re-indexed file's old jobs are dropped). */
  sha256: string;
}

interface RefreshOutcome {
  report: CorpusRefreshReport;
}

type Progress = NonNullable<KnowledgeSearchContext["progress"]>;

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

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64url");
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolvePromise();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Words of a file's name, searched as part of its first chunk's heading. */
function fileTitle(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return (dot > 0 ? name.slice(0, dot) : name).replace(/[-_.]+/g, " ");
}

function embeddingText(trail: readonly string[], text: string): string {
  return trail.length === 0 ? text : `${trail.join(" > ")}\n\n${text}`;
}

/** Lines as the chunker and `read_file` number them: split on `\n`, a `\r` before it dropped. */
function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

function decodeText(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Every embedded chunk's unit vector in one array, for the dense scan. */
interface ScanMatrix {
  /** The index state it was built from. */
  state: IndexState;
  /** The change counter it was built at. */
  generation: number;
  /** Vector length. */
  dimension: number;
  /** `rows × dimension` floats; row `starts[i] + c` is chunk `c` of `files[i]`. */
  values: Float32Array;
  /** The files with vectors, in index order. */
  files: FileEntry[];
  /** Each file's first row, and the row count at the end. */
  starts: Int32Array;
}

/** A chunk the dense scan kept: its file, its index there, its float32 cosine. */
interface DenseCandidate {
  entry: FileEntry;
  index: number;
  score: number;
}

/**
 * Inserts a candidate in its place (best first), keeping at most `wanted`.
 *
 * @returns the lowest score kept (what a next candidate must beat once the list is full)
 */
function keepCandidate(
  candidates: DenseCandidate[],
  wanted: number,
  candidate: DenseCandidate,
): number {
  let at = candidates.length;
  while (at > 0 && (candidates[at - 1] as DenseCandidate).score < candidate.score) at -= 1;
  candidates.splice(at, 0, candidate);
  if (candidates.length > wanted) candidates.pop();
  return (candidates[candidates.length - 1] as DenseCandidate).score;
}

/**
 * Fills `candidates` with the `wanted` rows of `scan` nearest to `query` (cosine, positive only),
 * best first — a function of its own so the engine optimises the hot loop on its own.
 */
function scanNearest(
  scan: ScanMatrix,
  query: Float32Array,
  queryNorm: number,
  wanted: number,
  allowed: ((entry: FileEntry) => boolean) | undefined,
  candidates: DenseCandidate[],
): void {
  const { values, files, starts, dimension } = scan;
  let floor = 0;
  for (let position = 0; position < files.length; position += 1) {
    const entry = files[position] as FileEntry;
    if (allowed !== undefined && !allowed(entry)) continue;
    const first = starts[position] as number;
    const end = starts[position + 1] as number;
    for (let row = first; row < end; row += 1) {
      const score = dotProduct(query, values, row * dimension, dimension) / queryNorm;
      if (!(score > 0) || (candidates.length >= wanted && score <= floor)) continue;
      floor = keepCandidate(candidates, wanted, { entry, index: row - first, score });
    }
  }
}

/**
 * {@link scanNearest} over each file's own vectors (with their norms), for a search that comes
 * before the matrix is rebuilt after a change.
 */
function scanNearestByFile(
  files: readonly FileEntry[],
  normsOf: (vectors: Float32Array) => Float32Array,
  dimension: number,
  query: Float32Array,
  queryNorm: number,
  wanted: number,
  allowed: ((entry: FileEntry) => boolean) | undefined,
  candidates: DenseCandidate[],
): void {
  let floor = 0;
  for (const entry of files) {
    const vectors = entry.vectors;
    if (vectors === undefined || (allowed !== undefined && !allowed(entry))) continue;
    const lengths = normsOf(vectors);
    const missing = entry.missing;
    for (let index = 0; index < entry.chunks.length; index += 1) {
      const length = lengths[index] as number;
      if (length === 0 || (missing.size > 0 && missing.has(index))) continue;
      const score = dotProduct(query, vectors, index * dimension, dimension) / (queryNorm * length);
      if (!(score > 0) || (candidates.length >= wanted && score <= floor)) continue;
      floor = keepCandidate(candidates, wanted, { entry, index, score });
    }
  }
}

/** `Σ query[i] · vectors[offset + i]` over `dimension` values, four at a time. */
function dotProduct(
  query: Float32Array,
  vectors: Float32Array,
  offset: number,
  dimension: number,
): number {
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  let at = 0;
  for (; at + 3 < dimension; at += 4) {
    sum0 += (query[at] as number) * (vectors[offset + at] as number);
    sum1 += (query[at + 1] as number) * (vectors[offset + at + 1] as number);
    sum2 += (query[at + 2] as number) * (vectors[offset + at + 2] as number);
    sum3 += (query[at + 3] as number) * (vectors[offset + at + 3] as number);
  }
  for (; at < dimension; at += 1) sum0 += (query[at] as number) * (vectors[offset + at] as number);
  return sum0 + sum1 + sum2 + sum3;
}

/**
 * Creates the corpus source: a folder of Markdown and text files with a sidecar index in
 * `<root>/.knowledge/index.bin` that every search refreshes lazily.
 *
 * - **Unchanged files are recognised by size + mtime without being read**; changed ones are
 *   re-hashed (sha-256) and, when their bytes really changed, re-chunked and only their chunks
 *   re-embedded; deleted files drop out; a renamed file keeps its vectors (same bytes).
 * - The index is one versioned binary file written atomically (temp file + rename): a CRC-32
 *   checked header, the file table, the BM25 index, and the vectors as raw float32. A corrupt,
 *   truncated or old-version file is rebuilt with a warning, never a crash; two processes can
 *   search the same folder at once (last writer wins; every write is whole). Another
 *   fingerprint — embedder class, `model` / `modelName` / `dimensions` when exposed, vector
 *   length, chunk size — means a clean re-index: vector spaces never mix.
 * - Concurrent searches in one process share one refresh. Indexing reports files done / total
 *   through `context.progress`.
 * - Ranking: BM25 over chunks (headings and the file's name weighted above body), fused by
 *   reciprocal rank (k = 60) with the rank of the chunk's file (its three best chunks), and —
 *   with `embeddings` — with the cosine rank of the nearest chunks. Embedding is batched
 *   (`batchSize`), retried with backoff and resumable: a failed batch keeps what was embedded,
 *   search answers with BM25 and a warning, and the next refresh embeds the rest.
 *
 * @param options - the root, the embedder and the knobs
 * @returns the source (pass it to `createSearchKnowledgeTool`)
 * @throws AgentoolError when the options are invalid
 * @example
 * const source = createCorpusSource({ root: "./sources", embeddings });
 * const searchKnowledge = createSearchKnowledgeTool({ source, mountedTools: ["read_file"] });
 * await source.refresh(); // optional warm-up; every search refreshes anyway
 */
export function createCorpusSource(options: CorpusSourceOptions): CorpusSource {
  const parsed = parseOptions("createCorpusSource", optionsSchema, options);
  const root = resolve(parsed.root);
  const folder =
    parsed.indexDirectory === undefined
      ? join(root, CORPUS_INDEX_FOLDER)
      : resolve(parsed.indexDirectory);
  const indexPath = join(folder, CORPUS_INDEX_FILE);
  const embeddings = parsed.embeddings;
  const batchSize = parsed.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE;
  const maxChunkCharacters = parsed.maxChunkCharacters;
  const windowSize = parsed.window ?? 0;
  const maxPassageCharacters = parsed.maxPassageCharacters ?? DEFAULT_MAX_PASSAGE_CHARACTERS;
  const retries = parsed.retries ?? DEFAULT_EMBEDDING_RETRIES;
  const retryDelayMs = parsed.retryDelayMs ?? DEFAULT_EMBEDDING_RETRY_DELAY_MS;
  const cooldownMs = parsed.embeddingCooldownMs ?? DEFAULT_EMBEDDING_COOLDOWN_MS;
  const extensions = (parsed.extensions ?? DEFAULT_CORPUS_EXTENSIONS).map((extension) =>
    extension.toLowerCase(),
  );
  const skipFolders = new Set(DEFAULT_SKIPPED_FOLDERS);
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_MAX_CORPUS_FILE_BYTES;
  const denseCandidates = parsed.denseCandidates ?? DEFAULT_DENSE_CANDIDATES;
  const checkpointMs = parsed.checkpointMs ?? DEFAULT_CHECKPOINT_MS;
  const indexWorker = parsed.indexWorker ?? true;
  const indexWorkerMinimumBytes =
    parsed.indexWorkerMinimumBytes ?? DEFAULT_INDEX_WORKER_MINIMUM_BYTES;
  /** The BM25 build of the running refresh while it is on a worker (see `indexWorker`). */
  let activeBuild: LexicalBuild | undefined;
  /** The vector arrays of each save in flight (they are written from where they are). */
  const vectorsBeingWritten: Array<Set<Float32Array>> = [];
  const watchFolders = parsed.watch ?? true;
  const rescanIntervalMs = parsed.rescanIntervalMs ?? DEFAULT_RESCAN_INTERVAL_MS;
  const maxWatchedFolders = parsed.maxWatchedFolders ?? DEFAULT_MAX_WATCHED_FOLDERS;
  const onWarn = parsed.onWarn;
  const chunkOptions = maxChunkCharacters === undefined ? {} : { maxChunkCharacters };
  const fingerprint = JSON.stringify({
    format: INDEX_FORMAT_VERSION,
    chunk: maxChunkCharacters ?? "default",
    embedder: describeEmbedder(embeddings),
  });

  let state: IndexState | undefined;
  let realRoot: string | undefined;
  let inFlight: Promise<RefreshOutcome> | undefined;
  let controller = new AbortController();
  const listeners = new Set<Progress>();
  /** The index file as this process last wrote or read it (to notice another process's write). */
  let diskStamp: string | undefined;
  let saving: Promise<void> = Promise.resolve();
  let embedderFailedAt = Number.NEGATIVE_INFINITY;
  let lastEmbedderError = "";
  let sidecarReady = false;
  let saveWarned = false;
  /** Files above `maxFileBytes` already warned about (path, size, time): each is named once. */
  let largeWarned = new Set<string>();
  /** Secret-path verdicts per relative path, across walks. */
  const secretCache = new Map<string, boolean>();
  /** Folder watchers by real path; `watching` is true while they cover every walked folder. */
  const watchers = new Map<string, FSWatcher>();
  let watching = false;
  /** Whether a watcher reported an event since the last walk started. */
  let changedSinceWalk = true;
  let lastWalkAt = Number.NEGATIVE_INFINITY;
  /** Whether the in-memory index differs from the sidecar on disk. */
  let unsaved = false;
  let saveLoop: Promise<boolean> | undefined;
  let saveAgain = false;
  /** Warnings of a background save, told with the next search. */
  const laterWarnings: string[] = [];
  /**
   * Bumped by every change to the files or their vectors; the scan matrix is rebuilt when it
   * moved on.
   */
  let generation = 0;
  let matrix: ScanMatrix | undefined;

  const closeWatchers = () => {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
    watching = false;
  };

  /**
   * The entries each watched folder reported since the last refresh; `undefined` when one event
   * could not be placed (no name, too many): the next refresh walks the whole folder.
   */
  let eventNames: Map<string, Set<string>> | undefined = new Map();
  let eventCount = 0;
  /** Real folder path → its path relative to the root (as the walk named its files). */
  let folderPaths = new Map<string, string>();
  /** Whether the last walk met a linked file (its target's changes cannot be placed: walk). */
  let linkedFiles = false;

  const onWatchEvent = (folder: string, name: string | Buffer | null) => {
    // Hidden entries (the sidecar folder among them) are never indexed: their events change nothing.
    if (typeof name === "string" && name.startsWith(".")) return;
    changedSinceWalk = true;
    if (eventNames === undefined) return;
    if (typeof name !== "string" || name.length === 0 || eventCount >= MAX_EVENT_PATHS) {
      eventNames = undefined;
      return;
    }
    let names = eventNames.get(folder);
    if (names === undefined) {
      names = new Set();
      eventNames.set(folder, names);
    }
    if (!names.has(name)) {
      names.add(name);
      eventCount += 1;
    }
  };

  /** Watches exactly `folders` (the last walk's); gives up (walk every time) past the cap or on any failure. */
  const syncWatchers = (folders: ReadonlySet<string>) => {
    if (!watchFolders || folders.size > maxWatchedFolders) {
      closeWatchers();
      return;
    }
    for (const [path, watcher] of watchers) {
      if (folders.has(path)) continue;
      watcher.close();
      watchers.delete(path);
    }
    for (const path of folders) {
      if (watchers.has(path)) continue;
      try {
        const watcher = watch(path, { persistent: false }, (_event, name) =>
          onWatchEvent(path, name),
        );
        watcher.on("error", () => {
          changedSinceWalk = true;
          eventNames = undefined;
          closeWatchers();
        });
        watchers.set(path, watcher);
      } catch {
        closeWatchers();
        changedSinceWalk = true;
        return;
      }
    }
    watching = true;
  };

  /** Lets the event loop deliver any watcher event already queued (a write before this search). */
  const drainEvents = async () => {
    await new Promise<void>((resolvePromise) => setImmediate(resolvePromise));
    await new Promise<void>((resolvePromise) => setImmediate(resolvePromise));
  };

  /**
   * Every embedded chunk's vector scaled to unit length, in one contiguous array (a scan over one
   * array runs 1.6× faster than over one array per file), rebuilt after a change. Missing chunks
   * are zero rows (a zero dot product: never a candidate).
   */
  const matrixIsFresh = (current: IndexState) =>
    matrix !== undefined && matrix.state === current && matrix.generation === generation;

  /** Per-chunk norms of a file's vectors, cached until the array changes. */
  let fileNorms = new WeakMap<Float32Array, Float32Array>();
  const normsOfVectors = (vectors: Float32Array, dimension: number): Float32Array => {
    let found = fileNorms.get(vectors);
    if (found === undefined) {
      const count = Math.floor(vectors.length / dimension);
      found = new Float32Array(count);
      for (let index = 0; index < count; index += 1) {
        let sum = 0;
        const base = index * dimension;
        for (let at = 0; at < dimension; at += 1) {
          const value = vectors[base + at] as number;
          sum += value * value;
        }
        found[index] = Math.sqrt(sum);
      }
      fileNorms.set(vectors, found);
    }
    return found;
  };

  /**
   * Work a search leaves until after its answer: writing the sidecar and rebuilding the scan
   * matrix (both block the event loop for a while on a big corpus).
   */
  let afterAnswerScheduled = false;
  const scheduleAfterAnswer = () => {
    if (afterAnswerScheduled) return;
    afterAnswerScheduled = true;
    setImmediate(() => {
      afterAnswerScheduled = false;
      if (unsaved) void saveInBackground();
      const current = state;
      if (
        current !== undefined &&
        embeddings !== undefined &&
        current.dimension > 0 &&
        !matrixIsFresh(current)
      ) {
        scanMatrixOf(current);
      }
    });
  };

  const scanMatrixOf = (current: IndexState): ScanMatrix => {
    if (matrixIsFresh(current)) return matrix as ScanMatrix;
    const dimension = current.dimension;
    const files: FileEntry[] = [];
    let rows = 0;
    for (const entry of current.files.values()) {
      if (entry.vectors === undefined) continue;
      files.push(entry);
      rows += entry.chunks.length;
    }
    const values = new Float32Array(rows * dimension);
    const starts = new Int32Array(files.length + 1);
    let row = 0;
    for (const [position, entry] of files.entries()) {
      starts[position] = row;
      const vectors = entry.vectors as Float32Array;
      for (let index = 0; index < entry.chunks.length; index += 1, row += 1) {
        if (entry.missing.has(index)) continue;
        const base = index * dimension;
        let sum = 0;
        for (let at = 0; at < dimension; at += 1) {
          const value = vectors[base + at] as number;
          sum += value * value;
        }
        if (sum === 0) continue;
        const scale = 1 / Math.sqrt(sum);
        const target = row * dimension;
        for (let at = 0; at < dimension; at += 1)
          values[target + at] = (vectors[base + at] as number) * scale;
      }
    }
    starts[files.length] = row;
    matrix = { state: current, generation, dimension, values, files, starts };
    return matrix;
  };

  const warn = (warnings: string[], message: string) => {
    warnings.push(message);
    try {
      onWarn?.(message);
    } catch {
      // a host's listener never breaks a refresh
    }
  };

  const emitProgress = (update: { message?: string; completed?: number; total?: number }) => {
    for (const listener of listeners) {
      try {
        listener(update);
      } catch {
        // listener errors are ignored
      }
    }
  };

  function emptyState(): IndexState {
    return {
      fingerprint,
      dimension: 0,
      nextId: 0,
      files: new Map(),
      skipped: new Map(),
      lexical: createLexicalIndex(),
      chunks: new Map(),
      chunkCount: 0,
    };
  }

  function stateFromDisk(buffer: Buffer): IndexState {
    const stored = decodeIndex(buffer);
    if (stored.fingerprint !== fingerprint) {
      throw new IndexFileError("old_version", describeFingerprintChange(stored.fingerprint));
    }
    const lexical = adoptLexicalSnapshot(stored.lexical);
    const next: IndexState = {
      fingerprint,
      dimension: stored.dimension,
      nextId: stored.next_id,
      files: new Map(),
      skipped: new Map(),
      lexical,
      chunks: new Map(),
      chunkCount: 0,
    };
    for (const file of stored.files) {
      if (file.path.startsWith("\u0000skipped:")) {
        next.skipped.set(file.path.slice("\u0000skipped:".length), {
          size: file.size,
          mtime_ms: file.mtime_ms,
        });
        continue;
      }
      const entry: FileEntry = {
        path: file.path,
        size: file.size,
        mtime_ms: file.mtime_ms,
        sha256: file.sha256,
        id_base: file.id_base,
        chunks: file.chunks,
        missing: new Set(file.missing),
        vectors: file.vectors,
      };
      next.files.set(entry.path, entry);
      for (let index = 0; index < entry.chunks.length; index += 1) {
        next.chunks.set(entry.id_base + index, { file: entry, index });
      }
      next.chunkCount += entry.chunks.length;
    }
    if (lexical.size !== next.chunkCount) {
      throw new IndexFileError("corrupt", "the BM25 index and the file table disagree");
    }
    return next;
  }

  function describeFingerprintChange(stored: string): string {
    try {
      const before = JSON.parse(stored) as {
        chunk?: unknown;
        embedder?: unknown;
        format?: unknown;
      };
      const now = JSON.parse(fingerprint) as { chunk?: unknown; embedder?: unknown };
      const parts: string[] = [];
      if (JSON.stringify(before.embedder) !== JSON.stringify(now.embedder)) {
        parts.push(
          `the embedder changed (${JSON.stringify(before.embedder)} → ${JSON.stringify(now.embedder)})`,
        );
      }
      if (before.chunk !== now.chunk)
        parts.push(`the chunk size changed (${String(before.chunk)} → ${String(now.chunk)})`);
      return parts.length > 0
        ? parts.join(" and ")
        : "the index was built by another configuration";
    } catch {
      return "the index was built by another configuration";
    }
  }

  async function stampOf(path: string): Promise<string | undefined> {
    const info = await stat(path).catch(() => undefined);
    return info === undefined ? undefined : `${info.ino}:${info.size}:${info.mtimeMs}`;
  }

  /** Loads the sidecar; a missing one gives an empty index, a bad one an empty index and a warning. */
  async function loadFromDisk(warnings: string[]): Promise<IndexState> {
    let buffer: Buffer;
    try {
      buffer = await readFile(indexPath);
    } catch {
      diskStamp = undefined;
      return emptyState();
    }
    diskStamp = await stampOf(indexPath);
    try {
      return stateFromDisk(buffer);
    } catch (error) {
      const reason =
        error instanceof IndexFileError
          ? error.message
          : `it could not be read (${errorMessage(error)})`;
      warn(warnings, `The knowledge index was rebuilt: ${reason}.`);
      return emptyState();
    }
  }

  /** Adopts the sidecar when another process wrote it since this one last saw it. */
  async function adoptNewerSidecar(): Promise<void> {
    // While our own write is in flight the file on disk is ours (its stamp not yet recorded).
    if (saveLoop !== undefined) return;
    const stamp = await stampOf(indexPath);
    if (stamp === undefined || stamp === diskStamp) return;
    try {
      const buffer = await readFile(indexPath);
      const adopted = stateFromDisk(buffer);
      state = adopted;
      diskStamp = stamp;
      // Another process's view may be older than the folder: walk it all before trusting it.
      changedSinceWalk = true;
      eventNames = undefined;
    } catch {
      // Unreadable or another configuration's: keep ours (it is whole); our next save replaces it.
      diskStamp = stamp;
    }
  }

  async function resolveRoot(): Promise<string | undefined> {
    const info = await stat(root).catch(() => undefined);
    if (info === undefined) return undefined;
    if (!info.isDirectory()) {
      throw new KnowledgeSourceError(
        "NOT_CONFIGURED",
        "The knowledge folder is a file, not a folder.",
        {
          hint: "The host must point root at a folder of Markdown or text files.",
        },
      );
    }
    if (realRoot === undefined) {
      const { realpath } = await import("node:fs/promises");
      realRoot = await realpath(root);
    }
    return realRoot;
  }

  function removeFile(current: IndexState, entry: FileEntry): void {
    generation += 1;
    const ids: string[] = [];
    for (let index = 0; index < entry.chunks.length; index += 1) {
      ids.push(String(entry.id_base + index));
      current.chunks.delete(entry.id_base + index);
    }
    if (ids.length > 0) (activeBuild ?? current.lexical).remove(ids);
    current.chunkCount -= entry.chunks.length;
    current.files.delete(entry.path);
  }

  function addFile(current: IndexState, entry: FileEntry, document: ChunkedDocument): void {
    generation += 1;
    const documents: LexicalDocument[] = [];
    const title = fileTitle(entry.path);
    for (const [index, chunk] of document.chunks.entries()) {
      const trail = chunk.heading_trail.join(" ");
      documents.push({
        id: String(entry.id_base + index),
        heading: index === 0 ? `${title} ${trail}`.trim() : trail,
        text: chunk.text,
        front_matter: index === 0 ? document.front_matter : "",
      });
      current.chunks.set(entry.id_base + index, { file: entry, index });
    }
    if (documents.length > 0) (activeBuild ?? current.lexical).add(documents);
    current.chunkCount += entry.chunks.length;
    current.files.set(entry.path, entry);
  }

  function resetVectors(current: IndexState): void {
    generation += 1;
    current.dimension = 0;
    for (const entry of current.files.values()) {
      entry.vectors = undefined;
      entry.missing = new Set(entry.chunks.keys());
    }
  }

  async function embedWithRetry(texts: string[], signal: AbortSignal): Promise<number[][]> {
    let attempt = 0;
    for (;;) {
      try {
        const vectors = await embeddings?.embedDocuments(texts);
        if (!Array.isArray(vectors) || vectors.length !== texts.length) {
          throw new Error(
            `embedDocuments returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${texts.length} texts`,
          );
        }
        return vectors;
      } catch (error) {
        signal.throwIfAborted();
        if (attempt >= retries) throw error;
        await sleep(retryDelayMs * 4 ** attempt, signal);
        attempt += 1;
      }
    }
  }

  async function embedQueryWithRetry(query: string, signal: AbortSignal): Promise<Float32Array> {
    let attempt = 0;
    for (;;) {
      try {
        const vector: unknown = await embeddings?.embedQuery(query);
        if (!Array.isArray(vector) && !(vector instanceof Float32Array)) {
          throw new Error("embedQuery returned no vector");
        }
        return Float32Array.from(vector as ArrayLike<number>);
      } catch (error) {
        signal.throwIfAborted();
        if (attempt >= retries) throw error;
        await sleep(retryDelayMs * 4 ** attempt, signal);
        attempt += 1;
      }
    }
  }

  async function save(current: IndexState, warnings: string[]): Promise<boolean> {
    const files: StoredFile[] = [];
    for (const entry of current.files.values()) {
      const stored: StoredFile = {
        path: entry.path,
        size: entry.size,
        mtime_ms: entry.mtime_ms,
        sha256: entry.sha256,
        id_base: entry.id_base,
        chunks: entry.chunks,
        missing: [...entry.missing].sort((left, right) => left - right),
      };
      if (entry.vectors !== undefined) stored.vectors = entry.vectors;
      files.push(stored);
    }
    for (const [path, skipped] of current.skipped) {
      files.push({
        path: `\u0000skipped:${path}`,
        size: skipped.size,
        mtime_ms: skipped.mtime_ms,
        sha256: "",
        id_base: 0,
        chunks: [],
        missing: [],
      });
    }
    const parts = encodeIndexParts({
      fingerprint: current.fingerprint,
      dimension: current.dimension,
      next_id: current.nextId,
      files,
      lexical: current.lexical.toBytes(),
    });
    // The vector parts are views of the files' own arrays: until they are written, an embedding
    // writes into a copy instead (see `writableVectors`).
    const writing = new Set<Float32Array>();
    for (const file of files) if (file.vectors !== undefined) writing.add(file.vectors);
    vectorsBeingWritten.push(writing);
    const temporary = join(
      folder,
      `${CORPUS_INDEX_FILE}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
    );
    try {
      if (!sidecarReady) {
        await mkdir(folder, { recursive: true });
        await writeFile(
          join(folder, ".gitignore"),
          "# agentool knowledge index: a cache, rebuilt from the files\n*\n",
          {
            flag: "wx",
          },
        ).catch(() => undefined);
        await removeStaleTemporaries();
        sidecarReady = true;
      }
      await writeParts(temporary, parts);
      await rename(temporary, indexPath);
      diskStamp = await stampOf(indexPath);
      return true;
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      if (!saveWarned) {
        saveWarned = true;
        warn(
          warnings,
          `The knowledge index could not be saved (${errorMessage(error)}); it is kept in memory only.`,
        );
      }
      return false;
    } finally {
      vectorsBeingWritten.splice(vectorsBeingWritten.indexOf(writing), 1);
    }
  }

  async function removeStaleTemporaries(): Promise<void> {
    const names = await readdir(folder).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names) {
      if (!name.startsWith(`${CORPUS_INDEX_FILE}.`) || !name.endsWith(".tmp")) continue;
      const info = await lstat(join(folder, name)).catch(() => undefined);
      if (info !== undefined && now - info.mtimeMs > 10 * 60_000) {
        await rm(join(folder, name), { force: true }).catch(() => undefined);
      }
    }
  }

  /**
   * The files behind the entries the watchers named: each entry is `lstat`ed (nothing else is);
   * a file with a corpus extension is a candidate (compared by size and time as in a walk), a
   * missing entry is removed (with every indexed file under it). `undefined` when an entry cannot
   * be placed without a walk: a new or vanished folder, a link, a folder the last walk did not
   * name.
   */
  async function changesFromEvents(
    current: IndexState,
    events: ReadonlyMap<string, ReadonlySet<string>>,
  ): Promise<{ files: WalkedFile[]; removed: Set<string>; checked: number } | undefined> {
    const files: WalkedFile[] = [];
    const removed = new Set<string>();
    const knownFolders = new Set(folderPaths.values());
    let checked = 0;
    for (const [folder, names] of events) {
      const relativeFolder = folderPaths.get(folder);
      if (relativeFolder === undefined) return undefined;
      // The watched folder itself gone or replaced (its own events carry its own name): walk.
      const self = await lstat(folder).catch(() => undefined);
      if (self === undefined || !self.isDirectory()) return undefined;
      const ownName = folder.slice(folder.lastIndexOf(sep) + 1);
      for (const name of names) {
        if (name.includes("/") || name.includes("\\")) return undefined;
        const path = relativeFolder.length === 0 ? name : `${relativeFolder}/${name}`;
        const absolute = folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`;
        checked += 1;
        const info = await lstat(absolute).catch(() => undefined);
        if (info === undefined) {
          if (knownFolders.has(path) || name === ownName) return undefined; // a folder went away
          removed.add(path);
          continue;
        }
        if (info.isSymbolicLink()) return undefined;
        if (info.isDirectory()) {
          if (skipFolders.has(name) || knownFolders.has(path)) continue;
          return undefined; // a new folder: walk it
        }
        if (!info.isFile() || !hasCorpusExtension(name, extensions)) continue;
        if (isSecretCorpusPath(path, secretCache)) continue;
        files.push({ path, absolute, size: info.size, mtime_ms: info.mtimeMs });
      }
    }
    // A removed name that was a folder the index knows files under (e.g. renamed away).
    for (const path of [...removed]) {
      const prefix = `${path}/`;
      for (const key of current.files.keys()) if (key.startsWith(prefix)) return undefined;
    }
    files.sort((left, right) => compareText(left.path, right.path));
    return { files, removed, checked };
  }

  async function runRefresh(signal: AbortSignal): Promise<RefreshOutcome> {
    const started = performance.now();
    const warnings: string[] = [];
    const report: CorpusRefreshReport = {
      files: 0,
      chunks: 0,
      added: 0,
      changed: 0,
      touched: 0,
      removed: 0,
      embedded: 0,
      pendingEmbeddings: 0,
      saved: false,
      walked: false,
      eventPaths: 0,
      builtOnWorker: false,
      warnings,
      durationMs: 0,
    };
    const corpusRoot = await resolveRoot();
    if (corpusRoot === undefined) {
      state = emptyState();
      report.durationMs = performance.now() - started;
      return { report };
    }
    if (state === undefined) state = await loadFromDisk(warnings);
    else await adoptNewerSidecar();
    const current = state;
    let dirty = current.files.size === 0 && diskStamp === undefined;
    if (watching) await drainEvents();
    const canResume =
      embeddings !== undefined && performance.now() - embedderFailedAt >= cooldownMs;
    if (
      watching &&
      !changedSinceWalk &&
      !dirty &&
      performance.now() - lastWalkAt < rescanIntervalMs &&
      !(canResume && hasMissingVectors(current))
    ) {
      // No watcher event since the last walk: nothing changed — not even a stat is needed.
      report.files = current.files.size;
      report.chunks = current.chunkCount;
      for (const entry of current.files.values()) report.pendingEmbeddings += entry.missing.size;
      report.durationMs = performance.now() - started;
      return { report };
    }

    const events = eventNames;
    const placeable =
      watching &&
      !linkedFiles &&
      events !== undefined &&
      !dirty &&
      performance.now() - lastWalkAt < rescanIntervalMs;
    changedSinceWalk = false;
    eventNames = new Map();
    eventCount = 0;
    // Only the entries the watchers named, when every one of them can be placed; else a walk.
    const fromEvents = placeable ? await changesFromEvents(current, events) : undefined;
    let walked: WalkedFile[];
    let seen: Set<string>;
    if (fromEvents !== undefined) {
      walked = fromEvents.files;
      report.eventPaths = fromEvents.checked;
      seen = new Set(current.files.keys());
      for (const path of current.skipped.keys()) seen.add(path);
      for (const path of fromEvents.removed) seen.delete(path);
      for (const file of walked) seen.add(file.path);
    } else {
      lastWalkAt = performance.now();
      report.walked = true;
      const walkedFolders = new Map<string, string | undefined>();
      try {
        walked = await walkCorpus({
          root: corpusRoot,
          extensions,
          skipFolders,
          signal,
          secretCache,
          onFolder: (path, relative) => {
            if (relative !== undefined || !walkedFolders.has(path))
              walkedFolders.set(path, relative);
          },
        });
      } catch (error) {
        changedSinceWalk = true;
        eventNames = undefined;
        throw error;
      }
      syncWatchers(new Set(walkedFolders.keys()));
      folderPaths = new Map();
      linkedFiles = false;
      for (const [path, relative] of walkedFolders) {
        if (relative === undefined) linkedFiles = true;
        else folderPaths.set(path, relative);
      }
      seen = new Set(walked.map((file) => file.path));
    }
    const toRead: WalkedFile[] = [];
    let tooLarge = 0;
    const stillLarge = new Set<string>();
    for (const file of walked) {
      if (file.size > maxFileBytes) {
        const key = `${file.path}\u0000${file.size}\u0000${file.mtime_ms}`;
        stillLarge.add(key);
        if (!largeWarned.has(key)) tooLarge += 1;
        const entry = current.files.get(file.path);
        if (entry !== undefined) {
          removeFile(current, entry);
          report.removed += 1;
          dirty = true;
        }
        continue;
      }
      const entry = current.files.get(file.path);
      if (entry !== undefined && entry.size === file.size && entry.mtime_ms === file.mtime_ms)
        continue;
      const skipped = current.skipped.get(file.path);
      if (skipped !== undefined && skipped.size === file.size && skipped.mtime_ms === file.mtime_ms)
        continue;
      toRead.push(file);
    }
    if (fromEvents === undefined) largeWarned = stillLarge;
    else for (const key of stillLarge) largeWarned.add(key);
    if (tooLarge > 0) {
      warn(
        warnings,
        `${tooLarge} ${tooLarge === 1 ? "file is" : "files are"} larger than ${maxFileBytes.toLocaleString("en-US")} bytes and not indexed.`,
      );
    }
    // Deleted (or renamed away): drop them, keeping their vectors by content for a rename.
    const goneBySha = new Map<string, FileEntry>();
    for (const entry of [...current.files.values()]) {
      if (seen.has(entry.path)) continue;
      removeFile(current, entry);
      if (entry.vectors !== undefined && entry.missing.size === 0)
        goneBySha.set(entry.sha256, entry);
      report.removed += 1;
      dirty = true;
    }
    for (const path of [...current.skipped.keys()]) {
      if (!seen.has(path)) {
        current.skipped.delete(path);
        dirty = true;
      }
    }

    const pending: PendingEmbedding[] = [];
    let lastSave = performance.now();
    const coolingDown = () => performance.now() - embedderFailedAt < cooldownMs;
    let embedderDown = embeddings !== undefined && coolingDown();
    if (embedderDown) {
      warn(
        warnings,
        `The embedder failed recently (${lastEmbedderError}); new passages are found by BM25 until it answers again.`,
      );
    }

    const flush = async (all: boolean): Promise<void> => {
      while (pending.length >= batchSize || (all && pending.length > 0)) {
        if (embedderDown) {
          pending.length = 0;
          return;
        }
        const batch = pending
          .splice(0, batchSize)
          .filter(
            (job) =>
              current.files.get(job.file.path) === job.file && job.file.sha256 === job.sha256,
          );
        if (batch.length === 0) continue;
        let vectors: number[][];
        try {
          vectors = await embedWithRetry(
            batch.map((job) => job.text),
            signal,
          );
        } catch (error) {
          signal.throwIfAborted();
          embedderDown = true;
          embedderFailedAt = performance.now();
          lastEmbedderError = errorMessage(error);
          warn(
            warnings,
            `The embedder failed after ${retries + 1} ${retries === 0 ? "attempt" : "attempts"} (${lastEmbedderError}); the passages not embedded yet are found by BM25 and embedded on a later search.`,
          );
          pending.length = 0;
          return;
        }
        const length = vectors[0]?.length ?? 0;
        if (length === 0 || vectors.some((vector) => vector.length !== length)) {
          embedderDown = true;
          embedderFailedAt = performance.now();
          lastEmbedderError = "it returned vectors of different lengths";
          warn(
            warnings,
            "The embedder returned vectors of different lengths; they were not stored.",
          );
          pending.length = 0;
          return;
        }
        if (current.dimension === 0) current.dimension = length;
        else if (current.dimension !== length) {
          warn(
            warnings,
            `The embedder's vectors changed length (${current.dimension} → ${length}): every passage is re-embedded (vector spaces never mix).`,
          );
          resetVectors(current);
          current.dimension = length;
          throw new RestartRefresh();
        }
        for (const [position, job] of batch.entries()) {
          const vector = vectors[position] as number[];
          let target = job.file.vectors;
          if (target === undefined || target.length !== job.file.chunks.length * length) {
            target = new Float32Array(job.file.chunks.length * length);
            job.file.vectors = target;
          } else if (vectorsBeingWritten.some((writing) => writing.has(target as Float32Array))) {
            // A save is writing this array: the new vector goes into a copy.
            target = target.slice();
            job.file.vectors = target;
          }
          target.set(vector, job.index * length);
          fileNorms.delete(target);
          generation += 1;
          job.file.missing.delete(job.index);
          report.embedded += 1;
        }
        dirty = true;
        if (checkpointMs > 0 && performance.now() - lastSave > checkpointMs) {
          await finishBuild();
          report.saved = (await save(current, warnings)) || report.saved;
          lastSave = performance.now();
        }
      }
    };

    const queue = (entry: FileEntry, document: ChunkedDocument, only?: ReadonlySet<number>) => {
      if (embeddings === undefined || embedderDown) return;
      for (const [index, chunk] of document.chunks.entries()) {
        if (only !== undefined && !only.has(index)) continue;
        pending.push({
          file: entry,
          index,
          text: embeddingText(chunk.heading_trail, chunk.text),
          sha256: entry.sha256,
        });
      }
    };

    const binaryFound: string[] = [];
    let done = 0;
    const total = toRead.length;
    let lastProgress = 0;
    const reportProgress = (force: boolean) => {
      if (total === 0) return;
      const now = performance.now();
      if (!force && now - lastProgress < 100) return;
      lastProgress = now;
      emitProgress({ message: "indexing the knowledge folder", completed: done, total });
    };
    reportProgress(true);

    // A first build of a large corpus: BM25 on a worker thread (see `indexWorker`).
    const finishBuild = async () => {
      const build = activeBuild;
      if (build === undefined) return;
      const { index, onWorker } = await build.finish();
      current.lexical = index;
      activeBuild = undefined;
      report.builtOnWorker = onWorker;
    };
    if (indexWorker && current.files.size === 0 && current.lexical.size === 0) {
      let newBytes = 0;
      for (const file of toRead) newBytes += file.size;
      if (newBytes >= indexWorkerMinimumBytes && newBytes > 0)
        activeBuild = startLexicalBuild(true);
    }
    try {
      // Small files are read synchronously: four blocking syscalls of a few microseconds beat four
      // thread-pool round trips (a cold build of 2,000 files spent ~0.4 s of its main thread
      // there); the loop yields to the event loop every SYNC_READ_SLICE_MS meanwhile.
      const readOne = async (file: WalkedFile) => {
        const bytes =
          file.size <= SYNC_READ_MAX_BYTES
            ? readSmallFile(file.absolute)
            : await readFile(file.absolute).catch(() => undefined);
        return { file, bytes };
      };
      let sliceStarted = performance.now();

      // Read with bounded concurrency, handle in path order (the index is the same whatever the timing).
      let next = 0;
      const inWindow: Array<Promise<{ file: WalkedFile; bytes: Buffer | undefined }>> = [];
      while (next < toRead.length && inWindow.length < READ_CONCURRENCY)
        inWindow.push(readOne(toRead[next++] as WalkedFile));
      while (inWindow.length > 0) {
        if (performance.now() - sliceStarted > SYNC_READ_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStarted = performance.now();
        }
        signal.throwIfAborted();
        const { file, bytes } = await (inWindow.shift() as Promise<{
          file: WalkedFile;
          bytes: Buffer | undefined;
        }>);
        if (next < toRead.length) inWindow.push(readOne(toRead[next++] as WalkedFile));
        done += 1;
        reportProgress(false);
        const previous = current.files.get(file.path);
        if (bytes === undefined) {
          // Vanished between the walk and the read: it drops out.
          if (previous !== undefined) {
            removeFile(current, previous);
            report.removed += 1;
            dirty = true;
          }
          continue;
        }
        if (isBinaryContent(bytes.subarray(0, 8192))) {
          if (previous !== undefined) {
            removeFile(current, previous);
            report.removed += 1;
          }
          current.skipped.set(file.path, { size: file.size, mtime_ms: file.mtime_ms });
          binaryFound.push(file.path);
          dirty = true;
          continue;
        }
        current.skipped.delete(file.path);
        const hash = sha256(bytes);
        if (previous !== undefined && previous.sha256 === hash) {
          previous.size = file.size;
          previous.mtime_ms = file.mtime_ms;
          report.touched += 1;
          dirty = true;
          continue;
        }
        const document = chunkMarkdown(decodeText(bytes), chunkOptions);
        if (previous !== undefined) removeFile(current, previous);
        const entry: FileEntry = {
          path: file.path,
          size: file.size,
          mtime_ms: file.mtime_ms,
          sha256: hash,
          id_base: current.nextId,
          chunks: document.chunks.map((chunk) => ({
            start_line: chunk.start_line,
            end_line: chunk.end_line,
            heading_trail: chunk.heading_trail,
          })),
          missing: new Set(
            embeddings === undefined ? [] : document.chunks.map((_, index) => index),
          ),
          vectors: undefined,
        };
        current.nextId += entry.chunks.length;
        addFile(current, entry, document);
        if (previous === undefined) report.added += 1;
        else report.changed += 1;
        dirty = true;
        const renamed = goneBySha.get(hash);
        if (
          renamed !== undefined &&
          renamed.chunks.length === entry.chunks.length &&
          current.dimension > 0
        ) {
          entry.vectors = renamed.vectors;
          generation += 1;
          entry.missing.clear();
          goneBySha.delete(hash);
          continue;
        }
        queue(entry, document);
        await flush(false);
      }
      reportProgress(true);
      if (binaryFound.length > 0) {
        const shown = binaryFound.slice(0, 5).join(", ");
        warn(
          warnings,
          `${binaryFound.length} ${binaryFound.length === 1 ? "file was" : "files were"} skipped as binary: ${shown}${binaryFound.length > 5 ? ", …" : ""}.`,
        );
      }

      // Resume: chunks whose embedding failed before (their file unchanged since).
      if (embeddings !== undefined && !embedderDown) {
        for (const entry of current.files.values()) {
          if (embedderDown) break;
          if (entry.missing.size === 0 || pending.some((job) => job.file === entry)) continue;
          const bytes = await readFile(join(corpusRoot, ...entry.path.split("/"))).catch(
            () => undefined,
          );
          if (bytes === undefined || sha256(bytes) !== entry.sha256) continue; // the next walk sees it
          const document = chunkMarkdown(decodeText(bytes), chunkOptions);
          if (document.chunks.length !== entry.chunks.length) continue;
          queue(entry, document, entry.missing);
          await flush(false);
        }
      }
      await flush(true);
      await finishBuild();
    } catch (error) {
      if (activeBuild !== undefined) {
        if (signal.aborted) {
          // Closing: drop the half-built index (a later search loads the sidecar again).
          activeBuild.cancel();
          activeBuild = undefined;
          state = undefined;
        } else await finishBuild();
      }
      throw error;
    }

    for (const entry of current.files.values()) report.pendingEmbeddings += entry.missing.size;
    if (
      embeddings !== undefined &&
      report.pendingEmbeddings > 0 &&
      !warnings.some((warning) => warning.startsWith("The embedder"))
    ) {
      warn(
        warnings,
        `${report.pendingEmbeddings} ${report.pendingEmbeddings === 1 ? "passage has" : "passages have"} no vector yet (the embedder failed earlier); BM25 finds them, and a later search embeds them.`,
      );
    }
    if (dirty) unsaved = true;
    report.files = current.files.size;
    report.chunks = current.chunkCount;
    report.durationMs = performance.now() - started;
    return { report };
  }

  let missingChecked: { state: IndexState; generation: number; missing: boolean } | undefined;

  function hasMissingVectors(current: IndexState): boolean {
    if (missingChecked?.state === current && missingChecked.generation === generation)
      return missingChecked.missing;
    let missing = false;
    for (const entry of current.files.values()) {
      if (entry.missing.size > 0) {
        missing = true;
        break;
      }
    }
    missingChecked = { state: current, generation, missing };
    return missing;
  }

  /**
   * Writes the sidecar after the answer (a search never waits for it); saves asked for while one
   * runs are coalesced into one more. Resolves with whether the last write succeeded.
   */
  function saveInBackground(): Promise<boolean> {
    if (saveLoop !== undefined) {
      saveAgain = true;
      return saveLoop;
    }
    const loop = (async () => {
      let written = false;
      do {
        saveAgain = false;
        const current = state;
        if (current === undefined || !unsaved) break;
        unsaved = false;
        written = await save(current, laterWarnings);
        if (!written) unsaved = true;
      } while (saveAgain && unsaved);
      return written;
    })().finally(() => {
      if (saveLoop === loop) saveLoop = undefined;
    });
    saveLoop = loop;
    return loop;
  }

  function refreshShared(context: Partial<KnowledgeSearchContext>): Promise<RefreshOutcome> {
    const progress = context.progress;
    if (progress !== undefined) listeners.add(progress);
    if (inFlight === undefined) {
      const signal = controller.signal;
      const run = async (): Promise<RefreshOutcome> => {
        for (let attempt = 0; ; attempt += 1) {
          try {
            return await runRefresh(signal);
          } catch (error) {
            if (error instanceof RestartRefresh && attempt < 2) continue;
            throw error;
          }
        }
      };
      const promise = run().finally(() => {
        if (inFlight === promise) inFlight = undefined;
      });
      inFlight = promise;
      saving = promise.then(
        () => undefined,
        () => undefined,
      );
    }
    const waiting = waitFor(inFlight, context.signal);
    return waiting.finally(() => {
      if (progress !== undefined) listeners.delete(progress);
    });
  }

  function excerptOf(lines: readonly string[] | undefined, start: number, end: number): string {
    if (lines === undefined) return "";
    return lines.slice(start - 1, end).join("\n");
  }

  /**
   * The text of chunk `index` when it is one piece of a line longer than the chunk cap (the
   * chunker cut that line into pieces sharing its one-line span); `undefined` for any other chunk.
   * The line alone is cut again the same way: its pieces do not depend on the lines around it.
   */
  function pieceOf(
    lines: readonly string[] | undefined,
    file: FileEntry,
    index: number,
  ): string | undefined {
    const chunk = file.chunks[index] as StoredChunk;
    if (lines === undefined || chunk.start_line !== chunk.end_line) return undefined;
    const line = lines[chunk.start_line - 1];
    if (line === undefined || line.length <= (maxChunkCharacters ?? DEFAULT_MAX_CHUNK_CHARACTERS))
      return undefined;
    let first = index;
    while (first > 0) {
      const before = file.chunks[first - 1] as StoredChunk;
      if (before.start_line !== chunk.start_line || before.end_line !== chunk.end_line) break;
      first -= 1;
    }
    return chunkMarkdown(line, chunkOptions).chunks[index - first]?.text;
  }

  async function search(
    request: KnowledgeSearchRequest,
    context: KnowledgeSearchContext,
  ): Promise<KnowledgeSearchResult> {
    try {
      return await searchNow(request, context);
    } finally {
      scheduleAfterAnswer();
    }
  }

  async function searchNow(
    request: KnowledgeSearchRequest,
    context: KnowledgeSearchContext,
  ): Promise<KnowledgeSearchResult> {
    const signal = context.signal;
    const coolingDown = performance.now() - embedderFailedAt < cooldownMs;
    const queryVector =
      embeddings !== undefined && !coolingDown
        ? embedQueryWithRetry(request.query, controller.signal).then(
            (vector) => ({ vector }),
            (error: unknown) => ({ error: errorMessage(error) }),
          )
        : undefined;
    const outcome = await refreshShared(context);
    const warnings = [...outcome.report.warnings, ...laterWarnings.splice(0)];
    let vector: Float32Array | undefined;
    if (queryVector !== undefined) {
      const answer = await waitFor(queryVector, signal);
      if ("vector" in answer) vector = answer.vector;
      else {
        embedderFailedAt = performance.now();
        lastEmbedderError = answer.error;
        warnings.push(
          `The embedder failed for the query (${answer.error}); these results are BM25 only.`,
        );
      }
    } else if (
      embeddings !== undefined &&
      !warnings.some((warning) => warning.startsWith("The embedder"))
    ) {
      warnings.push(
        `The embedder failed recently (${lastEmbedderError}); these results are BM25 only.`,
      );
    }
    let current = state ?? emptyState();
    if (vector !== undefined && current.dimension > 0 && vector.length !== current.dimension) {
      warnings.push(
        `The embedder's vectors changed length (${current.dimension} → ${vector.length}): every passage is re-embedded (vector spaces never mix).`,
      );
      resetVectors(current);
      const again = await refreshShared(context);
      warnings.push(...again.report.warnings);
      current = state ?? emptyState();
      if (current.dimension !== vector.length) vector = undefined;
    }
    if (current.dimension === 0) vector = undefined;
    signal.throwIfAborted();

    const prefix = request.path_prefix;
    const allowed = (entry: FileEntry) => prefix === undefined || entry.path.startsWith(prefix);
    let documents = 0;
    let chunks = 0;
    for (const entry of current.files.values()) {
      if (!allowed(entry)) continue;
      documents += 1;
      chunks += entry.chunks.length;
    }
    const result: KnowledgeSearchResult = {
      hits: [],
      total: 0,
      searched: { documents, chunks },
      warnings,
    };
    if (current.chunkCount === 0) {
      result.empty_reason = "empty_corpus";
      return result;
    }

    const lexicalHits = current.lexical.search(
      request.query,
      prefix === undefined
        ? {}
        : {
            filter: (id) => {
              const reference = current.chunks.get(Number(id));
              return reference !== undefined && allowed(reference.file);
            },
          },
    );
    const lexical: Array<{ key: number; reference: ChunkReference; score: number }> = [];
    for (const hit of lexicalHits) {
      const key = Number(hit.id);
      const reference = current.chunks.get(key);
      if (reference !== undefined) lexical.push({ key, reference, score: hit.score });
    }
    const compareKeys = (left: number, right: number) => {
      const a = current.chunks.get(left) as ChunkReference;
      const b = current.chunks.get(right) as ChunkReference;
      return compareText(a.file.path, b.file.path) || a.index - b.index;
    };
    lexical.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
    const fileRanks = rankDocuments(
      lexical,
      (hit) => hit.score,
      (hit) => hit.reference.file,
      (left, right) => compareText(left.path, right.path),
    );

    const dense: Array<{ key: number; score: number }> = [];
    if (vector !== undefined) {
      const dimension = current.dimension;
      let queryNorm = 0;
      for (let at = 0; at < dimension; at += 1) {
        const value = vector[at] as number;
        queryNorm += value * value;
      }
      queryNorm = Math.sqrt(queryNorm);
      // Scan: a float32 dot product over the unit-length matrix picks the nearest candidates (a
      // little more than asked, so float32 rounding cannot drop one); ml-distance's cosine then
      // scores them exactly.
      const wanted = denseCandidates + Math.min(32, denseCandidates);
      const candidates: DenseCandidate[] = [];
      if (queryNorm > 0) {
        const filter = prefix === undefined ? undefined : allowed;
        if (matrixIsFresh(current)) {
          scanNearest(matrix as ScanMatrix, vector, queryNorm, wanted, filter, candidates);
        } else {
          // Just changed: scan file by file now, rebuild the matrix after answering.
          scanNearestByFile(
            [...current.files.values()],
            (vectors) => normsOfVectors(vectors, dimension),
            dimension,
            vector,
            queryNorm,
            wanted,
            filter,
            candidates,
          );
        }
      }
      for (const { entry, index } of candidates) {
        const vectors = entry.vectors as Float32Array;
        const score = similarity.cosine(
          vector,
          vectors.subarray(index * dimension, (index + 1) * dimension),
        );
        if (score > 0) dense.push({ key: entry.id_base + index, score });
      }
      dense.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
      if (dense.length > denseCandidates) dense.length = denseCandidates;
    }

    const fused = fuseReciprocalRanks(
      [lexical.map((hit) => hit.key), dense.map((hit) => hit.key)],
      RECIPROCAL_RANK_K,
    );
    const ranked: Array<{ key: number; score: number }> = [];
    for (const [key, score] of fused) {
      const reference = current.chunks.get(key) as ChunkReference;
      const fileRank = fileRanks.get(reference.file);
      ranked.push({
        key,
        score: score + (fileRank === undefined ? 0 : 1 / (RECIPROCAL_RANK_K + fileRank)),
      });
    }
    ranked.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
    result.total = ranked.length;
    if (ranked.length === 0) {
      if (
        prefix !== undefined &&
        (documents === 0 || current.lexical.search(request.query, { limit: 1 }).length > 0)
      ) {
        result.empty_reason = "filtered_out";
      } else result.empty_reason = "no_match";
      return result;
    }

    const page = ranked.slice(request.offset - 1, request.offset - 1 + request.limit);
    const texts = new Map<FileEntry, string[] | undefined>();
    for (const { key } of page) {
      const { file } = current.chunks.get(key) as ChunkReference;
      if (texts.has(file)) continue;
      const bytes = await readFile(join(realRoot ?? root, ...file.path.split("/"))).catch(
        () => undefined,
      );
      texts.set(file, bytes === undefined ? undefined : splitLines(decodeText(bytes)));
    }
    for (const { key, score } of page) {
      const { file, index } = current.chunks.get(key) as ChunkReference;
      const lines = texts.get(file);
      let first = index;
      let last = index;
      if (windowSize > 0) {
        first = Math.max(0, index - windowSize);
        last = Math.min(file.chunks.length - 1, index + windowSize);
      }
      const chunk = file.chunks[index] as StoredChunk;
      let startLine = (file.chunks[first] as StoredChunk).start_line;
      let endLine = (file.chunks[last] as StoredChunk).end_line;
      let excerpt = excerptOf(lines, startLine, endLine);
      const piece = pieceOf(lines, file, index);
      if (piece !== undefined && (windowSize === 0 || excerpt.length > maxPassageCharacters)) {
        // One piece of an over-long line: show that piece, not the line's start.
        startLine = chunk.start_line;
        endLine = chunk.end_line;
        excerpt = windowSize === 0 ? piece : piece.slice(0, maxPassageCharacters);
      } else if (windowSize > 0 && excerpt.length > maxPassageCharacters) {
        // Hard cap: shrink the window around the hit until it fits, then cut.
        startLine = chunk.start_line;
        endLine = chunk.end_line;
        for (let step = 1; step <= windowSize; step += 1) {
          const before = file.chunks[index - step];
          const after = file.chunks[index + step];
          const widerStart = before?.start_line ?? startLine;
          const widerEnd = after?.end_line ?? endLine;
          if (excerptOf(lines, widerStart, widerEnd).length > maxPassageCharacters) break;
          startLine = widerStart;
          endLine = widerEnd;
        }
        excerpt = excerptOf(lines, startLine, endLine).slice(0, maxPassageCharacters);
      }
      if (lines === undefined)
        warnings.push(
          `${file.path} could not be read for its excerpt; search again to refresh the index.`,
        );
      result.hits.push({
        file: file.path,
        start_line: startLine,
        end_line: endLine,
        heading_trail: [...chunk.heading_trail],
        score,
        excerpt,
        reference: `${file.path}:${startLine}-${endLine}`,
      } satisfies KnowledgeHit);
    }
    return result;
  }

  return {
    root,
    indexPath,
    search,
    async refresh(context = {}) {
      const outcome = await refreshShared(context);
      const report = outcome.report;
      if (unsaved || saveLoop !== undefined) {
        report.saved = (await saveInBackground()) || report.saved;
        report.warnings.push(...laterWarnings.splice(0));
      }
      return report;
    },
    async flush() {
      let saved = true;
      if (inFlight !== undefined) await inFlight.catch(() => undefined);
      if (unsaved || saveLoop !== undefined) saved = await saveInBackground();
      return { saved, warnings: laterWarnings.splice(0) };
    },
    async close() {
      controller.abort(new Error("the corpus source was closed"));
      await saving;
      if (unsaved || saveLoop !== undefined) await saveInBackground();
      closeWatchers();
      controller = new AbortController();
      state = undefined;
      diskStamp = undefined;
      unsaved = false;
      changedSinceWalk = true;
      matrix = undefined;
      fileNorms = new WeakMap();
      eventNames = undefined;
      folderPaths = new Map();
    },
  };
}

/** Thrown inside a refresh when the vector length changed mid-way: the refresh starts over. */
class RestartRefresh extends Error {
  constructor() {
    super("restart the refresh");
    this.name = "RestartRefresh";
  }
}
