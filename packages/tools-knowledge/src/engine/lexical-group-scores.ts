import type { LexicalEngine } from "./lexical-engine.js";

/** BM25's parameters for groups (textbook values). */
const K1 = 1.2;
const B = 0.75;

/**
 * BM25 (k1 1.2, b 0.75) of groups of documents — a file's chunks — for a query: a group's
 * frequency of a term is the sum over its documents and fields, its length the sum of their
 * lengths, and a term's rarity is counted in groups. This is whole-file evidence computed from the
 * chunk index itself (no second index to build, store or refresh); exact terms only (no prefix
 * matches, which the chunk search adds).
 *
 * @param engine - the chunk index's engine
 * @param query - the query text
 * @param groupOf - a document id's group (`undefined`: left out, e.g. filtered by path)
 * @returns each matching group's score
 * @internal
 */
export function groupScores<G>(
  engine: LexicalEngine,
  query: string,
  groupOf: (id: string) => G | undefined,
): Map<G, number> {
  const terms = [...new Set(engine.queryTerms(query))];
  const scores = new Map<G, number>();
  if (terms.length === 0) return scores;
  const lengths = new Map<G, number>();
  const groupOfId = new Map<string, G>();
  engine.forEachDocument((id, length) => {
    const group = groupOf(id);
    if (group === undefined) return;
    groupOfId.set(id, group);
    lengths.set(group, (lengths.get(group) ?? 0) + length);
  });
  const groups = lengths.size;
  if (groups === 0) return scores;
  let totalLength = 0;
  for (const length of lengths.values()) totalLength += length;
  const average = totalLength / groups || 1;
  for (const term of terms) {
    const frequencies = new Map<G, number>();
    engine.forEachPosting(term, (id, frequency) => {
      const group = groupOfId.get(id);
      if (group !== undefined) frequencies.set(group, (frequencies.get(group) ?? 0) + frequency);
    });
    const containing = frequencies.size;
    if (containing === 0) continue;
    const rarity = Math.log(1 + (groups - containing + 0.5) / (containing + 0.5));
    for (const [group, frequency] of frequencies) {
      const norm = K1 * (1 - B + (B * (lengths.get(group) as number)) / average);
      scores.set(
        group,
        (scores.get(group) ?? 0) + (rarity * frequency * (K1 + 1)) / (frequency + norm),
      );
    }
  }
  return scores;
}
