import type { Embeddings, VectorRecord } from "../../engine/types.js";

/** What {@link embedIngestRecords} needs from `ingest`'s options (defaults applied). */
export interface EmbedIngestSettings {
  /** The embedder. */
  embeddings: Embeddings;
  /** Texts per `embedDocuments` call. */
  batchSize: number;
  /** Checked before each batch. */
  signal: AbortSignal | undefined;
  /** Called after each batch with the records embedded so far and in all. */
  onBatch: (completed: number, total: number) => void;
}

/**
 * Embeds every record in batches of `batchSize`, setting each record's `vector`. Every vector must
 * be finite, non-empty and of one length.
 *
 * @param records - the records, changed in place
 * @param inputs - the embedder's input per record, same order
 * @param settings - the embedder, the batch size, the signal and the progress callback
 * @returns the vector length, or `undefined` when there was nothing to embed
 * @throws TypeError or RangeError for a bad answer from the embedder; the embedder's error; the
 *   signal's reason
 * @internal
 */
export async function embedIngestRecords(
  records: readonly VectorRecord[],
  inputs: readonly string[],
  settings: EmbedIngestSettings,
): Promise<number | undefined> {
  const { embeddings, batchSize, signal } = settings;
  let dimensions: number | undefined;
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
    settings.onBatch(Math.min(start + batchSize, records.length), records.length);
  }
  return dimensions;
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
