import { AgentoolError } from "@agentool/contract";
import { z } from "zod";
import { embeddingsSchema, vectorStoreSchema } from "../engine/option-schemas.js";
import type { Embeddings, VectorRecord, VectorStore } from "../engine/types.js";
import { DEFAULT_MAX_CHUNK_CHARACTERS, MIN_MAX_CHUNK_CHARACTERS } from "./chunk-markdown.js";
import { embedIngestRecords } from "./internal/embed-ingest-records.js";
import {
  type PendingDocument,
  prepareIngestDocuments,
} from "./internal/prepare-ingest-documents.js";
import { sanitizeText } from "./internal/sanitize.js";
import { MAX_CHUNK_INDEX } from "./internal/vector-query.js";

export { embeddingInput } from "./internal/embedding-input.js";

/** Default records per `embedDocuments` call and per `upsert` call: 64. */
export const DEFAULT_INGEST_BATCH_SIZE = 64;

/** The largest `batchSize` accepted: 4,096. */
export const MAX_INGEST_BATCH_SIZE = 4_096;

/** One document to ingest. */
export interface IngestDocument {
  /**
   * The document's key (a path, a URL, your own id). Without one, the key is a content hash of the
   * raw text (`sha256-` and 16 hex digits), so the same text ingested twice lands on the same records.
   */
  id?: string;
  /** The document's text (Markdown or plain text). */
  text: string;
  /** Where it came from (a URL, a file, a conversation), stored on every record. */
  source?: string;
  /** Labels stored on every record, for filtering. */
  tags?: string[];
}

/** What `ingest` reports on one stage: embedding or writing. */
export interface IngestProgress {
  /** `"embed"` (embedder calls) or `"upsert"` (store writes). */
  stage: "embed" | "upsert";
  /** Records done in this stage. */
  completed: number;
  /** Records in this stage in all. */
  total: number;
}

/** Options of {@link ingest}. */
export interface IngestOptions {
  /** Where the records go. */
  store: VectorStore;
  /**
   * Any LangChain-shaped embedder (`embedDocuments` / `embedQuery`). Without one the records carry
   * no vector — only for stores that search text (`store.searchesText`).
   */
  embeddings?: Embeddings;
  /** Largest chunk, in characters. Default 1,500 (the chunker's default). */
  maxChunkCharacters?: number;
  /**
   * Applied to each chunk's text (and heading) before everything else: the junk floor, the
   * embedder and the stored text all see its output. Default: strip C0/C1 control characters,
   * keeping tab and line feed. `(text) => text` opts out.
   */
  sanitize?: (text: string) => string;
  /**
   * Drop chunks with fewer letters and digits than this (not raw length). Default 0 (off). A floor
   * of 8 keeps `| 200-400mA | 5V |` (10) and drops `---` separators and heading-only stubs.
   */
  minAlnumChars?: number;
  /**
   * Embed `"Power > Limits: <chunk text>"` instead of the default input (the heading trail's lines,
   * then the chunk text, joined by line feeds). The stored text is the chunk text either way.
   * Default `false`.
   */
  embedHeadingTrail?: boolean;
  /** Records per `embedDocuments` call and per `upsert` call. Default {@link DEFAULT_INGEST_BATCH_SIZE} (64). */
  batchSize?: number;
  /** Stops the work between batches (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** The clock for `created_at`. Default `() => new Date()`. */
  now?: () => Date;
  /** Called after each batch of each stage. */
  onProgress?: (progress: IngestProgress) => void;
}

/** What `ingest` did to one document. */
export interface IngestedDocument {
  /** The document's key (its id, or the content hash). */
  documentKey: string;
  /** Records written (its chunks after the floor), `chunk_index` 0 … records − 1. */
  records: number;
  /** Chunks dropped: blank after sanitizing, or under `minAlnumChars`. */
  droppedChunks: number;
  /**
   * Records of an earlier, longer version of the document removed (chunk_index ≥ `records`);
   * stores without `range` keep them.
   */
  removedRecords: number;
}

/** What {@link ingest} returns. */
export interface IngestResult {
  /** Records written in all. */
  records: number;
  /** Chunks dropped in all. */
  droppedChunks: number;
  /**
   * Per document, in the order given (a key given twice is ingested once, at its last place, the
   * last text winning).
   */
  documents: IngestedDocument[];
  /** The vector length, when an embedder was used and something was embedded. */
  dimensions?: number;
}

const functionSchema = (what: string) =>
  z.custom<(...parameters: never[]) => unknown>((value) => typeof value === "function", {
    error: `expected ${what}`,
  });

