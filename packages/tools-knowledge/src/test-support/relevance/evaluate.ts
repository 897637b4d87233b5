/**
 * The relevance set (a corpus of 38 Markdown files written for it, and the labelled queries of
 * `queries.ts`) and the measures: MRR@10 on document retrieval (the right file) and on section
 * retrieval (a chunk of the right section), for BM25 and for the baselines it must beat.
 *
 * Ties are scored fairly: a right answer tied with others gets the expected reciprocal rank over
 * every order of the tie, so a ranker that gives many chunks the same score (word overlap) gains
 * nothing from the order they happen to be listed in.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createLexicalIndex } from "../../engine/lexical-index.js";
import { tokenize } from "../../engine/tokenize.js";
import { chunkMarkdown } from "../../search/chunk-markdown.js";
import type { RelevanceQuery } from "./queries.js";

/** The corpus folder. */
export const RELEVANCE_CORPUS_DIRECTORY = fileURLToPath(new URL("./corpus/", import.meta.url));

/** One file of the corpus. */
export interface RelevanceDocument {
  /** File name, relative to the corpus folder. */
  file: string;
  /** Its text. */
  text: string;
}

/** One scored unit of a ranking (a chunk, or a whole file). */
export interface RankedUnit {
  /** The file it belongs to. */
  file: string;
  /** Its heading trail (empty for a whole file). */
  heading_trail: readonly string[];
  /** Higher is better; units that do not match at all are left out. */
  score: number;
}

/** A ranker: every matching unit of the corpus for a query, in any order. */
export type Ranker = (query: string) => RankedUnit[];

/** The reciprocal ranks of one query. */
export interface QueryOutcome {
  /** The query. */
  query: string;
  /** Expected reciprocal rank of the right file (0 beyond rank 10). */
  document: number;
  /** Expected reciprocal rank of the first chunk of a right section (0 beyond rank 10). */
  section: number;
}

/** MRR@k of a ranker over the labelled queries. */
export interface RelevanceReport {
  /** Mean of {@link QueryOutcome.document}. */
  document_mrr: number;
  /** Mean of {@link QueryOutcome.section}. */
  section_mrr: number;
  /** Per query, in the order given. */
  outcomes: QueryOutcome[];
}

/**
 * Reads the corpus, files sorted by name.
 *
 * @returns every Markdown file of the corpus folder
 */
export function loadRelevanceCorpus(): RelevanceDocument[] {
  return readdirSync(RELEVANCE_CORPUS_DIRECTORY)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((file) => ({ file, text: readFileSync(`${RELEVANCE_CORPUS_DIRECTORY}${file}`, "utf8") }));
}

interface CorpusChunk {
  file: string;
  heading_trail: string[];
  text: string;
  front_matter: string;
}

function chunkCorpus(corpus: readonly RelevanceDocument[]): CorpusChunk[] {
  return corpus.flatMap((document) => {
    const { chunks, front_matter } = chunkMarkdown(document.text);
    return chunks.map((chunk) => ({
      file: document.file,
      heading_trail: chunk.heading_trail,
      text: chunk.text,
      front_matter,
    }));
  });
}

/**
 * BM25 over the corpus's chunks through {@link createLexicalIndex} — what `search_knowledge` ranks
 * with when there is no embedder.
 *
 * @param corpus - the files
 * @returns the ranker
 */
export function createBm25ChunkRanker(corpus: readonly RelevanceDocument[]): Ranker {
  const chunks = chunkCorpus(corpus);
  const index = createLexicalIndex();
  index.add(
    chunks.map((chunk, position) => ({
      id: String(position),
      heading: chunk.heading_trail.join(" > "),
      text: chunk.text,
      front_matter: chunk.front_matter,
    })),
  );
  return (query) =>
    index.search(query).map((match) => {
      const chunk = chunks[Number(match.id)] as CorpusChunk;
      return { file: chunk.file, heading_trail: chunk.heading_trail, score: match.score };
    });
}

/**
 * BM25 with one document per whole file (all its headings as the heading field) — the bar
 * DESIGN.md sets for the fused ranking of `search_knowledge` on document retrieval.
 *
 * @param corpus - the files
 * @returns the ranker (units have empty heading trails)
 */
export function createBm25WholeFileRanker(corpus: readonly RelevanceDocument[]): Ranker {
  const index = createLexicalIndex();
  index.add(
    corpus.map((document) => {
      const { chunks, front_matter } = chunkMarkdown(document.text);
      const headings = [...new Set(chunks.flatMap((chunk) => chunk.heading_trail))];
      return {
        id: document.file,
        heading: headings.join(" > "),
        text: chunks.map((chunk) => chunk.text).join("\n"),
        front_matter,
      };
    }),
  );
  return (query) =>
    index.search(query).map((match) => ({ file: match.id, heading_trail: [], score: match.score }));
}

