import { errorMessage, raceSignal } from "@agentool/contract";
import type {
  KnowledgeSearchContext,
  KnowledgeSearchRequest,
  KnowledgeSearchResult,
} from "../../../engine/types.js";
import type { BackgroundSaver } from "./background-saver.js";
import { corpusHit, readLines } from "./corpus-excerpt.js";
import type { CorpusSettings } from "./corpus-settings.js";
import type { CorpusSidecar } from "./corpus-sidecar.js";
import type { CorpusRefreshReport } from "./corpus-source.js";
import type { ChunkReference, CorpusState, FileEntry } from "./corpus-state.js";
import { embedQuery } from "./embed-with-retry.js";
import type { EmbedderHealth } from "./embedder-health.js";
import { rankCorpus } from "./rank-corpus.js";

/** What a search reads of its corpus source. */
export interface SearchHost {
  readonly settings: CorpusSettings;
  readonly health: EmbedderHealth;
  readonly saver: BackgroundSaver;
  readonly sidecar: CorpusSidecar;
  /** The index in memory. */
  readonly state: CorpusState | undefined;
  /** The corpus root's real path once resolved. */
  readonly realRoot: string | undefined;
  /** Stops the query's embedding when the source closes. */
  readonly closeSignal: AbortSignal;
  /** The refresh every concurrent search shares. */
  refreshShared(context: Partial<KnowledgeSearchContext>): Promise<CorpusRefreshReport>;
}

/**
 * Searches the corpus: embeds the query while the index refreshes, ranks (see `rankCorpus`) and
 * reads the page's files for their excerpts.
 *
 * @param host - the corpus source
 * @param request - the query, page and path prefix
 * @param context - the call's signal and progress
 * @returns the hits
 */
export async function searchCorpus(
  host: SearchHost,
  request: KnowledgeSearchRequest,
  context: KnowledgeSearchContext,
): Promise<KnowledgeSearchResult> {
  const { settings } = host;
  const { state: current, vector, warnings } = await refreshWithQueryVector(host, request, context);
  context.signal.throwIfAborted();
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
  // Files read for the ranking's word pairs are kept for the page's excerpts.
  const texts = new Map<FileEntry, string[] | undefined>();
  const readText = async (file: FileEntry) => {
    if (!texts.has(file)) texts.set(file, await readLines(host.realRoot ?? settings.root, file));
    return texts.get(file);
  };
  const ranked = await rankCorpus(current, {
    query: request.query,
    vector,
    prefix,
    denseCandidates: settings.denseCandidates,
    readTexts: async (files) =>
      new Map(await Promise.all(files.map(async (file) => [file, await readText(file)] as const))),
  });
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
  for (const { key } of page) await readText((current.chunks.get(key) as ChunkReference).file);
  for (const { key, score } of page) {
    const { file, index } = current.chunks.get(key) as ChunkReference;
    const lines = texts.get(file);
    const hit = corpusHit(settings, file, index, lines, score);
    if (lines === undefined)
      warnings.push(
        `${file.path} could not be read for its excerpt; search again to refresh the index.`,
      );
    result.hits.push(hit);
  }
  return result;
}

/**
 * Refreshes the index while the query is embedded; an embedder that fails (or failed recently)
 * means BM25 only, with a warning; vectors of another length mean every passage is re-embedded.
 */
async function refreshWithQueryVector(
  host: SearchHost,
  request: KnowledgeSearchRequest,
  context: KnowledgeSearchContext,
): Promise<{ state: CorpusState; vector: Float32Array | undefined; warnings: string[] }> {
  const { settings, health } = host;
  const embeddings = settings.embeddings;
  const queryVector =
    embeddings !== undefined && !health.coolingDown()
      ? embedQuery(embeddings, request.query, {
          retries: settings.retries,
          retryDelayMs: settings.retryDelayMs,
          signal: host.closeSignal,
        }).then(
          (vector) => ({ vector }),
          (error: unknown) => ({ error: errorMessage(error) }),
        )
      : undefined;
  const report = await host.refreshShared(context);
  const warnings = [...report.warnings, ...host.saver.takeWarnings()];
  let vector: Float32Array | undefined;
  if (queryVector !== undefined) {
    const answer = await raceSignal(queryVector, context.signal);
    if ("vector" in answer) vector = answer.vector;
    else {
      health.failed(answer.error);
      warnings.push(
        `The embedder failed for the query (${answer.error}); these results are BM25 only.`,
      );
    }
  } else if (
    embeddings !== undefined &&
    !warnings.some((warning) => warning.startsWith("The embedder"))
  ) {
    warnings.push(
      `The embedder failed recently (${health.lastError}); these results are BM25 only.`,
    );
  }
  let current = host.state ?? host.sidecar.emptyState();
  if (vector !== undefined && current.dimension > 0 && vector.length !== current.dimension) {
    warnings.push(
      `The embedder's vectors changed length (${current.dimension} → ${vector.length}): every passage is re-embedded (vector spaces never mix).`,
    );
    current.resetVectors();
    const again = await host.refreshShared(context);
    warnings.push(...again.warnings);
    current = host.state ?? host.sidecar.emptyState();
    if (current.dimension !== vector.length) vector = undefined;
  }
  if (current.dimension === 0) vector = undefined;
  return { state: current, vector, warnings };
}
