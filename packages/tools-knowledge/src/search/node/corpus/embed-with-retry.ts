import { retryWithBackoff, sleep } from "@agentool/contract";
import type { Embeddings } from "../../../engine/types.js";

/** How an embedding call is retried. */
export interface EmbeddingRetry {
  /** Retries after the first attempt. */
  retries: number;
  /** Wait before the first retry, ms; each next one waits four times longer. */
  retryDelayMs: number;
  /** Stops the retries and the waits. */
  signal: AbortSignal;
}

/**
 * Runs an embedding call, retrying a failure `retries` times, `retryDelayMs × 4^n` apart (the
 * kit's `retryWithBackoff` doubles its delay; this source's documented backoff grows fourfold, so
 * each retry waits at its own start). An aborted signal ends the retries.
 *
 * @param work - one attempt
 * @param retry - retries, delay, signal
 * @returns the first attempt's value that succeeds
 */
export function retryEmbedding<T>(work: () => Promise<T>, retry: EmbeddingRetry): Promise<T> {
  return retryWithBackoff(
    async (attempt) => {
      if (attempt > 1) await sleep(retry.retryDelayMs * 4 ** (attempt - 2), retry.signal);
      return await work();
    },
    {
      attempts: retry.retries + 1,
      baseDelayMs: 0,
      retryable: () => !retry.signal.aborted,
      signal: retry.signal,
    },
  );
}

/**
 * Embeds texts (with retries), checking that one vector came back per text.
 *
 * @param embeddings - the embedder
 * @param texts - the texts
 * @param retry - retries, delay, signal
 * @returns one vector per text
 */
export function embedTexts(
  embeddings: Embeddings,
  texts: string[],
  retry: EmbeddingRetry,
): Promise<number[][]> {
  return retryEmbedding(async () => {
    const vectors = await embeddings.embedDocuments(texts);
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new Error(
        `embedDocuments returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${texts.length} texts`,
      );
    }
    return vectors;
  }, retry);
}

/**
 * Embeds a query (with retries).
 *
 * @param embeddings - the embedder
 * @param query - the query
 * @param retry - retries, delay, signal
 * @returns its vector
 */
export function embedQuery(
  embeddings: Embeddings,
  query: string,
  retry: EmbeddingRetry,
): Promise<Float32Array> {
  return retryEmbedding(async () => {
    const vector: unknown = await embeddings.embedQuery(query);
    if (!Array.isArray(vector) && !(vector instanceof Float32Array)) {
      throw new Error("embedQuery returned no vector");
    }
    return Float32Array.from(vector as ArrayLike<number>);
  }, retry);
}