const signalSchema = z.custom<AbortSignal>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as AbortSignal).aborted === "boolean" &&
    typeof (value as AbortSignal).addEventListener === "function",
  { error: "expected an AbortSignal" },
);

/** The strict schema of {@link IngestOptions} (unknown keys refused). */
export const ingestOptionsSchema = z
  .object({
    store: vectorStoreSchema,
    embeddings: embeddingsSchema.optional(),
    maxChunkCharacters: z.number().int().min(MIN_MAX_CHUNK_CHARACTERS).max(1_000_000).optional(),
    sanitize: functionSchema("a function (text: string) => string").optional(),
    minAlnumChars: z.number().int().min(0).max(100_000).optional(),
    embedHeadingTrail: z.boolean().optional(),
    batchSize: z.number().int().min(1).max(MAX_INGEST_BATCH_SIZE).optional(),
    signal: signalSchema.optional(),
    now: functionSchema("a function () => Date").optional(),
    onProgress: functionSchema("a function (progress) => void").optional(),
  })
  .strict();

/** The strict schema of one {@link IngestDocument}. */
export const ingestDocumentSchema = z
  .object({
    id: z.string().min(1).max(1_000).optional(),
    text: z.string(),
    source: z.string().max(2_000).optional(),
    tags: z.array(z.string().min(1).max(200)).max(100).optional(),
  })
  .strict();

function describeIssues(error: z.ZodError, root: string): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length === 0 ? root : `${root}.${issue.path.map(String).join(".")}`;
      if (issue.code === "unrecognized_keys") {
        return `${path}: unknown ${issue.keys.length === 1 ? "key" : "keys"} ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`;
      }
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}

/**
 * Checks `ingest`'s arguments without doing any work: the options against
 * {@link ingestOptionsSchema} (unknown keys refused), every document against
 * {@link ingestDocumentSchema}, and that a store which searches by vector only gets an embedder.
 *
 * @param documents - the documents
 * @param options - the options
 * @returns the parsed options
 * @throws AgentoolError naming every problem
 * @internal
 */
export function parseIngestArguments(
  documents: unknown,
  options: unknown,
): { documents: IngestDocument[]; options: IngestOptions } {
  const parsedOptions = ingestOptionsSchema.safeParse(options ?? {});
  if (!parsedOptions.success) {
    throw new AgentoolError(
      `ingest: invalid options — ${describeIssues(parsedOptions.error, "options")}. Known options: ${Object.keys(ingestOptionsSchema.shape).join(", ")}.`,
    );
  }
  if (!Array.isArray(documents)) {
    throw new AgentoolError("ingest: documents must be an array of { id?, text, source?, tags? }.");
  }
  const problems: string[] = [];
  const parsedDocuments: IngestDocument[] = [];
  for (const [position, document] of documents.entries()) {
    const parsed = ingestDocumentSchema.safeParse(document);
    if (parsed.success) parsedDocuments.push(parsed.data as IngestDocument);
    else problems.push(describeIssues(parsed.error, `documents[${position}]`));
    if (problems.length >= 10) break;
  }
  if (problems.length > 0) {
    throw new AgentoolError(`ingest: invalid documents — ${problems.join("; ")}.`);
  }
  const parsed = parsedOptions.data as IngestOptions;
  if (parsed.embeddings === undefined && parsed.store.searchesText !== true) {
    throw new AgentoolError(
      "ingest: this store searches by vector only (searchesText is false) — pass embeddings, or use a store that searches text (createInMemoryVectorStore, createPgVectorStore).",
    );
  }
  return { documents: parsedDocuments, options: parsed };
}

