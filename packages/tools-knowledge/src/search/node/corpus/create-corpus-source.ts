import { realpath, stat } from "node:fs/promises";
import { raceSignal } from "@agentool/contract";
import { KnowledgeSourceError } from "../../../engine/knowledge-source-error.js";
import type {
  KnowledgeSearchContext,
  KnowledgeSearchRequest,
  KnowledgeSearchResult,
} from "../../../engine/types.js";
import { BackgroundSaver } from "./background-saver.js";
import { ChangeDetector } from "./change-detector.js";
import {
  type CorpusSettings,
  type CorpusSourceOptions,
  resolveCorpusSettings,
} from "./corpus-settings.js";
import { CorpusSidecar } from "./corpus-sidecar.js";
import type { CorpusRefreshReport, CorpusSource } from "./corpus-source.js";
import type { CorpusState } from "./corpus-state.js";
import { EmbedderHealth } from "./embedder-health.js";
import { type ProgressUpdate, type RefreshHost, refreshCorpus } from "./refresh-corpus.js";
import { RestartRefresh } from "./refresh-run.js";
import { type SearchHost, searchCorpus } from "./search-corpus.js";

/**
 * The corpus source's wiring: its settings, its parts (sidecar, change detector, embedder
 * health, background saver), the index in memory and the one refresh in flight.
 */
class CorpusSourceCore implements RefreshHost, SearchHost {
  readonly settings: CorpusSettings;
  readonly sidecar: CorpusSidecar;
  readonly detector: ChangeDetector;
  readonly health: EmbedderHealth;
  readonly saver: BackgroundSaver;
  readonly largeWarned = new Set<string>();
  state: CorpusState | undefined;
  realRoot: string | undefined;
  #controller = new AbortController();
  readonly #listeners = new Set<NonNullable<KnowledgeSearchContext["progress"]>>();
  #inFlight: Promise<CorpusRefreshReport> | undefined;
  /** Settles when the last refresh started has (`close` waits for it). */
  #settled: Promise<void> = Promise.resolve();
  #afterAnswerScheduled = false;

  constructor(settings: CorpusSettings) {
    this.settings = settings;
    this.sidecar = new CorpusSidecar(settings);
    this.detector = new ChangeDetector(settings);
    this.health = new EmbedderHealth(settings.cooldownMs);
    this.saver = new BackgroundSaver(this.sidecar, () => this.state);
  }

  get closeSignal(): AbortSignal {
    return this.#controller.signal;
  }

  async resolveRoot(): Promise<string | undefined> {
    const root = this.settings.root;
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
    if (this.realRoot === undefined) this.realRoot = await realpath(root);
    return this.realRoot;
  }

  emitProgress(update: ProgressUpdate): void {
    for (const listener of this.#listeners) {
      try {
        listener(update);
      } catch {
        // listener errors are ignored
      }
    }
  }

  /** One refresh for every concurrent caller; a caller's signal stops its own wait only. */
  refreshShared(context: Partial<KnowledgeSearchContext>): Promise<CorpusRefreshReport> {
    const progress = context.progress;
    if (progress !== undefined) this.#listeners.add(progress);
    if (this.#inFlight === undefined) {
      const signal = this.#controller.signal;
      const run = async (): Promise<CorpusRefreshReport> => {
        for (let attempt = 0; ; attempt += 1) {
          try {
            return await refreshCorpus(this, signal);
          } catch (error) {
            if (error instanceof RestartRefresh && attempt < 2) continue;
            throw error;
          }
        }
      };
      const promise = run().finally(() => {
        if (this.#inFlight === promise) this.#inFlight = undefined;
      });
      this.#inFlight = promise;
      this.#settled = promise.then(
        () => undefined,
        () => undefined,
      );
    }
    const waiting =
      context.signal === undefined ? this.#inFlight : raceSignal(this.#inFlight, context.signal);
    return waiting.finally(() => {
      if (progress !== undefined) this.#listeners.delete(progress);
    });
  }

  async search(
    request: KnowledgeSearchRequest,
    context: KnowledgeSearchContext,
  ): Promise<KnowledgeSearchResult> {
    try {
      return await searchCorpus(this, request, context);
    } finally {
      this.#scheduleAfterAnswer();
    }
  }

  async refresh(context: Partial<KnowledgeSearchContext>): Promise<CorpusRefreshReport> {
    const report = await this.refreshShared(context);
    if (this.saver.pending) {
      report.saved = (await this.saver.save()) || report.saved;
      report.warnings.push(...this.saver.takeWarnings());
    }
    return report;
  }

  async flush(): Promise<{ saved: boolean; warnings: string[] }> {
    let saved = true;
    if (this.#inFlight !== undefined) await this.#inFlight.catch(() => undefined);
    if (this.saver.pending) saved = await this.saver.save();
    return { saved, warnings: this.saver.takeWarnings() };
  }

  async close(): Promise<void> {
    this.#controller.abort(new Error("the corpus source was closed"));
    await this.#settled;
    if (this.saver.pending) await this.saver.save();
    this.detector.close();
    this.#controller = new AbortController();
    this.state = undefined;
    this.sidecar.forget();
    this.saver.forget();
  }

  /**
   * Work a search leaves until after its answer: writing the sidecar and rebuilding the scan
   * matrix (both block the event loop for a while on a big corpus).
   */
  #scheduleAfterAnswer(): void {
    if (this.#afterAnswerScheduled) return;
    this.#afterAnswerScheduled = true;
    setImmediate(() => {
      this.#afterAnswerScheduled = false;
      if (this.saver.unsaved) void this.saver.save();
      const current = this.state;
      if (
        current !== undefined &&
        this.settings.embeddings !== undefined &&
        current.dimension > 0 &&
        !current.hasFreshMatrix()
      ) {
        current.scanMatrix();
      }
    });
  }
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
  const core = new CorpusSourceCore(resolveCorpusSettings(options));
  return {
    root: core.settings.root,
    indexPath: core.settings.indexPath,
    search: (request, context) => core.search(request, context),
    refresh: (context = {}) => core.refresh(context),
    flush: () => core.flush(),
    close: () => core.close(),
  };
}
