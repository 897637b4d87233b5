import { similarity } from "ml-distance";
import { fuseReciprocalRanks, RECIPROCAL_RANK_K } from "../../internal/rank-fusion.js";
import { compareText } from "./compare-text.js";
import type { ChunkReference, CorpusState, FileEntry } from "./corpus-state.js";
import { type DenseCandidate, scanNearest, scanNearestByFile } from "./dense-scan.js";
import { fileEvidence, OPENING_LINES } from "./file-evidence.js";
import { PAIR_CANDIDATES, pairEvidence, queryPairs } from "./pair-evidence.js";

/** A ranked chunk: its id and its fused score. */
export interface RankedChunk {
  key: number;
  score: number;
}

/** What {@link rankCorpus} ranks by. */
export interface CorpusRanking {
  query: string;
  /** The query's vector (`undefined`: BM25 only). */
  vector: Float32Array | undefined;
  /** Only files whose path starts with this. */
  prefix: string | undefined;
  /** Nearest chunks that join the fusion. */
  denseCandidates: number;
  /**
   * Reads the lines of the best files for the query's word pairs ({@link pairEvidence});
   * `undefined`: no pair evidence. The search passes its excerpt reader, so the files it reads
   * for the page are read once.
   */
  readTexts?: (
    files: readonly FileEntry[],
  ) => Promise<ReadonlyMap<FileEntry, readonly string[] | undefined>>;
}

/**
 * Ranks the corpus's chunks: BM25 over chunks, fused by reciprocal rank (k = 60) with the rank of
 * the chunk's file and — with a query vector — with the cosine rank of the nearest chunks; then
 * documents first ({@link documentsFirst}): each file's best passage, files in the order of their
 * evidence, then the other passages. A file's rank comes from the whole file, its opening and its
 * best chunk, and for the best {@link PAIR_CANDIDATES} files the query's words side by side in
 * their text ({@link rankFiles}: what beat whole-file BM25 on real text, issue 30). Ties go by
 * path, then chunk index.
 *
 * @param state - the index
 * @param ranking - query, vector, path prefix, dense candidates, the pair texts' reader
 * @returns every matching chunk, best first
 */
export async function rankCorpus(
  state: CorpusState,
  ranking: CorpusRanking,
): Promise<RankedChunk[]> {
  const { prefix } = ranking;
  const allowed = (entry: FileEntry) => prefix === undefined || entry.path.startsWith(prefix);
  const compareKeys = (left: number, right: number) => {
    const a = state.chunks.get(left) as ChunkReference;
    const b = state.chunks.get(right) as ChunkReference;
    return compareText(a.file.path, b.file.path) || a.index - b.index;
  };
  const lexicalHits = state.lexical.search(
    ranking.query,
    prefix === undefined
      ? {}
      : {
          filter: (id) => {
            const reference = state.chunks.get(Number(id));
            return reference !== undefined && allowed(reference.file);
          },
        },
  );
  const lexical: Array<{ key: number; reference: ChunkReference; score: number }> = [];
  for (const hit of lexicalHits) {
    const key = Number(hit.id);
    const reference = state.chunks.get(key);
    if (reference !== undefined) lexical.push({ key, reference, score: hit.score });
  }
  lexical.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
  const fileRanks = await rankFiles(state, ranking, lexical, allowed);
  const dense =
    ranking.vector === undefined
      ? []
      : nearestChunks(state, ranking, prefix === undefined ? undefined : allowed);
  dense.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
  if (dense.length > ranking.denseCandidates) dense.length = ranking.denseCandidates;

  const fused = fuseReciprocalRanks(
    [lexical.map((hit) => hit.key), dense.map((hit) => hit.key)],
    RECIPROCAL_RANK_K,
  );
  const ranked: RankedChunk[] = [];
  for (const [key, score] of fused) {
    const reference = state.chunks.get(key) as ChunkReference;
    const fileRank = fileRanks.get(reference.file);
    ranked.push({
      key,
      score: score + (fileRank === undefined ? 0 : 1 / (RECIPROCAL_RANK_K + fileRank)),
    });
  }
  ranked.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
  return documentsFirst(state, ranked, fileRanks, dense);
}

/**
 * Orders the ranked chunks as a reader judges a result list, by document: first the best passage
 * of every file, files in the order of their evidence (the file's own rank, fused with its
 * nearest chunk's cosine rank when there is a query vector), then every other passage, best
 * first. A file's other passages follow all first passages, so the first page names as many
 * different files as it has hits.
 */
function documentsFirst(
  state: CorpusState,
  ranked: readonly RankedChunk[],
  fileRanks: ReadonlyMap<FileEntry, number>,
  dense: readonly RankedChunk[],
): RankedChunk[] {
  const denseRanks = new Map<FileEntry, number>();
  for (const { key } of dense) {
    const file = (state.chunks.get(key) as ChunkReference).file;
    if (!denseRanks.has(file)) denseRanks.set(file, denseRanks.size + 1);
  }
  const evidence = (file: FileEntry): number => {
    const lexical = fileRanks.get(file);
    const nearest = denseRanks.get(file);
    return (
      (lexical === undefined ? 0 : 1 / (RECIPROCAL_RANK_K + lexical)) +
      (nearest === undefined ? 0 : DENSE_FILE_WEIGHT / (RECIPROCAL_RANK_K + nearest))
    );
  };
  const firsts: Array<{ chunk: RankedChunk; evidence: number; order: number }> = [];
  const others: RankedChunk[] = [];
  const seen = new Set<FileEntry>();
  for (const chunk of ranked) {
    const file = (state.chunks.get(chunk.key) as ChunkReference).file;
    if (seen.has(file)) others.push(chunk);
    else {
      seen.add(file);
      firsts.push({ chunk, evidence: evidence(file), order: firsts.length });
    }
  }
  firsts.sort((left, right) => right.evidence - left.evidence || left.order - right.order);
  return [...firsts.map((first) => first.chunk), ...others];
}

