import { contentDocumentKey } from "../../engine/content-hash.js";
import type { Chunk, VectorRecord } from "../../engine/types.js";
import { chunkMarkdown } from "../chunk-markdown.js";
import { embeddingInput } from "./embedding-input.js";
import { countAlphanumericCharacters, sanitizeText } from "./sanitize.js";
import { recordId } from "./vector-query.js";

/** One document chunked into records, not yet embedded or written. */
export interface PendingDocument {
  /** The document's key (its id, or the content hash of its text). */
  documentKey: string;
  /** Its records, `chunk_index` 0 … n − 1 (dense after the floor). */
  records: VectorRecord[];
  /** The embedder's input per record, in the same order. */
  embedInputs: string[];
  /** Chunks dropped: blank after sanitizing, or under the floor. */
  droppedChunks: number;
}

/** What {@link prepareIngestDocuments} needs from `ingest`'s options (defaults applied). */
export interface PrepareIngestSettings {
  /** Largest chunk, in characters. */
  maxChunkCharacters: number;
  /** The chunk sanitizer. */
  sanitize: (text: string) => string;
  /** The letters-and-digits floor (0: off). */
  minAlnumChars: number;
  /** Embed `"Power > Limits: <text>"` instead of the trail's lines then the text. */
  embedHeadingTrail: boolean;
  /** `created_at` of every record (ISO 8601). */
  createdAt: string;
  /** Checked before each document. */
  signal: AbortSignal | undefined;
}

/** The document fields every record of a document carries. */
interface DocumentFields {
  documentKey: string;
  source: string | undefined;
  tags: string[] | undefined;
}

/**
 * Chunks every document into records (chunked, sanitized, blank and short chunks dropped, ids
 * `<document_key>#<chunk_index>`). A key given twice is prepared once: the last document wins, at
 * its last place (as a second ingest would).
 *
 * @param documents - the validated documents
 * @param settings - the chunking controls, the clock's reading and the signal
 * @returns one pending document per distinct key, in the order of their last occurrence
 * @throws TypeError when the sanitizer returns something other than a string; the signal's reason
 * @internal
 */
export async function prepareIngestDocuments(
  documents: ReadonlyArray<{ id?: string; text: string; source?: string; tags?: string[] }>,
  settings: PrepareIngestSettings,
): Promise<PendingDocument[]> {
  const pendingByKey = new Map<string, PendingDocument>();
  for (const document of documents) {
    settings.signal?.throwIfAborted();
    const fields: DocumentFields = {
      documentKey: document.id ?? (await contentDocumentKey(document.text)),
      source: document.source === undefined ? undefined : sanitizeText(document.source),
      tags: document.tags === undefined ? undefined : cleanTags(document.tags),
    };
    const pending = prepareDocument(document.text, fields, settings);
    pendingByKey.delete(fields.documentKey);
    pendingByKey.set(fields.documentKey, pending);
  }
  return [...pendingByKey.values()];
}

function cleanTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => sanitizeText(tag).trim()).filter((tag) => tag.length > 0))];
}

function prepareDocument(
  text: string,
  fields: DocumentFields,
  settings: PrepareIngestSettings,
): PendingDocument {
  const { chunks } = chunkMarkdown(text, { maxChunkCharacters: settings.maxChunkCharacters });
  const pending: PendingDocument = {
    documentKey: fields.documentKey,
    records: [],
    embedInputs: [],
    droppedChunks: 0,
  };
  for (const chunk of chunks) {
    const record = chunkRecord(chunk, pending.records.length, fields, settings);
    if (record === undefined) {
      pending.droppedChunks += 1;
      continue;
    }
    pending.records.push(record);
    pending.embedInputs.push(
      embeddingInput(record.text, record.metadata.heading_trail, settings.embedHeadingTrail),
    );
  }
  return pending;
}

/** One chunk as a record at `chunkIndex`, or `undefined` when it is blank or under the floor. */
function chunkRecord(
  chunk: Chunk,
  chunkIndex: number,
  fields: DocumentFields,
  settings: PrepareIngestSettings,
): VectorRecord | undefined {
  const clean = (text: string): string => {
    const result = settings.sanitize(text);
    if (typeof result !== "string") throw new TypeError("ingest: sanitize must return a string.");
    return result;
  };
  const { text, startLine, endLine } = trimBlankEdges(clean(chunk.text), chunk);
  const headingTrail = chunk.heading_trail.map(clean);
  const { minAlnumChars } = settings;
  if (
    text.trim().length === 0 ||
    (minAlnumChars > 0 && countAlphanumericCharacters(text, minAlnumChars) < minAlnumChars)
  ) {
    return undefined;
  }
  const record: VectorRecord = {
    id: recordId(fields.documentKey, chunkIndex),
    text,
    metadata: {
      document_key: fields.documentKey,
      chunk_index: chunkIndex,
      start_line: startLine,
      end_line: endLine,
      heading_trail: headingTrail,
      created_at: settings.createdAt,
    },
  };
  if (fields.source !== undefined) record.metadata.source = fields.source;
  if (fields.tags !== undefined) record.metadata.tags = fields.tags;
  return record;
}

/**
 * Lines the sanitizer left blank at either end are trimmed, the span following them, as long as
 * the sanitizer kept the line count (the default one does).
 */
function trimBlankEdges(
  text: string,
  chunk: Chunk,
): { text: string; startLine: number; endLine: number } {
  let startLine = chunk.start_line;
  let endLine = chunk.end_line;
  if (text === chunk.text || lineCount(text) !== lineCount(chunk.text)) {
    return { text, startLine, endLine };
  }
  const lines = text.split("\n");
  while (lines.length > 1 && (lines[0] as string).trim().length === 0) {
    lines.shift();
    startLine += 1;
  }
  while (lines.length > 1 && (lines[lines.length - 1] as string).trim().length === 0) {
    lines.pop();
    endLine -= 1;
  }
  return { text: lines.join("\n"), startLine, endLine };
}

function lineCount(text: string): number {
  let count = 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
    count += 1;
  return count;
}
