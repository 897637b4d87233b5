// search_knowledge's corpus index versus the baseline seed 001 describes, side by side (issue 12,
// Benchmarks).
//
// What: on a generated corpus of Markdown files (deterministic seed; Zipf-distributed vocabulary,
// headings, paragraphs, lists, code fences, tables, some front matter; ~5 kB a file, so 10,000
// files ≈ 50 MB) it measures, for each side: the cold index build, warm search latency (p50 / p95
// over a fixed set of queries), a refresh with nothing changed, a refresh after one file changed,
// a search right after one file changed, the sidecar's size, the first search of a new process with
// the sidecar on disk, peak RSS and the
// heap kept after the build.
//
// Sides (each in its own child process, so memory peaks never mix):
// - ours: `createCorpusSource({ root, embeddings })` from `@agentool/tools-knowledge/node` behind
//   `createSearchKnowledgeTool` (hybrid: BM25 + cosine), built dist;
// - ours BM25 only: the same without an embedder (an extra row under each metric);
// - baseline: what seed 001 describes, implemented below — a JSON sidecar `.knowledge/index.json`
//   holding number-array vectors, every file re-read and re-hashed (sha-256) on every search, only
//   changed files re-chunked and re-embedded, cosine (ml-distance) over every chunk for ranking.
// Both embed with the same 256-dimension feature-hashing embedder (lower-cased words, L2
// normalised, below) and chunk with the package's own `chunkMarkdown`, so embedding and chunking
// cost the same on both sides. Searches go through the tool (`run`) on our side: what an agent
// sees, the lazy refresh included; the baseline's search refreshes first too.
//
// Run: pnpm bench knowledge          (builds the package first; 2,000 then 10,000 files, ~6 min)
// Quick run: BENCH_KNOWLEDGE_FILES=2000 pnpm bench knowledge
// Knobs: BENCH_KNOWLEDGE_FILES=2000,10000 (corpus sizes), BENCH_KNOWLEDGE_SIDES=ours,bm25,baseline,
//   BENCH_KNOWLEDGE_ROUNDS=3 (timed passes over the queries), BENCH_KNOWLEDGE_RUNS=5 (refresh runs),
//   BENCH_KNOWLEDGE_COLD_RUNS=2 (extra cold builds per side, each in a new process, the sides
//   taking turns; the cold build shown is the median of these and the measuring process's),
//   BENCH_KNOWLEDGE_DIR=<folder> (keep the generated corpora there and reuse them),
//   BENCH_KNOWLEDGE_CPU_PROF=<folder> (children run with --cpu-prof into that folder),
//   BENCH_KNOWLEDGE_FEATURES_PER_WORD=8 (the embedder's density; 1 = one feature per word).
//
// Benchmark discipline (issue 29, bench/lib/discipline.mjs): the header gives date and commit; a
// child's figures are refused (REFUSED in the table, the load seen in a note) when another process
// used over 20% of a core while it ran (BENCH_ALLOW_LOAD=1 keeps them, marked LOADED). The sides'
// timed ratios come from one more child holding both sides (sidecars as the measure children left
// them): warm search and refresh with nothing changed, calls interleaved, rounds of
// BENCH_KNOWLEDGE_RATIO_CALLS pairs (default 9) until the ratio's spread is under 10%. The table's
// base/ours column (figures from separate processes) is for reading; the refresh target's "≥ 20×"
// is decided on the in-run ratio.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { similarity } from "ml-distance";
import {
  ALLOW_LOAD,
  benchHeader,
  describeLoad,
  formatRatio,
  LOAD_THRESHOLD as LOAD_LIMIT,
  measureRatio,
  startLoadWatch,
} from "../../../bench/lib/discipline.mjs";
import { chunkMarkdown, createSearchKnowledgeTool } from "../dist/index.js";
import { createCorpusSource } from "../dist/node/index.js";

const SIZES = (process.env.BENCH_KNOWLEDGE_FILES ?? "2000,10000")
  .split(",")
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isInteger(value) && value > 0);
const SIDES = (process.env.BENCH_KNOWLEDGE_SIDES ?? "ours,bm25,baseline")
  .split(",")
  .map((value) => value.trim());
for (const side of SIDES) {
  if (!["ours", "bm25", "baseline"].includes(side))
    throw new Error(`BENCH_KNOWLEDGE_SIDES: unknown side "${side}" (ours, bm25, baseline)`);
}
const ROUNDS = Number(process.env.BENCH_KNOWLEDGE_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_KNOWLEDGE_RUNS ?? 5);
const COLD_RUNS = Number(process.env.BENCH_KNOWLEDGE_COLD_RUNS ?? 2);
const RATIO_CALLS = Number(process.env.BENCH_KNOWLEDGE_RATIO_CALLS ?? 9);
const DIMENSIONS = 256;
const FEATURES_PER_WORD = Number(process.env.BENCH_KNOWLEDGE_FEATURES_PER_WORD ?? 8);
const LIMIT = 10;
const SEED = 0x5eed_0012;
const BASELINE_FOLDER = ".knowledge";
const BASELINE_FILE = "index.json";
const BM25_FOLDER = ".knowledge-bm25";

