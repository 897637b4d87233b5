import { AgentoolError } from "@agentool/contract";
import { z } from "zod";
import { contentDocumentKey } from "../engine/content-hash.js";
import { embeddingsSchema, vectorStoreSchema } from "../engine/option-schemas.js";
import type { Embeddings, VectorRecord, VectorStore } from "../engine/types.js";
import {
  chunkMarkdown,
  DEFAULT_MAX_CHUNK_CHARACTERS,
  MIN_MAX_CHUNK_CHARACTERS,
} from "./chunk-markdown.js";
import { countAlphanumericCharacters, sanitizeText } from "./internal/sanitize.js";
import { MAX_CHUNK_INDEX, recordId } from "./internal/vector-query.js";

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
 * The text an embedder gets for a chunk: with `embedHeadingTrail`, `"Power > Limits: <text>"`;
 * without, the trail's headings one per line and then the text. A chunk with no trail embeds as
 * its text either way.
 *
 * @param text - the (sanitized) chunk text
 * @param headingTrail - the chunk's headings, outermost first
 * @param embedHeadingTrail - the option
 * @returns the embedder's input
 * @internal
 */
export function embeddingInput(
  text: string,
  headingTrail: readonly string[],
  embedHeadingTrail: boolean,
): string {
  if (headingTrail.length === 0) return text;
  return embedHeadingTrail
    ? `${headingTrail.join(" > ")}: ${text}`
    : `${headingTrail.join("\n")}\n${text}`;
}

function toVector(values: unknown, expected: number | undefined, position: number): Float32Array {
  if (!Array.isArray(values) && !ArrayBuffer.isView(values)) {
    throw new TypeError(
      `ingest: the embedder returned no vector for text ${position} of the batch.`,
    );
  }
  const vector = Float32Array.from(values as ArrayLike<number>);
  if (vector.length === 0)
    throw new TypeError(
      `ingest: the embedder returned an empty vector for text ${position} of the batch.`,
    );
  if (expected !== undefined && vector.length !== expected) {
    throw new RangeError(
      `ingest: the embedder returned a ${vector.length}-dimension vector after ${expected}-dimension ones — one ingest uses one embedder.`,
    );
  }
  for (const value of vector) {
    if (!Number.isFinite(value))
      throw new TypeError("ingest: the embedder returned a non-finite number.");
  }
  return vector;
}

function lineCount(text: string): number {
  let count = 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
    count += 1;
  return count;
}

interface PendingDocument {
  documentKey: string;
  records: VectorRecord[];
  embedInputs: string[];
  droppedChunks: number;
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
  const createdAt = now().toISOString();
  const clean = (text: string): string => {
    const result = sanitize(text);
    if (typeof result !== "string") throw new TypeError("ingest: sanitize must return a string.");
    return result;
  };

  // A key given twice is ingested once: the last document wins (as a second ingest would).
  const pendingByKey = new Map<string, PendingDocument>();
  for (const document of parsed.documents) {
    signal?.throwIfAborted();
    const documentKey = document.id ?? (await contentDocumentKey(document.text));
    const source = document.source === undefined ? undefined : sanitizeText(document.source);
    const tags =
      document.tags === undefined
        ? undefined
        : [
            ...new Set(
              document.tags.map((tag) => sanitizeText(tag).trim()).filter((tag) => tag.length > 0),
            ),
          ];
    const { chunks } = chunkMarkdown(document.text, { maxChunkCharacters });
    const pending: PendingDocument = {
      documentKey,
      records: [],
      embedInputs: [],
      droppedChunks: 0,
    };
    for (const chunk of chunks) {
      let text = clean(chunk.text);
      let startLine = chunk.start_line;
      let endLine = chunk.end_line;
      // Lines the sanitizer left blank at either end are trimmed, the span following them, as
      // long as the sanitizer kept the line count (the default one does).
      if (text !== chunk.text && lineCount(text) === lineCount(chunk.text)) {
        const lines = text.split("\n");
        while (lines.length > 1 && (lines[0] as string).trim().length === 0) {
          lines.shift();
          startLine += 1;
        }
        while (lines.length > 1 && (lines[lines.length - 1] as string).trim().length === 0) {
          lines.pop();
          endLine -= 1;
        }
        text = lines.join("\n");
      }
      const headingTrail = chunk.heading_trail.map(clean);
      if (
        text.trim().length === 0 ||
        (minAlnumChars > 0 && countAlphanumericCharacters(text, minAlnumChars) < minAlnumChars)
      ) {
        pending.droppedChunks += 1;
        continue;
      }
      const chunkIndex = pending.records.length;
      const record: VectorRecord = {
        id: recordId(documentKey, chunkIndex),
        text,
        metadata: {
          document_key: documentKey,
          chunk_index: chunkIndex,
          start_line: startLine,
          end_line: endLine,
          heading_trail: headingTrail,
          created_at: createdAt,
        },
      };
      if (source !== undefined) record.metadata.source = source;
      if (tags !== undefined) record.metadata.tags = tags;
      pending.records.push(record);
      pending.embedInputs.push(embeddingInput(text, headingTrail, embedHeadingTrail));
    }
    pendingByKey.delete(documentKey);
    pendingByKey.set(documentKey, pending);
  }
  const pendingDocuments = [...pendingByKey.values()];
  const records = pendingDocuments.flatMap((pending) => pending.records);
  const inputs = pendingDocuments.flatMap((pending) => pending.embedInputs);

  let dimensions: number | undefined;
  if (embeddings !== undefined) {
    for (let start = 0; start < records.length; start += batchSize) {
      signal?.throwIfAborted();
      const batch = inputs.slice(start, start + batchSize);
      const vectors = await embeddings.embedDocuments(batch);
      if (!Array.isArray(vectors) || vectors.length !== batch.length) {
        throw new TypeError(
          `ingest: the embedder returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${batch.length} texts.`,
        );
      }
      for (const [offset, values] of vectors.entries()) {
        const vector = toVector(values, dimensions, offset);
        dimensions = vector.length;
        (records[start + offset] as VectorRecord).vector = vector;
      }
      onProgress?.({
        stage: "embed",
        completed: Math.min(start + batchSize, records.length),
        total: records.length,
      });
    }
  }

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

  const results: IngestedDocument[] = [];
  for (const pending of pendingDocuments) {
    let removedRecords = 0;
    if (typeof store.range === "function") {
      signal?.throwIfAborted();
      const stale = await store.range(
        pending.documentKey,
        pending.records.length,
        MAX_CHUNK_INDEX,
        signal === undefined ? undefined : { signal },
      );
      const ids = stale.map((record) => record.id);
      if (ids.length > 0) {
        await store.delete(ids, signal === undefined ? undefined : { signal });
        removedRecords = ids.length;
      }
    }
    results.push({
      documentKey: pending.documentKey,
      records: pending.records.length,
      droppedChunks: pending.droppedChunks,
      removedRecords,
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
