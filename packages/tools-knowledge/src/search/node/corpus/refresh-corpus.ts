import type { KnowledgeSearchContext } from "../../../engine/types.js";
import { startLexicalBuild } from "../internal/lexical-build.js";
import type { BackgroundSaver } from "./background-saver.js";
import type { ChangeDetector } from "./change-detector.js";
import type { CorpusSettings } from "./corpus-settings.js";
import type { CorpusSidecar } from "./corpus-sidecar.js";
import type { CorpusRefreshReport } from "./corpus-source.js";
import type { CorpusState } from "./corpus-state.js";
import type { EmbedderHealth } from "./embedder-health.js";
import { EmbeddingQueue } from "./embedding-queue.js";
import { indexReadFile } from "./index-read-file.js";
import { planReads, type ReadPlan } from "./plan-reads.js";
import { readInOrder } from "./read-in-order.js";
import { emptyReport, type RefreshRun } from "./refresh-run.js";
import { resumeEmbeddings } from "./resume-embeddings.js";

/** A progress update, as `context.progress` receives it. */
export type ProgressUpdate = Parameters<NonNullable<KnowledgeSearchContext["progress"]>>[0];

/** What a refresh reads and changes of its corpus source. */
export interface RefreshHost {
  readonly settings: CorpusSettings;
  readonly sidecar: CorpusSidecar;
  readonly detector: ChangeDetector;
  readonly health: EmbedderHealth;
  readonly saver: BackgroundSaver;
  /** Files above `maxFileBytes` already warned about (path, size, time): each is named once. */
  readonly largeWarned: Set<string>;
  /** The index in memory (`undefined`: read the sidecar first). */
  state: CorpusState | undefined;
  /** The corpus root's real path; `undefined` when it does not exist. */
  resolveRoot(): Promise<string | undefined>;
  /** Tells every listener of the refresh. */
  emitProgress(update: ProgressUpdate): void;
}

/**
 * Brings the index up to date with the folder: loads (or adopts a newer) sidecar, asks the change
 * detector what changed, reads and indexes the files that did, embeds their chunks and those
 * left from before, and marks the index to be written.
 *
 * @param host - the corpus source
 * @param signal - stops the refresh (the source is closing)
 * @returns what the refresh did
 */
export async function refreshCorpus(
  host: RefreshHost,
  signal: AbortSignal,
): Promise<CorpusRefreshReport> {
  const started = performance.now();
  const warnings: string[] = [];
  const report = emptyReport(warnings);
  const corpusRoot = await host.resolveRoot();
  if (corpusRoot === undefined) {
    host.state = host.sidecar.emptyState();
    report.durationMs = performance.now() - started;
    return report;
  }
  if (host.state === undefined) host.state = await host.sidecar.load(warnings);
  else if (!host.saver.writing) {
    // While our own write is in flight the file on disk is ours (its stamp not yet recorded).
    const adopted = await host.sidecar.readNewer();
    if (adopted !== undefined) {
      host.state = adopted;
      // Another process's view may be older than the folder: walk it all before trusting it.
      host.detector.invalidate();
    }
  }
  const state = host.state;
  const { settings, detector } = host;
  const run: RefreshRun = {
    settings,
    state,
    report,
    warnings,
    signal,
    dirty: state.files.size === 0 && !host.sidecar.exists,
  };
  await detector.settle();
  const canResume = settings.embeddings !== undefined && !host.health.coolingDown();
  if (detector.quiet(run.dirty) && !(canResume && state.hasMissingVectors())) {
    // No watcher event since the last walk: nothing changed — not even a stat is needed.
    report.pendingEmbeddings = state.pendingEmbeddings();
    return finishReport(run, started);
  }
  const changes = await detector.detect(state, corpusRoot, run.dirty, signal);
  report.walked = changes.walked;
  report.eventPaths = changes.eventPaths;
  const plan = planReads(run, changes, host.largeWarned);
  await indexChanges(host, run, plan, corpusRoot);
  report.pendingEmbeddings = state.pendingEmbeddings();
  if (
    settings.embeddings !== undefined &&
    report.pendingEmbeddings > 0 &&
    !warnings.some((warning) => warning.startsWith("The embedder"))
  ) {
    const count = report.pendingEmbeddings;
    settings.warn(
      warnings,
      `${count} ${count === 1 ? "passage has" : "passages have"} no vector yet (the embedder failed earlier); BM25 finds them, and a later search embeds them.`,
    );
  }
  if (run.dirty) host.saver.markUnsaved();
  return finishReport(run, started);
}

/** Fills in the report's totals and time. */
function finishReport(run: RefreshRun, started: number): CorpusRefreshReport {
  const { report, state } = run;
  report.files = state.files.size;
  report.chunks = state.chunkCount;
  report.durationMs = performance.now() - started;
  return report;
}

/** Sets the BM25 build of the running refresh in place (see `indexWorker`). */
async function finishLexicalBuild(run: RefreshRun): Promise<void> {
  const build = run.state.build;
  if (build === undefined) return;
  const { index, onWorker } = await build.finish();
  run.state.lexical = index;
  run.state.build = undefined;
  run.report.builtOnWorker = onWorker;
}

/** Reads, chunks, indexes and embeds the planned files, then the chunks left from before. */
async function indexChanges(
  host: RefreshHost,
  run: RefreshRun,
  plan: ReadPlan,
  corpusRoot: string,
): Promise<void> {
  const { settings, state, report, warnings, signal } = run;
  const queue = new EmbeddingQueue(run, host.health, host.sidecar, async () => {
    await finishLexicalBuild(run);
    report.saved = (await host.sidecar.save(state, warnings)) || report.saved;
  });
  if (queue.down) {
    settings.warn(
      warnings,
      `The embedder failed recently (${host.health.lastError}); new passages are found by BM25 until it answers again.`,
    );
  }
  const total = plan.toRead.length;
  let done = 0;
  let lastProgress = 0;
  const reportProgress = (force: boolean) => {
    if (total === 0) return;
    const now = performance.now();
    if (!force && now - lastProgress < 100) return;
    lastProgress = now;
    host.emitProgress({ message: "indexing the knowledge folder", completed: done, total });
  };
  reportProgress(true);
  // A first build of a large corpus: BM25 on a worker thread (see `indexWorker`).
  if (settings.indexWorker && state.files.size === 0 && state.lexical.size === 0) {
    let newBytes = 0;
    for (const file of plan.toRead) newBytes += file.size;
    if (newBytes >= settings.indexWorkerMinimumBytes && newBytes > 0)
      state.build = startLexicalBuild(true);
  }
  const binaryFound: string[] = [];
  try {
    for await (const read of readInOrder(plan.toRead, signal)) {
      done += 1;
      reportProgress(false);
      if ((await indexReadFile(run, read, plan.goneBySha, queue)) === "binary")
        binaryFound.push(read.file.path);
    }
    reportProgress(true);
    if (binaryFound.length > 0) {
      const shown = binaryFound.slice(0, 5).join(", ");
      settings.warn(
        warnings,
        `${binaryFound.length} ${binaryFound.length === 1 ? "file was" : "files were"} skipped as binary: ${shown}${binaryFound.length > 5 ? ", …" : ""}.`,
      );
    }
    await resumeEmbeddings(run, queue, corpusRoot);
    await queue.flush(true);
    await finishLexicalBuild(run);
  } catch (error) {
    if (state.build !== undefined) {
      if (signal.aborted) {
        // Closing: drop the half-built index (a later search loads the sidecar again).
        state.build.cancel();
        state.build = undefined;
        host.state = undefined;
      } else await finishLexicalBuild(run);
    }
    throw error;
  }
}