// ── the embedder both sides use ────────────────────────────────────────────────────────────────
/** 32-bit FNV-1a, then murmur3's finaliser (well-mixed low bits). */
function hashWord(word) {
  let value = 0x811c9dc5;
  for (let index = 0; index < word.length; index += 1) {
    value ^= word.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  value = Math.imul(value, 0xc2b2ae35);
  value ^= value >>> 16;
  return value >>> 0;
}

/**
 * Deterministic 256-dimension embedder: feature hashing of lower-cased words, each word adding ±1
 * on FEATURES_PER_WORD features (default 8), L2-normalised — a stand-in for a model with no network
 * and no key, the same on both sides. Several features per word make the vectors dense, as a real
 * model's are (every value non-zero); with one feature per word most values would be 0, which JSON
 * writes in one character and so flatters the baseline's sidecar.
 */
class BenchHashingEmbeddings {
  model = "bench-feature-hashing";
  dimensions = DIMENSIONS;

  vectorOf(text) {
    const vector = new Array(this.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      let code = hashWord(word);
      for (let feature = 0; feature < FEATURES_PER_WORD; feature += 1) {
        vector[code % this.dimensions] += code & 0x80000000 ? 1 : -1;
        code = Math.imul(code ^ (code >>> 15), 0x2c1b3c6d) >>> 0;
      }
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }

  async embedDocuments(texts) {
    return texts.map((text) => this.vectorOf(text));
  }

  async embedQuery(text) {
    return this.vectorOf(text);
  }
}

// ── the corpus ────────────────────────────────────────────────────────────────────────────────
function random32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FUNCTION_WORDS =
  "the of and to a in is that for it as with was on be by this are or from at an which not have has but can its were all their more also one been when into these other than they will only such if may used two most some about there each between over both after many new first would through during where should under while because".split(
    " ",
  );
const VOCABULARY_SIZE = 40_000;

/** The vocabulary, most frequent first: English function words, then generated words. */
function buildVocabulary() {
  const next = random32(SEED);
  const onsets = "b c d f g h j k l m n p r s t v w z br cr dr fl gr pl pr sh st th tr ch".split(
    " ",
  );
  const vowels = "a e i o u ai ea io ou".split(" ");
  const codas = ["", "", "n", "r", "s", "t", "l", "m", "nd", "st", "x"];
  const pick = (list) => list[Math.floor(next() * list.length)];
  const words = [...FUNCTION_WORDS];
  const seen = new Set(words);
  while (words.length < VOCABULARY_SIZE) {
    const syllables = 1 + Math.floor(next() * 3) + (next() < 0.3 ? 1 : 0);
    let word = "";
    for (let index = 0; index < syllables; index += 1)
      word += pick(onsets) + pick(vowels) + pick(codas);
    if (word.length < 3 || seen.has(word)) continue;
    seen.add(word);
    words.push(word);
  }
  // Zipf (s = 1.05): the rank-r word has weight 1 / r^s.
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let rank = 0; rank < words.length; rank += 1) {
    sum += 1 / (rank + 1) ** 1.05;
    cumulative[rank] = sum;
  }
  for (let rank = 0; rank < words.length; rank += 1) cumulative[rank] /= sum;
  return { words, cumulative };
}

const vocabulary = buildVocabulary();

function zipfWord(next) {
  const target = next();
  const { cumulative, words } = vocabulary;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle] < target) low = middle + 1;
    else high = middle;
  }
  return words[low];
}

/** Topic words of a file: mid-frequency words it uses far more often than the corpus does. */
function topicsOf(fileIndex) {
  const next = random32(SEED ^ Math.imul(fileIndex + 1, 0x9e3779b1));
  return Array.from({ length: 4 }, () => vocabulary.words[300 + Math.floor(next() * 12_000)]);
}

