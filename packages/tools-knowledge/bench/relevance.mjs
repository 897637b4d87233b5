// search_knowledge's ranking on text nobody here wrote (issue 30): MRR@10 and recall@10 of the
// right file on two labelled sets built on this machine from Debian's files
// (scripts/relevance-sets.mjs): the Linux man-pages (NAME description as the query, the page
// without its NAME section as the answer) and the READMEs under /usr/share/doc (the package's
// one-line description as the query). Beside the tool (the corpus source, BM25 only and hybrid
// with a deterministic feature-hashing embedder): plain whole-file BM25 (k1 1.2, b 0.75) and word
// overlap (scripts/relevance-measure.mjs). The sets are cached in <repo>/.cache/relevance.
// The hand-written set's figures are printed by `src/search/relevance.test.ts`.
//
// Run: pnpm bench relevance    (builds first; ~1 min, the first run also renders the pages)
// Knobs: BENCH_RELEVANCE_EVERY=4 (every n-th man page; 1 = all ~1,850 pages)
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import {
  corpusSourceRanker,
  FeatureHashingEmbeddings,
  manPageNotes,
  measure,
  memorySearchRanker,
  plainBm25,
  readCorpus,
  searchMemoryRanker,
  wordOverlap,
} from "../scripts/relevance-measure.mjs";
import { buildDebianReadmeSet, buildManPageSet } from "../scripts/relevance-sets.mjs";

const cacheDirectory = join(resolve(import.meta.dirname, "..", "..", ".."), ".cache", "relevance");
const every = Number(process.env.BENCH_RELEVANCE_EVERY ?? 4);

const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
  encoding: "utf8",
}).stdout.trim();
// Quality, not time: no load discipline applies (the figures do not depend on the machine's load).
console.log(
  `search_knowledge on real text: document retrieval, one known item per query\n${new Date().toISOString().slice(0, 10)}, commit ${commit || "unknown"}, Node ${process.version}\n`,
);
const sets = [buildManPageSet({ cacheDirectory, every }), buildDebianReadmeSet({ cacheDirectory })];
const rows = [];
for (const set of sets) {
  const documents = readCorpus(set.folder);
  const results = [];
  const lexical = await corpusSourceRanker(set.folder);
  results.push(["search_knowledge, BM25 only", await measure(lexical.rank, set.queries)]);
  await lexical.close();
  const hybrid = await corpusSourceRanker(set.folder, {
    embeddings: new FeatureHashingEmbeddings(),
  });
  results.push([
    "search_knowledge, hybrid (hashing embedder)",
    await measure(hybrid.rank, set.queries),
  ]);
  await hybrid.close();
  const baseline = await measure(plainBm25(documents), set.queries);
  results.push(["whole-file BM25 (k1 1.2, b 0.75)", baseline]);
  results.push(["word overlap", await measure(wordOverlap(documents), set.queries)]);
  console.log(
    `${set.name}: ${documents.length} files, ${set.queries.length} queries (${set.folder})`,
  );
  console.log(`  ${"ranking".padEnd(50)} MRR@10  recall@10  vs BM25`);
  for (const [name, result] of results) {
    const margin = (result.mrr / baseline.mrr - 1) * 100;
    console.log(
      `  ${name.padEnd(50)} ${result.mrr.toFixed(3)}   ${result.recall.toFixed(3)}     ${margin >= 0 ? "+" : ""}${margin.toFixed(1)}%`,
    );
  }
  const tool = results[0][1];
  rows.push({ set: set.name, wins: tool.mrr >= baseline.mrr * 1.1 });
  console.log("");
}
// Memory search on short real notes: each man page's first DESCRIPTION paragraph as a memory,
// its NAME description as the query (pages without such a paragraph left out).
{
  const [manPages] = sets;
  const notes = manPageNotes(manPages.folder);
  const keys = new Set(notes.map((note) => note.file));
  const queries = manPages.queries.filter((labelled) => keys.has(labelled.file));
  const results = [
    [
      "memory_search (memory family, in-memory backend)",
      await measure(await memorySearchRanker(notes), queries),
    ],
    [
      "search_memory (remember/ingest store, BM25)",
      await measure(await searchMemoryRanker(notes), queries),
    ],
    ["BM25 over the notes (k1 1.2, b 0.75)", await measure(plainBm25(notes), queries)],
    ["word overlap", await measure(wordOverlap(notes), queries)],
  ];
  const baseline = results[2][1];
  console.log(
    `memory notes (man-pages' first DESCRIPTION paragraphs): ${notes.length} notes, ${queries.length} queries`,
  );
  console.log(`  ${"ranking".padEnd(50)} MRR@10  recall@10  vs BM25`);
  for (const [name, result] of results) {
    const margin = (result.mrr / baseline.mrr - 1) * 100;
    console.log(
      `  ${name.padEnd(50)} ${result.mrr.toFixed(3)}   ${result.recall.toFixed(3)}     ${margin >= 0 ? "+" : ""}${margin.toFixed(1)}%`,
    );
  }
  console.log("");
}
console.log(
  `target (issue 30): search_knowledge ≥ 1.10 × whole-file BM25 MRR@10 on every real set — ${rows
    .map((row) => `${row.set} ${row.wins ? "met" : "MISSED"}`)
    .join(", ")}`,
);
