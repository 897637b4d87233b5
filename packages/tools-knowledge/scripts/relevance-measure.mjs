// Measures document retrieval on a labelled set (scripts/relevance-sets.mjs; issue 30): MRR@10
// and recall@10 of the right file, for
// - search_knowledge's corpus source (`createCorpusSource` from the built package, BM25 only or
//   hybrid with a deterministic embedder), a file counted at its first hit, as a user reads the
//   list;
// - plain whole-file BM25 (k1 1.2, b 0.75; words are lower-cased letter/digit runs, nothing
//   stemmed or dropped) — the simplest reasonable baseline;
// - word overlap (how many distinct query words a file shares).
// Ties are scored fairly: the expected reciprocal rank over every order of the tied files.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createInMemoryMemoryBackend,
  createInMemoryVectorStore,
  createMemorySearchTool,
  createSearchKnowledgeTool,
  createStoreSource,
  ingest,
} from "../dist/index.js";
import { createCorpusSource } from "../dist/node/index.js";

/** @typedef {{ query: string, file: string }} LabelledQuery */
/** @typedef {{ file: string, score: number }} ScoredFile */

/** Lower-cased runs of letters and digits. */
export const plainWords = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** @param {string} folder @returns {Array<{ file: string, text: string }>} the set's files */
export function readCorpus(folder) {
  return readdirSync(folder)
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(folder, file), "utf8") }));
}

/**
 * Plain BM25 with one document per file.
 *
 * @param {Array<{ file: string, text: string }>} documents - the files
 * @param {{ k1?: number, b?: number }} [parameters] - BM25's k1 and b (1.2, 0.75)
 * @returns {(query: string) => ScoredFile[]} every file sharing a word with the query, scored
 */
export function plainBm25(documents, { k1 = 1.2, b = 0.75 } = {}) {
  const words = documents.map((document) => plainWords(document.text));
  const frequencies = words.map((list) => {
    const counts = new Map();
    for (const word of list) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  const lengths = words.map((list) => list.length);
  const average = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length);
  const documentFrequency = new Map();
  for (const counts of frequencies)
    for (const word of counts.keys())
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const total = documents.length;
  return (query) => {
    const words = [...new Set(plainWords(query))];
    const scored = [];
    for (const [position, counts] of frequencies.entries()) {
      let score = 0;
      for (const word of words) {
        const frequency = counts.get(word);
        if (frequency === undefined) continue;
        const containing = documentFrequency.get(word) ?? 0;
        const idf = Math.log(1 + (total - containing + 0.5) / (containing + 0.5));
        const length = lengths[position] ?? 0;
        score += (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * length) / average));
      }
      if (score > 0) scored.push({ file: documents[position].file, score });
    }
    return scored;
  };
}

/**
 * Word overlap: a file's score is how many distinct query words it contains.
 *
 * @param {Array<{ file: string, text: string }>} documents - the files
 * @returns {(query: string) => ScoredFile[]} the ranker
 */
export function wordOverlap(documents) {
  const sets = documents.map((document) => new Set(plainWords(document.text)));
  return (query) => {
    const words = [...new Set(plainWords(query))];
    const scored = [];
    for (const [position, set] of sets.entries()) {
      let shared = 0;
      for (const word of words) if (set.has(word)) shared += 1;
      if (shared > 0) scored.push({ file: documents[position].file, score: shared });
    }
    return scored;
  };
}

/** Expected reciprocal rank of the right file among `scored` (0 past `cutoff`), ties fair. */
function expectedReciprocalRank(scored, file, cutoff) {
  const right = scored.find((entry) => entry.file === file);
  if (right === undefined) return { reciprocal: 0, found: 0 };
  let above = 0;
  let tied = 0;
  for (const entry of scored) {
    if (entry.score > right.score) above += 1;
    else if (entry.score === right.score) tied += 1;
  }
  let reciprocal = 0;
  let found = 0;
  for (let position = 1; position <= tied; position += 1) {
    const rank = above + position;
    if (rank > cutoff) break;
    reciprocal += 1 / rank / tied;
    found += 1 / tied;
  }
  return { reciprocal, found };
}

/**
 * MRR@`cutoff` and recall@`cutoff` of a ranker over the labelled queries.
 *
 * @param {(query: string) => ScoredFile[] | Promise<ScoredFile[]>} ranker - files for a query
 * @param {LabelledQuery[]} queries - the labelled set
 * @param {number} [cutoff] - the k (10)
 * @returns {Promise<{ mrr: number, recall: number, outcomes: number[] }>} the means, per query RR
 */
export async function measure(ranker, queries, cutoff = 10) {
  const outcomes = [];
  let recall = 0;
  for (const labelled of queries) {
    const { reciprocal, found } = expectedReciprocalRank(
      await ranker(labelled.query),
      labelled.file,
      cutoff,
    );
    outcomes.push(reciprocal);
    recall += found;
  }
  const count = Math.max(1, queries.length);
  return {
    mrr: outcomes.reduce((sum, value) => sum + value, 0) / count,
    recall: recall / count,
    outcomes,
  };
}

/**
 * A deterministic embedder (feature hashing of lower-cased words, one ±1 feature each,
 * L2-normalised) — the stand-in for a model that the hybrid rows use.
 */