/** One file's text: deterministic for (SEED, fileIndex), ~5 kB on average (log-normal spread). */
function fileText(fileIndex) {
  const next = random32(SEED ^ Math.imul(fileIndex + 7, 0x85ebca6b));
  const topics = topicsOf(fileIndex);
  const word = () => (next() < 0.07 ? topics[Math.floor(next() * topics.length)] : zipfWord(next));
  const words = (count) => Array.from({ length: count }, word).join(" ");
  const title = (count) =>
    words(count)
      .split(" ")
      .map((part) => part[0].toUpperCase() + part.slice(1))
      .join(" ");
  const sentence = () => {
    const text = words(6 + Math.floor(next() * 15));
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () =>
    Array.from({ length: 2 + Math.floor(next() * 5) }, sentence)
      .join(" ")
      // wrap at ~100 characters, like saved web pages
      .replace(/(.{80,100}?) /g, "$1\n");
  const list = () =>
    Array.from(
      { length: 3 + Math.floor(next() * 4) },
      () => `${next() < 0.5 ? "-" : "1."} ${words(3 + Math.floor(next() * 8))}`,
    ).join("\n");
  const code = () => {
    const lines = [];
    for (let index = 0; index < 4 + Math.floor(next() * 9); index += 1) {
      const [left, right, call] = [zipfWord(next), zipfWord(next), zipfWord(next)];
      lines.push(
        next() < 0.3
          ? `// ${words(4 + Math.floor(next() * 5))}`
          : `const ${left}_${right} = ${call}(${JSON.stringify(zipfWord(next))}, ${Math.floor(next() * 1000)});`,
      );
    }
    return `\`\`\`${next() < 0.5 ? "js" : "ts"}\n${lines.join("\n")}\n\`\`\``;
  };
  const table = () => {
    const columns = 3 + Math.floor(next() * 2);
    const row = () =>
      `| ${Array.from({ length: columns }, () => words(1 + Math.floor(next() * 3))).join(" | ")} |`;
    return [
      row(),
      `|${" --- |".repeat(columns)}`,
      ...Array.from({ length: 3 + Math.floor(next() * 5) }, row),
    ].join("\n");
  };
  // Log-normal size, mean ~5 kB with the last block (σ = 0.6; 1.197 = e^(σ²/2) keeps the mean).
  const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const targetBytes = Math.min(40_000, Math.max(600, (4_600 * Math.exp(0.6 * normal)) / 1.197));
  const blocks = [];
  if (next() < 0.3)
    blocks.push(`---\ntitle: ${title(3)}\ntags: [${topics.slice(0, 2).join(", ")}]\n---`);
  blocks.push(`# ${title(2)} ${topics[0][0].toUpperCase()}${topics[0].slice(1)}`);
  let bytes = blocks.join("\n\n").length;
  let sinceHeading = 0;
  while (bytes < targetBytes) {
    let block;
    const dice = next();
    if (sinceHeading >= 2 && dice < 0.25) {
      const level = next() < 0.6 ? 2 : 3;
      block =
        level === 2 && next() < 0.1
          ? `${title(3)}\n${"-".repeat(12)}` // a Setext heading now and then
          : `${"#".repeat(level)} ${title(2 + Math.floor(next() * 3))}`;
      sinceHeading = 0;
    } else {
      block = dice < 0.75 ? paragraph() : dice < 0.85 ? list() : dice < 0.93 ? code() : table();
      sinceHeading += 1;
    }
    blocks.push(block);
    bytes += block.length + 2;
  }
  return `${blocks.join("\n\n")}\n`;
}

function filePath(fileIndex) {
  const [topic] = topicsOf(fileIndex);
  // 40 sites × 5 sections: 10 files a folder at 2,000 files, 50 at 10,000.
  const site = `site-${String(fileIndex % 40).padStart(2, "0")}`;
  const section = `section-${Math.floor(fileIndex / 40) % 5}`;
  return `${site}/${section}/page-${String(fileIndex).padStart(5, "0")}-${topic}.md`;
}

/** Writes the first `count` files of the generator under `root` (skipped when already there). */
async function generateCorpus(root, count) {
  const marker = join(root, ".generated");
  const signature = `${SEED}:${count}:v3`;
  if (existsSync(marker) && (await readFile(marker, "utf8")) === signature) {
    return corpusBytes(root, count);
  }
  await rm(root, { recursive: true, force: true });
  let bytes = 0;
  const folders = new Set();
  for (let fileIndex = 0; fileIndex < count; fileIndex += 1) {
    const path = join(root, filePath(fileIndex));
    const folder = join(path, "..");
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    const text = fileText(fileIndex);
    bytes += Buffer.byteLength(text);
    await writeFile(path, text);
  }
  await writeFile(marker, signature);
  return bytes;
}

async function corpusBytes(root, count) {
  let bytes = 0;
  for (let fileIndex = 0; fileIndex < count; fileIndex += 1)
    bytes += (await stat(join(root, filePath(fileIndex)))).size;
  return bytes;
}

/** The queries: topic pairs, mid-frequency words, a rare word, and questions with stop words. */
function buildQueries(count) {
  const next = random32(SEED ^ 0x51ed);
  const { words } = vocabulary;
  const at = (low, high) => words[low + Math.floor(next() * (high - low))];
  const queries = [];
  for (let index = 0; index < 8; index += 1) {
    const topics = topicsOf(Math.floor(next() * count));
    queries.push(`${topics[0]} ${topics[1]} ${at(100, 3_000)}`);
  }
  for (let index = 0; index < 8; index += 1)
    queries.push(Array.from({ length: 2 + (index % 2) }, () => at(100, 5_000)).join(" "));
  for (let index = 0; index < 4; index += 1)
    queries.push(`${at(15_000, VOCABULARY_SIZE)} ${at(FUNCTION_WORDS.length, 400)}`);
  for (let index = 0; index < 4; index += 1)
    queries.push(`how does the ${at(200, 4_000)} of a ${at(200, 4_000)} work`);
  return queries;
}

// ── the baseline (seed 001's search_knowledge) ────────────────────────────────────────────────
/**
 * What seed 001 describes: a hidden sidecar `.knowledge/index.json` with each file's sha-256 and
 * its chunks (text, line span, heading trail, vector as a number array); every search walks the
 * folder, re-reads and re-hashes every file, re-chunks and re-embeds only the files whose hash
 * changed, drops deleted ones, writes the JSON back when anything changed, then ranks every chunk
 * by cosine similarity (ml-distance) to the query's vector.
 */
class BaselineCorpus {
  constructor(root, embeddings) {
    this.root = root;
    this.embeddings = embeddings;
    this.indexPath = join(root, BASELINE_FOLDER, BASELINE_FILE);
    this.fingerprint = JSON.stringify({
      class: embeddings.constructor.name,
      model: embeddings.model,
      dimensions: embeddings.dimensions,
      chunk: "default",
    });
    this.index = undefined;
  }

  async walk(folder = this.root, prefix = "") {
    const files = [];
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) files.push(...(await this.walk(join(folder, entry.name), relative)));
      else if (entry.isFile() && /\.(md|markdown|mdx|txt)$/i.test(entry.name)) files.push(relative);
    }
    return files.sort();
  }

  async load() {
    try {
      const stored = JSON.parse(await readFile(this.indexPath, "utf8"));
      if (stored.fingerprint === this.fingerprint) return stored;
    } catch {
      // missing or unreadable: a clean index
    }
    return { version: 1, fingerprint: this.fingerprint, files: {} };
  }

  async refresh() {
    this.index ??= await this.load();
    const index = this.index;
    const paths = await this.walk();
    let changed = false;
    // Re-read and re-hash every file (8 reads in flight, as ours).
    let next = 0;
    const read = async () => {
      const path = paths[next++];
      return { path, bytes: await readFile(join(this.root, ...path.split("/"))) };
    };
    const window = [];
    while (next < paths.length && window.length < 8) window.push(read());
    while (window.length > 0) {
      const { path, bytes } = await window.shift();
      if (next < paths.length) window.push(read());
      const hash = createHash("sha256").update(bytes).digest("hex");
      if (index.files[path]?.hash === hash) continue;
      const document = chunkMarkdown(bytes.toString("utf8"));
      const texts = document.chunks.map((chunk) => [...chunk.heading_trail, chunk.text].join("\n"));
      const vectors = [];
      for (let start = 0; start < texts.length; start += 64)
        vectors.push(...(await this.embeddings.embedDocuments(texts.slice(start, start + 64))));
      index.files[path] = {
        hash,
        chunks: document.chunks.map((chunk, position) => ({
          text: chunk.text,
          start_line: chunk.start_line,
          end_line: chunk.end_line,
          heading_trail: chunk.heading_trail,
          chunk_index: chunk.chunk_index,
          vector: vectors[position],
        })),
      };
      changed = true;
    }
    const present = new Set(paths);
    for (const path of Object.keys(index.files)) {
      if (present.has(path)) continue;
      delete index.files[path];
      changed = true;
    }
    if (changed) {
      await mkdir(join(this.root, BASELINE_FOLDER), { recursive: true });
      const temporary = `${this.indexPath}.tmp`;
      await writeFile(temporary, JSON.stringify(index));
      await rename(temporary, this.indexPath);
    }
  }

  async search(query, limit) {
    await this.refresh();
    const vector = await this.embeddings.embedQuery(query);
    const scored = [];
    for (const [file, entry] of Object.entries(this.index.files)) {
      for (const chunk of entry.chunks) {
        const score = similarity.cosine(vector, chunk.vector);
        if (score > 0) scored.push({ file, chunk, score });
      }
    }
    scored.sort((left, right) => right.score - left.score);
    return scored.slice(0, limit).map(({ file, chunk, score }) => ({
      file,
      start_line: chunk.start_line,
      end_line: chunk.end_line,
      heading_trail: chunk.heading_trail,
      score,
      excerpt: chunk.text,
      reference: `${file}:${chunk.start_line}-${chunk.end_line}`,
    }));
  }

  /** Bytes of the vectors as the JSON holds them (for the sidecar breakdown). */
  vectorJsonBytes() {
    let bytes = 0;
    for (const entry of Object.values(this.index.files))
      for (const chunk of entry.chunks) bytes += JSON.stringify(chunk.vector).length;
    return bytes;
  }

  chunkCount() {
    let count = 0;
    for (const entry of Object.values(this.index.files)) count += entry.chunks.length;
    return count;
  }
}