/**
 * The source-agnostic write path: each document is chunked (`chunkMarkdown`: heading-aware, true
 * line spans) → each chunk sanitized (default: C0/C1 control characters stripped, tab and line feed
 * kept) → blank chunks and, with `minAlnumChars`, chunks with fewer letters and digits dropped →
 * embedded in batches of `batchSize` (with an embedder) → upserted in batches of `batchSize`.
 *
 * - Every record carries `metadata.chunk_index`, dense per document after the floor (0, 1, 2, …,
 *   no gaps) — the handle for window expansion — plus its lines, heading trail, source, tags and
 *   `created_at`; its id is `<document_key>#<chunk_index>`.
 * - A document without an id is keyed by a content hash of its raw text. Re-ingesting the same text
 *   with other chunking options (floor, cap) writes other positions: on stores with `range` the
 *   records past the new last chunk are deleted, so nothing is stranded; on the others give
 *   documents explicit ids when options may change.
 * - Options and documents are validated before any work (unknown keys, a negative floor, a
 *   fractional batch size, a non-function sanitizer all throw `AgentoolError`), and so is a store
 *   that searches by vector only given no embedder.
 * - Every chunk is embedded before the first store write, so an embedder failure leaves the store
 *   untouched. Store writes are batched: a store failure mid-ingest can leave earlier batches
 *   committed (ingesting again repairs it: same ids).
 *
 * @param documents - the documents (`{ id?, text, source?, tags? }`)
 * @param options - the store, the embedder and the chunking controls
 * @returns what was written, per document
 * @throws AgentoolError for bad arguments; the embedder's or store's error; the signal's reason
 * @example
 * const store = createInMemoryVectorStore();
 * const result = await ingest(
 *   [{ id: "docs/power.md", text: markdown, source: "https://example.com/power", tags: ["hardware"] }],
 *   { store, embeddings, minAlnumChars: 8, embedHeadingTrail: true },
 * );
 * // → { records: 12, droppedChunks: 1, documents: [{ documentKey: "docs/power.md", records: 12, … }], dimensions: 1536 }
 */
export async function ingest(
  documents: readonly IngestDocument[],
  options: IngestOptions,
): Promise<IngestResult> {
  const parsed = parseIngestArguments(documents, options);
  const {
    store,
    embeddings,
    maxChunkCharacters = DEFAULT_MAX_CHUNK_CHARACTERS,
    sanitize = sanitizeText,
    minAlnumChars = 0,
    embedHeadingTrail = false,
    batchSize = DEFAULT_INGEST_BATCH_SIZE,
    signal,
    now = () => new Date(),
    onProgress,
  } = parsed.options;
  signal?.throwIfAborted();
  const pendingDocuments = await prepareIngestDocuments(parsed.documents, {
    maxChunkCharacters,
    sanitize,
    minAlnumChars,
    embedHeadingTrail,
    createdAt: now().toISOString(),
    signal,
  });
  const records = pendingDocuments.flatMap((pending) => pending.records);
  const dimensions =
    embeddings === undefined
      ? undefined
      : await embedIngestRecords(
          records,
          pendingDocuments.flatMap((pending) => pending.embedInputs),
          {
            embeddings,
            batchSize,
            signal,
            onBatch: (completed, total) => onProgress?.({ stage: "embed", completed, total }),
          },
        );
  await writeRecords(store, records, { batchSize, signal, onProgress });
  const results: IngestedDocument[] = [];
  for (const pending of pendingDocuments) {
    results.push({
      documentKey: pending.documentKey,
      records: pending.records.length,
      droppedChunks: pending.droppedChunks,
      removedRecords: await removeStaleRecords(store, pending, signal),
    });
  }
  const result: IngestResult = {
    records: records.length,
    droppedChunks: results.reduce((sum, document) => sum + document.droppedChunks, 0),
    documents: results,
  };
  if (dimensions !== undefined) result.dimensions = dimensions;
  return result;
}

/** Upserts the records in batches of `batchSize`, reporting each batch. */
async function writeRecords(
  store: VectorStore,
  records: readonly VectorRecord[],
  settings: Pick<IngestOptions, "signal" | "onProgress"> & { batchSize: number },
): Promise<void> {
  const { batchSize, signal, onProgress } = settings;
  for (let start = 0; start < records.length; start += batchSize) {
    signal?.throwIfAborted();
    await store.upsert(
      records.slice(start, start + batchSize),
      signal === undefined ? undefined : { signal },
    );
    onProgress?.({
      stage: "upsert",
      completed: Math.min(start + batchSize, records.length),
      total: records.length,
    });
  }
}

/**
 * Deletes the records of an earlier, longer version of the document (chunk_index past its new
 * last chunk). Stores without `range` keep them.
 *
 * @returns how many records were deleted
 */
async function removeStaleRecords(
  store: VectorStore,
  pending: PendingDocument,
  signal: AbortSignal | undefined,
): Promise<number> {
  if (typeof store.range !== "function") return 0;
  signal?.throwIfAborted();
  const stale = await store.range(
    pending.documentKey,
    pending.records.length,
    MAX_CHUNK_INDEX,
    signal === undefined ? undefined : { signal },
  );
  const ids = stale.map((record) => record.id);
  if (ids.length === 0) return 0;
  await store.delete(ids, signal === undefined ? undefined : { signal });
  return ids.length;
}