export class FeatureHashingEmbeddings {
  model = "relevance-feature-hashing";
  dimensions = 256;

  vectorOf(text) {
    const vector = new Array(this.dimensions).fill(0);
    for (const word of plainWords(text)) {
      let hash = 0x811c9dc5;
      for (let index = 0; index < word.length; index += 1) {
        hash ^= word.charCodeAt(index);
        hash = Math.imul(hash, 0x01000193);
      }
      hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b) >>> 0;
      vector[hash % this.dimensions] += hash & 0x80000000 ? 1 : -1;
    }
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }

  async embedDocuments(texts) {
    return texts.map((text) => this.vectorOf(text));
  }

  async embedQuery(text) {
    return this.vectorOf(text);
  }
}

/**
 * search_knowledge's corpus source over the set's folder (its index in a temporary folder), as a
 * ranker of files: each file at its first hit (score = minus its rank, so ties cannot occur).
 *
 * @param {string} folder - the corpus
 * @param {{ embeddings?: object }} [options] - an embedder for the hybrid ranking
 * @returns {Promise<{ rank: (query: string) => Promise<ScoredFile[]>, close: () => Promise<void> }>}
 */
export async function corpusSourceRanker(folder, { embeddings } = {}) {
  const indexDirectory = mkdtempSync(join(tmpdir(), "agentool-relevance-index-"));
  const source = createCorpusSource({ root: folder, indexDirectory, embeddings, watch: false });
  const context = { signal: new AbortController().signal };
  await source.refresh(context);
  return {
    async rank(query) {
      // The first ten distinct files of the hit list, paging on as a user would.
      const files = [];
      for (let offset = 1; files.length < 10 && offset <= 500; offset += 50) {
        const result = await source.search({ query, offset, limit: 50 }, context);
        for (const hit of result.hits) {
          if (!files.includes(hit.file)) files.push(hit.file);
          if (files.length >= 10) break;
        }
        if (offset + 50 > result.total) break;
      }
      return files.map((file, index) => ({ file, score: -index }));
    },
    async close() {
      await source.close();
      rmSync(indexDirectory, { recursive: true, force: true });
    },
  };
}

// ── memory search on short real notes (issue 30 point 4) ─────────────────────────────────────
/**
 * Short notes from a man-pages set: each page's first DESCRIPTION paragraph (at most `max`
 * characters, cut at a word), keyed by the page's file — what an agent might have saved as a
 * memory. The set's queries (the NAME descriptions) find them.
 *
 * @param {string} folder - the man-pages set's corpus folder
 * @param {number} [max] - longest note (600)
 * @returns {Array<{ file: string, text: string }>} one note per page that has a DESCRIPTION
 */
export function manPageNotes(folder, max = 600) {
  const notes = [];
  for (const { file, text } of readCorpus(folder)) {
    const section = /\n## DESCRIPTION\n+([\s\S]*?)(?:\n\s*\n|\n## |$)/.exec(text);
    const paragraph = section?.[1]?.replace(/\s+/g, " ").trim();
    if (paragraph === undefined || paragraph.length < 40) continue;
    const cut =
      paragraph.length <= max ? paragraph : paragraph.slice(0, paragraph.lastIndexOf(" ", max));
    notes.push({ file, text: cut });
  }
  return notes;
}

/**
 * `memory_search` (the memory family, in-memory backend) over the notes, as a ranker of keys.
 *
 * @param {Array<{ file: string, text: string }>} notes - key and content of each memory
 * @returns {Promise<(query: string) => Promise<ScoredFile[]>>} the ranker
 */
export async function memorySearchRanker(notes) {
  const backend = createInMemoryMemoryBackend();
  const now = new Date("2026-01-01T00:00:00Z");
  for (const note of notes) {
    await backend.write(["relevance"], { key: note.file, content: note.text, tags: [], now });
  }
  const tool = createMemorySearchTool({ backend, namespace: ["relevance"] });
  return async (query) => {
    const result = await tool.run({ query, limit: 10 });
    if (!result.success) throw new Error(`memory_search failed: ${result.error.message}`);
    return result.data.results.map((hit, index) => ({ file: hit.key, score: -index }));
  };
}

/**
 * `search_memory` (search_knowledge over an in-memory vector store filled by `ingest`, BM25
 * without an embedder) over the notes, as a ranker of keys.
 *
 * @param {Array<{ file: string, text: string }>} notes - document key and text of each excerpt
 * @returns {Promise<(query: string) => Promise<ScoredFile[]>>} the ranker
 */
export async function searchMemoryRanker(notes) {
  const store = createInMemoryVectorStore();
  await ingest(
    notes.map((note) => ({ id: note.file, text: note.text })),
    { store },
  );
  const tool = createSearchKnowledgeTool({
    source: createStoreSource({ store }),
    sourceKind: "store",
    name: "search_memory",
  });
  return async (query) => {
    const result = await tool.run({ query, limit: 10 });
    if (!result.success) throw new Error(`search_memory failed: ${result.error.message}`);
    const files = [];
    for (const hit of result.data.hits) if (!files.includes(hit.file)) files.push(hit.file);
    return files.map((file, index) => ({ file, score: -index }));
  };
}