// ── one side, in a child process ──────────────────────────────────────────────────────────────
const percentile = (values, fraction) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
};
const median = (values) => percentile(values, 0.5);

function createSide(kind, root) {
  if (kind === "baseline") {
    const corpus = new BaselineCorpus(root, new BenchHashingEmbeddings());
    return {
      sidecar: corpus.indexPath,
      refresh: () => corpus.refresh(),
      search: async (query) => corpus.search(query, LIMIT),
      flush: async () => {},
      details: () => ({ chunks: corpus.chunkCount(), vector_bytes: corpus.vectorJsonBytes() }),
    };
  }
  const source = createCorpusSource({
    root,
    ...(kind === "ours"
      ? { embeddings: new BenchHashingEmbeddings() }
      : { indexDirectory: join(root, BM25_FOLDER) }),
  });
  const tool = createSearchKnowledgeTool({ source });
  let chunks = 0;
  return {
    sidecar: source.indexPath,
    refresh: async () => {
      const report = await source.refresh();
      chunks = report.chunks;
      if (report.warnings.length > 0) console.error(`  [${kind}] ${report.warnings.join(" / ")}`);
    },
    // A search answers before its sidecar write; wait for that between timed steps.
    flush: () => source.flush(),
    search: async (query) => {
      const result = await tool.run({ query, limit: LIMIT }, { timeoutMs: 0 });
      if (!result.success)
        throw new Error(`search_knowledge failed: ${JSON.stringify(result.error)}`);
      return result.data.hits;
    },
    details: () => ({
      chunks,
      vector_bytes: kind === "ours" ? chunks * DIMENSIONS * 4 : 0,
    }),
  };
}

