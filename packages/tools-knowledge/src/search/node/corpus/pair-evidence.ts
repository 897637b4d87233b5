import { tokenize } from "../../../engine/tokenize.js";
import type { FileEntry } from "./corpus-state.js";

/**
 * How many of the best files (by whole-file, opening and best-chunk evidence) are read again for
 * the query's word pairs. Fitted on the real relevance sets (issue 30): 15, 20, 30 and 60 gave
 * the same order within 0.001 MRR@10, so the cheapest that holds it.
 */
export const PAIR_CANDIDATES = 20;

/** Characters of a file's text (its opening) in which its word pairs are counted. */
export const PAIR_TEXT_CHARACTERS = 32_000;

/** BM25's saturation and length normalisation, applied to pair counts. */
const K1 = 1.2;
const B = 0.75;

/** The query's word pairs: each term with the next one, as the tokenizer gives them. */
export type QueryPairs = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * The query's adjacent term pairs (stop words already dropped by the tokenizer, so "open a
 * file" gives `open → file`), first term → the terms that follow it. Empty for a one-word query.
 *
 * @param query - the query text
 * @returns first term → following terms
 */
export function queryPairs(query: string): QueryPairs {
  const terms = tokenize(query, { mode: "query" });
  const pairs = new Map<string, Set<string>>();
  for (let index = 0; index + 1 < terms.length; index += 1) {
    const first = terms[index] as string;
    const second = terms[index + 1] as string;
    if (first === second) continue;
    let following = pairs.get(first);
    if (following === undefined) {
      following = new Set();
      pairs.set(first, following);
    }
    following.add(second);
  }
  return pairs;
}

/**
 * How strongly each file holds the query's words side by side, in the order the query has them:
 * per pair, its count in the file's opening ({@link PAIR_TEXT_CHARACTERS}), saturated and length
 * normalised as BM25 does (k1 1.2, b 0.75, lengths in terms against the candidates' average),
 * summed over the pairs. No rarity weight: a pair's rarity is not known without an index of
 * pairs, and on the real sets the candidates' own pair rarity and the exact corpus rarity both
 * ranked no better than none.
 *
 * @param pairs - the query's pairs ({@link queryPairs})
 * @param texts - each candidate file's lines (`undefined`: it could not be read; no evidence)
 * @returns each candidate file with at least one pair, and its evidence
 */
export function pairEvidence(
  pairs: QueryPairs,
  texts: ReadonlyMap<FileEntry, readonly string[] | undefined>,
): Map<FileEntry, number> {
  const evidence = new Map<FileEntry, number>();
  if (pairs.size === 0) return evidence;
  const found: Array<{ file: FileEntry; counts: Map<string, number>; length: number }> = [];
  let totalLength = 0;
  for (const [file, lines] of texts) {
    if (lines === undefined) continue;
    const terms = tokenize(openingOf(lines));
    totalLength += terms.length;
    const counts = new Map<string, number>();
    for (let index = 0; index + 1 < terms.length; index += 1) {
      const second = terms[index + 1] as string;
      if (pairs.get(terms[index] as string)?.has(second) !== true) continue;
      const key = `${terms[index]}\u0000${second}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    found.push({ file, counts, length: terms.length });
  }
  const average = totalLength / Math.max(1, found.length) || 1;
  for (const { file, counts, length } of found) {
    let score = 0;
    for (const frequency of counts.values()) {
      score += (frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * length) / average));
    }
    if (score > 0) evidence.set(file, score);
  }
  return evidence;
}

/** The file's first {@link PAIR_TEXT_CHARACTERS} characters, lines joined. */
function openingOf(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) {
    if (text.length >= PAIR_TEXT_CHARACTERS) break;
    text += `${line}\n`;
  }
  return text.length > PAIR_TEXT_CHARACTERS ? text.slice(0, PAIR_TEXT_CHARACTERS) : text;
}
