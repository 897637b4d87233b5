import { describe, expect, test } from "vitest";
import {
  createBm25ChunkRanker,
  createBm25WholeFileRanker,
  createWordOverlapRanker,
  evaluateRanker,
  loadRelevanceCorpus,
  type RelevanceReport,
  rawWords,
  tokenizerWords,
} from "../test-support/relevance/evaluate.js";
import { RELEVANCE_QUERIES } from "../test-support/relevance/queries.js";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

describe("relevance: BM25 against word overlap on a labelled set", () => {
  const corpus = loadRelevanceCorpus();
  const reports: Record<string, RelevanceReport> = {
    "BM25 over chunks (createLexicalIndex)": evaluateRanker(
      createBm25ChunkRanker(corpus),
      RELEVANCE_QUERIES,
    ),
    "word overlap, seed-style words (baseline)": evaluateRanker(
      createWordOverlapRanker(corpus, rawWords),
      RELEVANCE_QUERIES,
    ),
    "word overlap, this family's tokenizer": evaluateRanker(
      createWordOverlapRanker(corpus, tokenizerWords),
      RELEVANCE_QUERIES,
    ),
    "BM25 over whole files (reference)": evaluateRanker(
      createBm25WholeFileRanker(corpus),
      RELEVANCE_QUERIES,
    ),
  };
  const [bm25, baseline, overlapTokenizer] = Object.values(reports) as [
    RelevanceReport,
    RelevanceReport,
    RelevanceReport,
  ];

  test("the set is big enough: ≥ 30 files, ≥ 30 queries, each labelled file exists, CJK included", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(RELEVANCE_QUERIES.length).toBeGreaterThanOrEqual(30);
    const files = new Set(corpus.map((document) => document.file));
    for (const labelled of RELEVANCE_QUERIES) {
      expect(files.has(labelled.file), labelled.file).toBe(true);
      const text = corpus.find((document) => document.file === labelled.file)?.text ?? "";
      for (const heading of labelled.headings) expect(text, heading).toContain(heading);
    }
    expect(
      RELEVANCE_QUERIES.filter((labelled) => CJK.test(labelled.query)).length,
    ).toBeGreaterThanOrEqual(5);
    expect(corpus.filter((document) => CJK.test(document.text)).length).toBeGreaterThanOrEqual(5);
  });

  test("MRR@10 is printed for every ranker", () => {
    const rows = Object.entries(reports).map(
      ([name, report]) =>
        `${name.padEnd(44)} documents ${report.document_mrr.toFixed(3)}   sections ${
          name.includes("whole files") ? "  —  " : report.section_mrr.toFixed(3)
        }`,
    );
    const english = (report: RelevanceReport) => {
      const values = report.outcomes.filter(
        (_, index) => !CJK.test(RELEVANCE_QUERIES[index]?.query ?? ""),
      );
      return (values.reduce((sum, outcome) => sum + outcome.document, 0) / values.length).toFixed(
        3,
      );
    };
    console.log(
      `MRR@10 on ${RELEVANCE_QUERIES.length} queries over ${corpus.length} files:\n${rows.join("\n")}\n` +
        `English queries only, documents: BM25 ${english(bm25)}, baseline ${english(baseline)}, ` +
        `overlap with this tokenizer ${english(overlapTokenizer)}`,
    );
    for (const report of Object.values(reports)) {
      expect(report.document_mrr).toBeGreaterThan(0);
      expect(report.document_mrr).toBeLessThanOrEqual(1);
    }
  });

  test("BM25 beats the word-overlap baseline by at least 0.1 MRR@10 on documents and on sections", () => {
    expect(bm25.document_mrr - baseline.document_mrr).toBeGreaterThanOrEqual(0.1);
    expect(bm25.section_mrr - baseline.section_mrr).toBeGreaterThanOrEqual(0.1);
  });

  test("per query, BM25 ranks the right file better at least three times as often as worse", () => {
    let better = 0;
    let worse = 0;
    bm25.outcomes.forEach((outcome, index) => {
      const other = baseline.outcomes[index]?.document ?? 0;
      if (outcome.document > other + 1e-9) better += 1;
      else if (outcome.document < other - 1e-9) worse += 1;
    });
    console.log(
      `BM25 vs baseline per query (documents): better ${better}, worse ${worse}, tied ${bm25.outcomes.length - better - worse}`,
    );
    expect(better).toBeGreaterThanOrEqual(3 * worse);
  });

  test("BM25's weighting beats plain overlap of the very same terms (IDF, saturation, length, fields)", () => {
    expect(bm25.document_mrr).toBeGreaterThan(overlapTokenizer.document_mrr);
    expect(bm25.section_mrr).toBeGreaterThan(overlapTokenizer.section_mrr);
  });

  test("every Chinese, Japanese and Korean query finds its file in the top three", () => {
    bm25.outcomes.forEach((outcome, index) => {
      if (!CJK.test(RELEVANCE_QUERIES[index]?.query ?? "")) return;
      expect(outcome.document, outcome.query).toBeGreaterThanOrEqual(1 / 3);
    });
  });
});