/**
 * A file's evidence, fitted on the real relevance sets (issue 30; `pnpm bench relevance`): whole-
 * file BM25, plus half of its opening's (the chunks starting within its first
 * {@link OPENING_LINES} lines, as one text), plus its best chunk's score (BM25+ with field boosts
 * and MiniSearch's quality factor, a scale about three times larger) at {@link BEST_WEIGHT}, plus
 * for the best {@link PAIR_CANDIDATES} files their word-pair evidence at weight 1.
 */
const OPENING_WEIGHT = 0.5;
/**
 * Weight of a file's nearest chunk's cosine rank beside its lexical rank in the document order.
 * Fitted with the only deterministic embedder here (feature hashing of words, close to word
 * overlap): at 1 it pulled the hybrid order below BM25 alone; a real model may deserve more.
 */
const DENSE_FILE_WEIGHT = 0.2;
/** Weight of the file's best chunk's score in the file's evidence. */
const BEST_WEIGHT = 0.09;

/**
 * The rank of each matching file (1 = best): whole-file BM25 (the chunk index's postings summed
 * per file), plus its opening chunks' and its best chunk's BM25; then the best
 * {@link PAIR_CANDIDATES} files gain their word-pair evidence ({@link pairEvidence}), read from
 * their text (positions are not in the index: reading 20 files costs less than an index of pairs).
 */
async function rankFiles(
  state: CorpusState,
  ranking: CorpusRanking,
  lexical: ReadonlyArray<{ reference: ChunkReference; score: number }>,
  allowed: (entry: FileEntry) => boolean,
): Promise<Map<FileEntry, number>> {
  const { query } = ranking;
  const evidence = fileEvidence(state.lexical, state.chunks, state.files.values(), query, allowed);
  const best = new Map<FileEntry, number>();
  for (const { reference, score } of lexical) {
    if (!best.has(reference.file)) best.set(reference.file, score);
  }
  const total = new Map<FileEntry, number>();
  for (const [file, chunk] of best) {
    total.set(
      file,
      (evidence.get(file)?.whole ?? 0) +
        OPENING_WEIGHT * (evidence.get(file)?.opening ?? 0) +
        BEST_WEIGHT * chunk,
    );
  }
  const byEvidence = (left: [FileEntry, number], right: [FileEntry, number]) =>
    right[1] - left[1] || compareText(left[0].path, right[0].path);
  let order = [...total].sort(byEvidence);
  const pairs = queryPairs(query);
  if (ranking.readTexts !== undefined && pairs.size > 0 && order.length > 1) {
    const candidates = order.slice(0, PAIR_CANDIDATES).map(([file]) => file);
    const pairScores = pairEvidence(pairs, await ranking.readTexts(candidates));
    for (const [file, score] of pairScores) total.set(file, (total.get(file) ?? 0) + score);
    order = [...total].sort(byEvidence);
  }
  return new Map(order.map(([file], index) => [file, index + 1]));
}

/**
 * The chunks nearest the query vector, scored by exact cosine (unsorted). A float32 dot product
 * over the unit-length matrix picks the candidates (a little more than asked, so float32 rounding
 * cannot drop one); ml-distance's cosine then scores them exactly.
 */
function nearestChunks(
  state: CorpusState,
  ranking: CorpusRanking,
  filter: ((entry: FileEntry) => boolean) | undefined,
): RankedChunk[] {
  const vector = ranking.vector as Float32Array;
  const dimension = state.dimension;
  let queryNorm = 0;
  for (let at = 0; at < dimension; at += 1) {
    const value = vector[at] as number;
    queryNorm += value * value;
  }
  queryNorm = Math.sqrt(queryNorm);
  const wanted = ranking.denseCandidates + Math.min(32, ranking.denseCandidates);
  const candidates: DenseCandidate[] = [];
  if (queryNorm > 0) {
    if (state.hasFreshMatrix()) {
      scanNearest(state.scanMatrix(), vector, queryNorm, wanted, filter, candidates);
    } else {
      // Just changed: scan file by file now, rebuild the matrix after answering.
      scanNearestByFile(
        [...state.files.values()],
        (vectors) => state.normsOf(vectors),
        dimension,
        vector,
        queryNorm,
        wanted,
        filter,
        candidates,
      );
    }
  }
  const dense: RankedChunk[] = [];
  for (const { entry, index } of candidates) {
    const vectors = entry.vectors as Float32Array;
    const score = similarity.cosine(
      vector,
      vectors.subarray(index * dimension, (index + 1) * dimension),
    );
    if (score > 0) dense.push({ key: entry.id_base + index, score });
  }
  return dense;
}