async function timed(work) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** In one process: each of our sides against the baseline, interleaved call by call. */
async function runRatios(kinds, root, count) {
  const queries = buildQueries(count);
  const baseline = createSide("baseline", root);
  await baseline.refresh();
  const rows = [];
  for (const kind of kinds) {
    const side = createSide(kind, root);
    await side.refresh();
    await side.search(queries[0]);
    await side.flush();
    const next = { ours: 0, baseline: 0 };
    const search = await measureRatio({
      ours: () => side.search(queries[next.ours++ % queries.length]),
      baseline: () => baseline.search(queries[next.baseline++ % queries.length]),
      callsPerRound: RATIO_CALLS,
    });
    const refresh = await measureRatio({
      ours: () => side.refresh(),
      baseline: () => baseline.refresh(),
      callsPerRound: RATIO_CALLS,
    });
    await side.flush();
    rows.push({ kind, search, refresh });
  }
  return { rows };
}

async function runChild(kind, root, count, mode) {
  if (mode === "ratio") return runRatios(kind.split("+"), root, count);
  const side = createSide(kind, root);
  const queries = buildQueries(count);
  const result = { kind };
  if (mode === "open") {
    // A new process with the sidecar on disk: its first search (load + refresh + search).
    result.open_first_search_ms = await timed(() => side.search(queries[0]));
    result.peak_rss = process.resourceUsage().maxRSS * 1024;
    return result;
  }
  await rm(side.sidecar, { force: true });
  global.gc?.();
  result.cold_ms = await timed(() => side.refresh());
  // Only a cold build, in a process of its own (see COLD_RUNS).
  if (mode === "cold") return result;
  result.sidecar_bytes = (await stat(side.sidecar)).size;
  Object.assign(result, side.details());
  global.gc?.();
  result.heap_after_build = process.memoryUsage().heapUsed;

  // Warm search: one untimed pass, then ROUNDS timed passes over every query.
  let answered = 0;
  for (const query of queries) if ((await side.search(query)).length > 0) answered += 1;
  result.queries = queries.length;
  result.answered = answered;
  const latencies = [];
  for (let round = 0; round < ROUNDS; round += 1)
    for (const query of queries) latencies.push(await timed(() => side.search(query)));
  result.search_p50_ms = percentile(latencies, 0.5);
  result.search_p95_ms = percentile(latencies, 0.95);

  // Refresh with nothing changed.
  await side.refresh();
  const unchanged = [];
  for (let run = 0; run < RUNS; run += 1) unchanged.push(await timed(() => side.refresh()));
  result.refresh_unchanged_ms = median(unchanged);

  // Refresh after one file changed (a different file each run; a paragraph appended).
  const changed = [];
  const originals = new Map();
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const path = join(root, filePath(Math.floor(((run + 0.5) * count) / RUNS)));
      const original = originals.get(path) ?? (await readFile(path));
      originals.set(path, original);
      const next = random32(SEED ^ (run + 101));
      const added = Array.from({ length: 40 }, () => zipfWord(next)).join(" ");
      await writeFile(path, `${original}\n## Update ${run + 1}\n\n${added}.\n`);
      changed.push(await timed(() => side.refresh()));
    }
  } finally {
    for (const [path, original] of originals) await writeFile(path, original);
  }
  result.refresh_one_changed_ms = median(changed);

  // A search right after one file changed: what the agent waits for (ours writes the sidecar
  // after answering; that write is waited for, untimed, before the next run).
  const searched = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const path = join(root, filePath(Math.floor(((run + 0.25) * count) / RUNS)));
      const original = originals.get(path) ?? (await readFile(path));
      originals.set(path, original);
      const next = random32(SEED ^ (run + 201));
      const added = Array.from({ length: 40 }, () => zipfWord(next)).join(" ");
      await writeFile(path, `${original}\n## Revision ${run + 1}\n\n${added}.\n`);
      searched.push(await timed(() => side.search(queries[run % queries.length])));
      await side.flush();
    }
  } finally {
    for (const [path, original] of originals) await writeFile(path, original);
  }
  result.search_one_changed_ms = median(searched);
  await side.refresh(); // the sidecar matches the restored corpus again (for the "open" child)
  result.peak_rss = process.resourceUsage().maxRSS * 1024;
  return result;
}

