/** The reciprocal-rank constant: 60, as in Cormack, Clarke & Büttcher (SIGIR 2009). */
export const RECIPROCAL_RANK_K = 60;

/**
 * How much each of a document's best passages adds to the document's score: the best counts
 * whole, the second half, the third a quarter. A file with several good passages beats a file
 * with one lucky one, and a long file cannot win on many weak ones.
 */
export const DOCUMENT_EVIDENCE_WEIGHTS: readonly number[] = [1, 0.5, 0.25];

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

/**
 * Ranks documents by the evidence of their passages: the weighted sum of their best passage
 * scores ({@link DOCUMENT_EVIDENCE_WEIGHTS}).
 *
 * @param passages - scored passages, best first
 * @param documentOf - the document a passage belongs to
 * @param compareDocuments - breaks ties between equally scored documents (stable order)
 * @returns each document's rank, 1-based
 * @internal
 */
export function rankDocuments<Passage, Document>(
  passages: readonly Passage[],
  score: (passage: Passage) => number,
  documentOf: (passage: Passage) => Document,
  compareDocuments: (left: Document, right: Document) => number,
): Map<Document, number> {
  const evidence = new Map<Document, { total: number; seen: number }>();
  for (const passage of passages) {
    const document = documentOf(passage);
    let entry = evidence.get(document);
    if (entry === undefined) {
      entry = { total: 0, seen: 0 };
      evidence.set(document, entry);
    }
    const weight = DOCUMENT_EVIDENCE_WEIGHTS[entry.seen];
    if (weight === undefined) continue;
    entry.total += weight * score(passage);
    entry.seen += 1;
  }
  const ordered = [...evidence.entries()].sort(
    ([leftDocument, left], [rightDocument, right]) =>
      right.total - left.total || compareDocuments(leftDocument, rightDocument),
  );
  const ranks = new Map<Document, number>();
  for (const [index, [document]] of ordered.entries()) ranks.set(document, index + 1);
  return ranks;
}