/** Splits text into distinct lowercase words — the seed's "word overlap" view of text. */
export function rawWords(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Distinct terms of the family's tokenizer (stemmed, stop words dropped, CJK bigrams). */
export function tokenizerWords(text: string): Set<string> {
  return new Set(tokenize(text, { mode: "query" }));
}

/**
 * The word-overlap baseline: a chunk's score is how many distinct query words it shares (heading
 * trail, text and front matter together), every word counting the same.
 *
 * @param corpus - the files
 * @param words - how text becomes words: {@link rawWords} (the seed's) or {@link tokenizerWords}
 * @returns the ranker
 */
export function createWordOverlapRanker(
  corpus: readonly RelevanceDocument[],
  words: (text: string) => Set<string>,
): Ranker {
  const chunks = chunkCorpus(corpus).map((chunk) => ({
    chunk,
    words: words(`${chunk.heading_trail.join(" ")} ${chunk.text} ${chunk.front_matter}`),
  }));
  return (query) => {
    const queryWords = [...words(query)];
    const ranked: RankedUnit[] = [];
    for (const { chunk, words: chunkWords } of chunks) {
      let shared = 0;
      for (const word of queryWords) if (chunkWords.has(word)) shared += 1;
      if (shared > 0)
        ranked.push({ file: chunk.file, heading_trail: chunk.heading_trail, score: shared });
    }
    return ranked;
  };
}

/**
 * Expected reciprocal rank (0 beyond `cutoff`) of the first right item when `above` items score
 * higher and `tied` items (of which `right` are right) share its score, over every order of the tie.
 */
function expectedReciprocalRank(
  above: number,
  tied: number,
  right: number,
  cutoff: number,
): number {
  // P(first right item at position i of the tie) = C(tied - i, right - 1) / C(tied, right).
  let expected = 0;
  let probability = right / tied; // i = 1
  for (let position = 1; position <= tied - right + 1; position += 1) {
    const rank = above + position;
    if (rank > cutoff) break;
    expected += probability / rank;
    // P(i+1) / P(i) = (tied - i - right + 1) / (tied - i).
    probability *= (tied - position - right + 1) / (tied - position);
  }
  return expected;
}

function reciprocalRank(
  units: readonly RankedUnit[],
  isRight: (unit: RankedUnit) => boolean,
  cutoff: number,
): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const unit of units) if (isRight(unit) && unit.score > best) best = unit.score;
  if (best === Number.NEGATIVE_INFINITY) return 0;
  let above = 0;
  let tied = 0;
  let right = 0;
  for (const unit of units) {
    if (unit.score > best) above += 1;
    else if (unit.score === best) {
      tied += 1;
      if (isRight(unit)) right += 1;
    }
  }
  return expectedReciprocalRank(above, tied, right, cutoff);
}

/**
 * Runs every query through a ranker and measures MRR@`cutoff` on documents (files ranked by their
 * best unit) and on sections (units ranked as they are).
 *
 * @param ranker - the ranking under test
 * @param queries - the labelled queries
 * @param cutoff - the k of MRR@k (default 10)
 * @returns the means and the per-query reciprocal ranks
 */
export function evaluateRanker(
  ranker: Ranker,
  queries: readonly RelevanceQuery[],
  cutoff = 10,
): RelevanceReport {
  const outcomes = queries.map((labelled) => {
    const units = ranker(labelled.query);
    const bestByFile = new Map<string, number>();
    for (const unit of units) {
      const previous = bestByFile.get(unit.file);
      if (previous === undefined || unit.score > previous) bestByFile.set(unit.file, unit.score);
    }
    const files: RankedUnit[] = [...bestByFile].map(([file, score]) => ({
      file,
      heading_trail: [],
      score,
    }));
    return {
      query: labelled.query,
      document: reciprocalRank(files, (unit) => unit.file === labelled.file, cutoff),
      section: reciprocalRank(
        units,
        (unit) =>
          unit.file === labelled.file &&
          unit.heading_trail.some((heading) => labelled.headings.includes(heading)),
        cutoff,
      ),
    };
  });
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return {
    document_mrr: mean(outcomes.map((outcome) => outcome.document)),
    section_mrr: mean(outcomes.map((outcome) => outcome.section)),
    outcomes,
  };
}