// ── the parent: corpora, children, table ──────────────────────────────────────────────────────
function spawnChild(kind, root, count, mode) {
  const profile = process.env.BENCH_KNOWLEDGE_CPU_PROF;
  const flags = ["--expose-gc", "--max-old-space-size=4096"];
  if (profile !== undefined)
    flags.push(
      "--cpu-prof",
      `--cpu-prof-dir=${resolve(profile)}`,
      `--cpu-prof-name=${kind}-${count}-${mode}.cpuprofile`,
    );
  const watch = startLoadWatch();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [...flags, import.meta.filename, "--child", kind, root, String(count), mode],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const line = output.split("\n").find((text) => text.startsWith("@@result "));
      if (code !== 0 || line === undefined)
        reject(new Error(`${kind} (${count} files, ${mode}) exited with ${code}\n${output}`));
      else resolvePromise({ ...JSON.parse(line.slice("@@result ".length)), load: watch.stop() });
    });
  });
}

const ms = (value) =>
  value === undefined
    ? "—"
    : value >= 1000
      ? `${(value / 1000).toFixed(2)} s`
      : `${value.toFixed(1)} ms`;
const mib = (value) => (value === undefined ? "—" : `${(value / 1_048_576).toFixed(1)} MiB`);

/** The child a figure comes from: its load decides whether the figure is shown. */
const childOf = (key) =>
  key === "open_first_search_ms" ? "open" : key === "cold_ms" ? "cold" : "measure";

/** "REFUSED" / " LOADED" for a figure measured while another process was busy. */
function loadMark(figure, key, notes) {
  // The sidecar's size is bytes on disk: no other process can change it.
  if (key === "sidecar_bytes") return "";
  const load = figure?.loads?.[childOf(key)];
  if (load === undefined || load.share <= LOAD_LIMIT) return "";
  notes.add(`${figure.kind} ${childOf(key)} run: ${describeLoad(load)}`);
  return ALLOW_LOAD ? " LOADED" : "REFUSED";
}

/** Targets not decided because a figure they need was refused (machine busy). */
const refusedTargets = [];

