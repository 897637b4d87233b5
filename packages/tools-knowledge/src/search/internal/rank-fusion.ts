/** The reciprocal-rank constant: 60, as in Cormack, Clarke & Büttcher (SIGIR 2009). */
export const RECIPROCAL_RANK_K = 60;

/**
 * Fuses rankings by reciprocal rank: each item scores `Σ 1 / (k + rank)` over the rankings it
 * appears in (rank 1-based). Scale-free, so BM25 scores and cosine similarities mix without
 * calibration.
 *
 * @param rankings - the rankings, best first each
 * @param k - the damping constant (default {@link RECIPROCAL_RANK_K})
 * @returns each item's fused score
 * @internal
 */
export function fuseReciprocalRanks<Key>(
  rankings: ReadonlyArray<readonly Key[]>,
  k: number = RECIPROCAL_RANK_K,
): Map<Key, number> {
  const fused = new Map<Key, number>();
  for (const ranking of rankings) {
    for (const [index, key] of ranking.entries()) {
      fused.set(key, (fused.get(key) ?? 0) + 1 / (k + index + 1));
    }
  }
  return fused;
}
