import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  corpusSourceRanker,
  measure,
  plainBm25,
  readCorpus,
  wordOverlap,
} from "../../scripts/relevance-measure.mjs";
import { buildManPageSet, readHandWrittenSet } from "../../scripts/relevance-sets.mjs";

/** Where the real sets are cached (as `pnpm bench relevance` does). */
const CACHE = join(fileURLToPath(new URL("../../../..", import.meta.url)), ".cache", "relevance");

describe("search_knowledge on real text (issue 30)", () => {
  it("beats plain whole-file BM25 by at least 10% MRR@10 on the Linux man-pages set", async () => {
    // 463 pages of Debian's manpages / manpages-dev (every 4th of sections 2–7), NAME line as the
    // query, the page without it as the answer. Built once per machine (groff), then cached.
    const set = buildManPageSet({ cacheDirectory: CACHE, every: 4 });
    expect(set.queries.length).toBeGreaterThan(300);
    const documents = readCorpus(set.folder);
    const tool = await corpusSourceRanker(set.folder);
    let ours: Awaited<ReturnType<typeof measure>>;
    try {
      ours = await measure(tool.rank, set.queries);
    } finally {
      await tool.close();
    }
    const baseline = await measure(plainBm25(documents), set.queries);
    const overlap = await measure(wordOverlap(documents), set.queries);
    console.log(
      `man-pages (${documents.length} files): search_knowledge MRR@10 ${ours.mrr.toFixed(3)} (recall@10 ${ours.recall.toFixed(3)}), whole-file BM25 ${baseline.mrr.toFixed(3)} (${baseline.recall.toFixed(3)}), word overlap ${overlap.mrr.toFixed(3)}`,
    );
    expect(ours.mrr).toBeGreaterThanOrEqual(baseline.mrr * 1.1);
    expect(baseline.mrr).toBeGreaterThan(overlap.mrr);
  }, 240_000);

  it("keeps the hand-written set: document MRR@10 through the corpus source at least as before (0.955)", async () => {
    const set = readHandWrittenSet();
    const tool = await corpusSourceRanker(set.folder);
    try {
      const ours = await measure(tool.rank, set.queries);
      console.log(
        `hand-written (${set.queries.length} queries): search_knowledge MRR@10 ${ours.mrr.toFixed(3)}`,
      );
      expect(ours.mrr).toBeGreaterThanOrEqual(0.955);
    } finally {
      await tool.close();
    }
  }, 120_000);
});
