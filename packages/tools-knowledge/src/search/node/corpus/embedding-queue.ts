import { errorMessage } from "@agentool/contract";
import type { ChunkedDocument } from "../../../engine/types.js";
import type { CorpusSidecar } from "./corpus-sidecar.js";
import type { FileEntry } from "./corpus-state.js";
import { embedTexts } from "./embed-with-retry.js";
import type { EmbedderHealth } from "./embedder-health.js";
import { type RefreshRun, RestartRefresh } from "./refresh-run.js";

/** One chunk waiting for its vector. */
interface PendingEmbedding {
  file: FileEntry;
  index: number;
  text: string;
  /** The file's sha when the text was read (a re-indexed file's old jobs are dropped). */
  sha256: string;
}

/** The text a chunk is embedded as: its heading trail, a blank line, its text. */
function embeddingText(trail: readonly string[], text: string): string {
  return trail.length === 0 ? text : `${trail.join(" > ")}\n\n${text}`;
}

/**
 * The chunks of one refresh waiting for vectors, embedded `batchSize` at a time (each call
 * retried with backoff). A failed batch keeps what was embedded: the embedder is marked down for
 * the rest of the refresh, the chunks left stay missing and a later search embeds them.
 */
export class EmbeddingQueue {
  readonly #run: RefreshRun;
  readonly #health: EmbedderHealth;
  readonly #sidecar: CorpusSidecar;
  readonly #checkpoint: () => Promise<void>;
  readonly #pending: PendingEmbedding[] = [];
  #lastSave = performance.now();
  /** Whether the embedder is not called any more in this refresh. */
  down: boolean;

  /**
   * @param run - the refresh
   * @param health - the embedder's health (down when it failed recently)
   * @param sidecar - tells which vector arrays a save is writing
   * @param checkpoint - writes the index (every `checkpointMs` of a long build)
   */
  constructor(
    run: RefreshRun,
    health: EmbedderHealth,
    sidecar: CorpusSidecar,
    checkpoint: () => Promise<void>,
  ) {
    this.#run = run;
    this.#health = health;
    this.#sidecar = sidecar;
    this.#checkpoint = checkpoint;
    this.down = run.settings.embeddings !== undefined && health.coolingDown();
  }

  /**
   * Whether chunks of this file wait.
   *
   * @param entry - the file
   */
  has(entry: FileEntry): boolean {
    return this.#pending.some((job) => job.file === entry);
  }

  /**
   * Queues a file's chunks (or only those in `only`).
   *
   * @param entry - the file
   * @param document - its chunks' texts
   * @param only - the chunk indexes to embed (default all)
   */
  add(entry: FileEntry, document: ChunkedDocument, only?: ReadonlySet<number>): void {
    if (this.#run.settings.embeddings === undefined || this.down) return;
    for (const [index, chunk] of document.chunks.entries()) {
      if (only !== undefined && !only.has(index)) continue;
      this.#pending.push({
        file: entry,
        index,
        text: embeddingText(chunk.heading_trail, chunk.text),
        sha256: entry.sha256,
      });
    }
  }

  /**
   * Embeds every full batch, or everything with `all`.
   *
   * @param all - embed the last, partial batch too
   */
  async flush(all: boolean): Promise<void> {
    const { settings, state } = this.#run;
    while (this.#pending.length >= settings.batchSize || (all && this.#pending.length > 0)) {
      if (this.down) {
        this.#pending.length = 0;
        return;
      }
      const batch = this.#pending
        .splice(0, settings.batchSize)
        .filter(
          (job) => state.files.get(job.file.path) === job.file && job.file.sha256 === job.sha256,
        );
      if (batch.length === 0) continue;
      const vectors = await this.#embed(batch);
      if (vectors === undefined) return;
      this.#store(batch, vectors);
      if (settings.checkpointMs > 0 && performance.now() - this.#lastSave > settings.checkpointMs) {
        await this.#checkpoint();
        this.#lastSave = performance.now();
      }
    }
  }

  /** The batch's vectors, all of one length; `undefined` when the embedder failed (then down). */
  async #embed(batch: readonly PendingEmbedding[]): Promise<number[][] | undefined> {
    const { settings, signal, warnings } = this.#run;
    let vectors: number[][];
    try {
      vectors = await embedTexts(
        settings.embeddings as NonNullable<typeof settings.embeddings>,
        batch.map((job) => job.text),
        { retries: settings.retries, retryDelayMs: settings.retryDelayMs, signal },
      );
    } catch (error) {
      signal.throwIfAborted();
      this.#fail(errorMessage(error));
      const attempts = settings.retries === 0 ? "attempt" : "attempts";
      settings.warn(
        warnings,
        `The embedder failed after ${settings.retries + 1} ${attempts} (${this.#health.lastError}); the passages not embedded yet are found by BM25 and embedded on a later search.`,
      );
      return undefined;
    }
    const length = vectors[0]?.length ?? 0;
    if (length === 0 || vectors.some((vector) => vector.length !== length)) {
      this.#fail("it returned vectors of different lengths");
      settings.warn(
        warnings,
        "The embedder returned vectors of different lengths; they were not stored.",
      );
      return undefined;
    }
    return vectors;
  }

  #fail(message: string): void {
    this.down = true;
    this.#health.failed(message);
    this.#pending.length = 0;
  }

  /** Writes each vector into its file's array (a copy when a save is writing that array). */
  #store(batch: readonly PendingEmbedding[], vectors: readonly number[][]): void {
    const { state, report, settings, warnings } = this.#run;
    const length = (vectors[0] as number[]).length;
    if (state.dimension === 0) state.dimension = length;
    else if (state.dimension !== length) {
      settings.warn(
        warnings,
        `The embedder's vectors changed length (${state.dimension} → ${length}): every passage is re-embedded (vector spaces never mix).`,
      );
      state.resetVectors();
      state.dimension = length;
      throw new RestartRefresh();
    }
    for (const [position, job] of batch.entries()) {
      let target = job.file.vectors;
      if (target === undefined || target.length !== job.file.chunks.length * length) {
        target = new Float32Array(job.file.chunks.length * length);
        job.file.vectors = target;
      } else if (this.#sidecar.isBeingWritten(target)) {
        target = target.slice();
        job.file.vectors = target;
      }
      target.set(vectors[position] as number[], job.index * length);
      state.changed(target);
      job.file.missing.delete(job.index);
      report.embedded += 1;
    }
    this.#run.dirty = true;
  }
}