function printTable(count, bytes, figures, inRun) {
  const ours = figures.ours;
  const bm25 = figures.bm25;
  const base = figures.baseline;
  const targets = count === 2000;
  const rows = [];
  const loadNotes = new Set();
  /** A figure's cell: formatted, marked LOADED, or REFUSED (then no value for the ratio). */
  const cellOf = (figure, key, format) => {
    const mark = loadMark(figure, key, loadNotes);
    if (mark === "REFUSED") return { text: "REFUSED", value: undefined };
    return { text: `${format(figure?.[key])}${mark}`, value: figure?.[key] };
  };
  const refreshInRun = inRun?.rows.find((row) => row.kind === "ours")?.refresh;
  /**
   * @param label - the metric
   * @param key - the figure
   * @param format - ms or mib
   * @param target - { text, met(ours, base) } or undefined
   */
  const metric = (label, key, format, target) => {
    const mineCell = cellOf(ours, key, format);
    const theirsCell = cellOf(base, key, format);
    const mine = mineCell.value;
    const theirs = theirsCell.value;
    const ratio =
      mine !== undefined && theirs !== undefined && mine > 0 ? theirs / mine : undefined;
    // A check answers undefined when a figure it needs was refused (machine busy).
    const verdict =
      target === undefined || mine === undefined || (target.needsBaseline && theirs === undefined)
        ? undefined
        : (target.check ?? target.met)(mine, theirs, ratio);
    const met = target === undefined ? "" : verdict === undefined ? "—" : verdict ? "yes" : "NO";
    if (target !== undefined && verdict === undefined) refusedTargets.push(label);
    rows.push([
      label,
      mineCell.text,
      theirsCell.text,
      ratio === undefined ? "—" : `${ratio.toFixed(ratio >= 100 ? 0 : 2)}×`,
      target?.text ?? "",
      met,
    ]);
    if (bm25 !== undefined && bm25[key] !== undefined) {
      const lexicalCell = cellOf(bm25, key, format);
      const lexical = lexicalCell.value;
      const lexicalRatio =
        theirs !== undefined && lexical !== undefined && lexical > 0 ? theirs / lexical : undefined;
      rows.push([
        "  ours BM25 only",
        lexicalCell.text,
        "",
        lexicalRatio === undefined ? "—" : `${lexicalRatio.toFixed(lexicalRatio >= 100 ? 0 : 2)}×`,
        "",
        "",
      ]);
    }
  };
  const needBoth = (check) => ({ needsBaseline: true, check });
  metric(
    `cold index build (median of ${COLD_RUNS + 1})`,
    "cold_ms",
    ms,
    targets
      ? { text: "no slower than baseline", ...needBoth((_, __, ratio) => ratio >= 1) }
      : undefined,
  );
  metric(
    "search p50 (warm, via the tool)",
    "search_p50_ms",
    ms,
    count === 10000 ? { text: "≤ 50 ms", met: (mine) => mine <= 50 } : undefined,
  );
  metric(
    "search p95 (warm, via the tool)",
    "search_p95_ms",
    ms,
    count === 10000 ? { text: "≤ 50 ms", met: (mine) => mine <= 50 } : undefined,
  );
  metric(
    "refresh, nothing changed",
    "refresh_unchanged_ms",
    ms,
    targets
      ? {
          text: "≤ 45 ms and ≥ 20× (in one run)",
          ...needBoth((mine) =>
            refreshInRun === undefined || refreshInRun.refused
              ? undefined
              : mine <= 45 && 1 / refreshInRun.ratio >= 20,
          ),
        }
      : undefined,
  );
  metric(
    "refresh, one file changed",
    "refresh_one_changed_ms",
    ms,
    targets ? { text: "≤ 100 ms", met: (mine) => mine <= 100 } : undefined,
  );
  metric("search right after one file changed", "search_one_changed_ms", ms, undefined);
  metric(
    "sidecar size",
    "sidecar_bytes",
    mib,
    targets ? { text: "≥ 3× smaller", ...needBoth((_, __, ratio) => ratio >= 3) } : undefined,
  );
  metric("first search, new process, sidecar on disk", "open_first_search_ms", ms, undefined);
  metric("peak RSS (build, searches, refreshes)", "peak_rss", mib, undefined);
  metric("heap kept after the build", "heap_after_build", mib, undefined);
  const header = ["metric", "ours (hybrid)", "baseline", "base/ours", "target", "met?"];
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells) =>
    cells
      .map((cell, column) =>
        column === 0 || column >= 4 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
      )
      .join(" | ");
  console.log(
    `\n${count.toLocaleString("en-US")} files, ${(bytes / 1_000_000).toFixed(1)} MB; ${ours?.chunks ?? base?.chunks ?? "?"} chunks`,
  );
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
  for (const row of rows) console.log(line(row));
  const notes = [];
  if (ours !== undefined)
    notes.push(
      `ours: ${ours.answered}/${ours.queries} queries with hits; vectors ${mib(ours.vector_bytes)} of the sidecar (float32)`,
    );
  if (bm25 !== undefined)
    notes.push(`ours BM25 only: ${bm25.answered}/${bm25.queries} queries with hits`);
  if (base !== undefined)
    notes.push(
      `baseline: ${base.answered}/${base.queries} queries with hits; vectors ${mib(base.vector_bytes)} of the sidecar (JSON number arrays, the rest is chunk text and spans)`,
    );
  for (const note of notes) console.log(`  ${note}`);
  for (const note of loadNotes)
    console.log(`  ${ALLOW_LOAD ? "LOADED" : "REFUSED: machine busy"} — ${note}`);
  if (inRun !== undefined) {
    console.log("  in one run (ours / baseline, median of the last three rounds, min–max):");
    for (const { kind, search, refresh } of inRun.rows) {
      const faster = (result) =>
        result.refused ? "" : ` — baseline/ours ${(1 / result.ratio).toFixed(2)}×`;
      console.log(`    ${kind} warm search: ${formatRatio(search)}${faster(search)}`);
      console.log(
        `    ${kind} refresh, nothing changed: ${formatRatio(refresh)}${faster(refresh)}`,
      );
    }
  }
  return rows.filter((row) => row[5] === "NO").map((row) => row[0]);
}

