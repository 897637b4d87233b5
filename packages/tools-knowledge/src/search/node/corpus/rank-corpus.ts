import { similarity } from "ml-distance";
import {
  fuseReciprocalRanks,
  RECIPROCAL_RANK_K,
  rankDocuments,
} from "../../internal/rank-fusion.js";
import { compareText } from "./compare-text.js";
import type { ChunkReference, CorpusState, FileEntry } from "./corpus-state.js";
import { type DenseCandidate, scanNearest, scanNearestByFile } from "./dense-scan.js";

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
}

/**
 * Ranks the corpus's chunks: BM25 over chunks, fused by reciprocal rank (k = 60) with the rank of
 * the chunk's file (its three best chunks) and — with a query vector — with the cosine rank of the
 * nearest chunks. Ties go by path, then chunk index.
 *
 * @param state - the index
 * @param ranking - query, vector, path prefix, dense candidates
 * @returns every matching chunk, best first
 */
export function rankCorpus(state: CorpusState, ranking: CorpusRanking): RankedChunk[] {
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
  const fileRanks = rankDocuments(
    lexical,
    (hit) => hit.score,
    (hit) => hit.reference.file,
    (left, right) => compareText(left.path, right.path),
  );
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
  return ranked;
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