async function main() {
  const [, , flag, kind, root, count, mode] = process.argv;
  if (flag === "--child") {
    const result = await runChild(kind, root, Number(count), mode);
    process.stdout.write(`@@result ${JSON.stringify(result)}\n`);
    return;
  }
  const keep = process.env.BENCH_KNOWLEDGE_DIR;
  const base =
    keep === undefined ? await mkdtemp(join(tmpdir(), "agentool-bench-knowledge-")) : resolve(keep);
  await mkdir(base, { recursive: true });
  console.log(`${benchHeader("search_knowledge's corpus index beside the seed-001 baseline")}\n`);
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs; corpora ${SIZES.join(", ")} files in ${base}; ${ROUNDS} timed passes over 24 queries (limit ${LIMIT}), refresh medians of ${RUNS} runs; embedder: feature hashing, ${DIMENSIONS} dimensions (both sides)`,
  );
  const missed = [];
  const started = performance.now();
  try {
    for (const count of SIZES) {
      const root = join(base, `corpus-${count}`);
      const generatedAt = performance.now();
      const bytes = await generateCorpus(root, count);
      console.error(
        `  corpus of ${count} files (${(bytes / 1_000_000).toFixed(1)} MB) ready in ${ms(performance.now() - generatedAt)}`,
      );
      // Extra cold builds, each in a new process, the sides taking turns so that the machine's
      // ups and downs fall on all of them; the table shows the median with the measure child's.
      const colds = {};
      const coldLoads = {};
      const busier = (left, right) =>
        left === undefined || right.share > left.share ? right : left;
      for (let run = 0; run < COLD_RUNS; run += 1) {
        for (const kind of SIDES) {
          colds[kind] ??= [];
          const cold = await spawnChild(kind, root, count, "cold");
          colds[kind].push(cold.cold_ms);
          coldLoads[kind] = busier(coldLoads[kind], cold.load);
        }
      }
      const figures = {};
      for (const kind of SIDES) {
        const sideStarted = performance.now();
        const figure = await spawnChild(kind, root, count, "measure");
        const open = await spawnChild(kind, root, count, "open");
        figure.open_first_search_ms = open.open_first_search_ms;
        figure.cold_ms = median([figure.cold_ms, ...(colds[kind] ?? [])]);
        figure.loads = {
          measure: figure.load,
          open: open.load,
          cold: busier(coldLoads[kind], figure.load),
        };
        figures[kind] = figure;
        console.error(
          `  ${kind} on ${count} files measured in ${ms(performance.now() - sideStarted)}`,
        );
      }
      const ours = SIDES.filter((kind) => kind !== "baseline");
      const inRun =
        SIDES.includes("baseline") && ours.length > 0
          ? await spawnChild(ours.join("+"), root, count, "ratio")
          : undefined;
      missed.push(
        ...printTable(count, bytes, figures, inRun).map((label) => `${label} (${count} files)`),
      );
    }
  } finally {
    if (keep === undefined) await rm(base, { recursive: true, force: true });
  }
  console.log(
    [
      "",
      "base/ours: how many times faster (times) or smaller (sizes) ours is than the baseline.",
      "Targets (issue 12): on 2,000 files refresh with nothing changed ≤ 45 ms and ≥ 20× faster, after one change ≤ 100 ms,",
      "cold build no slower, sidecar ≥ 3× smaller; on 10,000 files a warm search ≤ 50 ms.",
      `Total ${ms(performance.now() - started)}. Reproduce: pnpm bench knowledge  (BENCH_KNOWLEDGE_FILES=2000 for a quick run)`,
    ].join("\n"),
  );
  if (missed.length > 0) console.log(`\nMISSED: ${missed.join("; ")}`);
  else if (refusedTargets.length > 0)
    console.log(`\nNOT DECIDED (figures refused, machine busy): ${refusedTargets.join("; ")}`);
  else console.log("\nALL TARGETS MET");
}

await main();
