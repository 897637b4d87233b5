import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { HashingEmbeddings } from "../../test-support/hashing-embeddings.js";
import { createSearchKnowledgeTool, type SearchKnowledgeToolData } from "../search-knowledge.js";
import { type CorpusSourceOptions, createCorpusSource } from "./index.js";
import { decodeIndex } from "./internal/index-file.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf, temporaryFolder } = useCorpusFolders("agentool-corpus-hybrid-");

type Source = ReturnType<typeof createCorpusSource>;

async function searchData(source: Source, query: string): Promise<SearchKnowledgeToolData> {
  const result = await createSearchKnowledgeTool({ source }).run({ query, limit: 50 });
  if (!result.success) throw new Error(`search failed: ${JSON.stringify(result)}`);
  return result.data;
}

/** Ten files of one chunk each, plus the car page. */
function tenFiles(): Record<string, string> {
  const files: Record<string, string> = {
    "vehicles.md": "# Vehicles\n\nThe car needs new tyres before winter.\n",
  };
  const animals = ["falcon", "otter", "lynx", "heron", "badger", "marmot", "ibis", "newt", "yak"];
  for (const [index, animal] of animals.entries()) {
    files[`animals/${animal}.md`] =
      `# ${animal}\n\nNotes number ${index} about the ${animal} habitat.\n`;
  }
  return files;
}

/** The failure-friendly knobs: no retry, no pause, no cooldown. */
const quick: Partial<CorpusSourceOptions> = { retries: 0, retryDelayMs: 0, embeddingCooldownMs: 0 };

describe("hybrid ranking with a deterministic embedder", () => {
  it("finds a synonym with embeddings and not without", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings({ synonyms: [["car", "automobile"]] });
    const hybrid = await searchData(createCorpusSource({ root, embeddings }), "automobile");
    expect(hybrid.hits[0]?.file).toBe("vehicles.md");
    expect(hybrid.warnings).toEqual([]);
    const other = temporaryFolder();
    const lexicalOnly = await searchData(
      createCorpusSource({ root, indexDirectory: other }),
      "automobile",
    );
    expect(lexicalOnly).toMatchObject({ hits: [], empty_reason: "no_match" });
  });

  it("ranks the same right after a change (file-by-file scan) as once the scan matrix is rebuilt", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings({ synonyms: [["car", "automobile"]] });
    // Vectors of different lengths (cosine ignores length, a bare dot product would not), and few
    // dense candidates, so which chunks the scan picks decides the ranking.
    const scaled = {
      model: "scaled-hashing",
      embedDocuments: async (texts: string[]) =>
        (await embeddings.embedDocuments(texts)).map((vector, index) =>
          vector.map((value) => value * (1 + ((texts[index]?.length ?? 0) % 7))),
        ),
      embedQuery: (text: string) => embeddings.embedQuery(text),
    };
    const source = createCorpusSource({ root, embeddings: scaled, denseCandidates: 3 });
    const queries = ["automobile habitat", "falcon river", "yak", "car otter"];
    await searchData(source, "warm up");
    for (const [index, query] of queries.entries()) {
      // A change makes the matrix stale: this search scans file by file...
      writeFileSync(
        join(root, `zoo-${index}.md`),
        `# Zoo ${index}\n\nA car park beside the otter pool and the yak pen.\n`,
      );
      const justChanged = (await searchData(source, query)).hits;
      expect(justChanged.length).toBeGreaterThan(0);
      // ...then the matrix is rebuilt after the answer, and the same search uses it.
      await new Promise((resolve) => setImmediate(resolve));
      const settled = (await searchData(source, query)).hits;
      expect(settled.map((hit) => [hit.reference, hit.score])).toEqual(
        justChanged.map((hit) => [hit.reference, hit.score]),
      );
    }
    await source.close();
  });

  it("applies path_prefix to the vector side too", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings({ synonyms: [["car", "automobile"]] });
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root, embeddings }) });
    const everywhere = await tool.run({ query: "automobile habitat", limit: 50 });
    const animals = await tool.run({
      query: "automobile habitat",
      limit: 50,
      path_prefix: "animals/",
    });
    expect(everywhere.success && animals.success).toBe(true);
    if (!everywhere.success || !animals.success) return;
    expect(everywhere.data.hits.some((hit) => hit.file === "vehicles.md")).toBe(true);
    expect(animals.data.hits.length).toBeGreaterThan(0);
    expect(animals.data.hits.every((hit) => hit.file.startsWith("animals/"))).toBe(true);
    const vehicles = await tool.run({ query: "automobile", path_prefix: "animals/" });
    expect(vehicles.success && vehicles.data.hits.every((hit) => hit.file !== "vehicles.md")).toBe(
      true,
    );
  });

  it("embeds in batches of batchSize", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings();
    const report = await createCorpusSource({ root, embeddings, batchSize: 3 }).refresh();
    expect(report).toMatchObject({ chunks: 10, embedded: 10, pendingEmbeddings: 0 });
    const sizes = embeddings.batches.map((batch) => batch.length);
    expect(sizes).toEqual([3, 3, 3, 1]);
    // Each chunk once, with its heading trail in front of its text.
    const texts = embeddings.batches.flat();
    expect(new Set(texts).size).toBe(10);
    expect(texts).toContain("Vehicles\n\n# Vehicles\n\nThe car needs new tyres before winter.");
  });

  it("retries a failed batch and then succeeds without a warning", async () => {
    const root = corpusOf(tenFiles());
    let failures = 0;
    const embeddings = new HashingEmbeddings({
      beforeBatch: (batch) => {
        if (batch === 1 && failures++ === 0) throw new Error("rate limited");
      },
    });
    const source = createCorpusSource({
      root,
      embeddings,
      batchSize: 4,
      retries: 1,
      retryDelayMs: 0,
    });
    const report = await source.refresh();
    expect(report).toMatchObject({ embedded: 10, pendingEmbeddings: 0, warnings: [] });
    expect(embeddings.batches.map((batch) => batch.length)).toEqual([4, 4, 4, 2]);
    expect(embeddings.batches[1]).toEqual(embeddings.batches[2]);
  });

  it("a failing batch leaves a consistent index: BM25 answers, the next refresh embeds only the rest", async () => {
    const root = corpusOf(tenFiles());
    let fail = true;
    const embeddings = new HashingEmbeddings({
      beforeBatch: (batch) => {
        if (fail && batch >= 1) throw new Error("embedder is down");
      },
    });
    const source = createCorpusSource({ root, embeddings, batchSize: 4, ...quick });
    const data = await searchData(source, "tyres");
    expect(data.hits[0]?.file).toBe("vehicles.md");
    expect(data.warnings).toEqual([
      expect.stringContaining("The embedder failed after 1 attempt (embedder is down)"),
    ]);
    const firstEmbedded = embeddings.batches[0] as string[];
    expect(firstEmbedded).toHaveLength(4);
    // What was embedded is kept and saved; what was not is marked missing, on disk too.
    await source.flush();
    const stored = decodeIndex(readFileSync(source.indexPath));
    const missing = stored.files.reduce((sum, file) => sum + file.missing.length, 0);
    expect(missing).toBe(6);
    expect(stored.dimension).toBe(256);
    // Still down: the next refresh tries once more and keeps what it has.
    const report = await source.refresh();
    expect(report).toMatchObject({ embedded: 0, pendingEmbeddings: 6 });

    fail = false;
    const before = embeddings.batches.length;
    const resumed = await source.refresh();
    expect(resumed).toMatchObject({
      embedded: 6,
      pendingEmbeddings: 0,
      added: 0,
      changed: 0,
      saved: true,
      warnings: [],
    });
    const texts = embeddings.batches.slice(before).flat();
    expect(texts).toHaveLength(6);
    for (const text of firstEmbedded) expect(texts).not.toContain(text);
    expect(
      decodeIndex(readFileSync(source.indexPath)).files.every((file) => file.missing.length === 0),
    ).toBe(true);
  });

  it("a source started later resumes the embedding another left unfinished", async () => {
    const root = corpusOf(tenFiles());
    const broken = new HashingEmbeddings({
      beforeBatch: (batch) => {
        if (batch >= 1) throw new Error("quota exhausted");
      },
    });
    const first = await createCorpusSource({
      root,
      embeddings: broken,
      batchSize: 4,
      ...quick,
    }).refresh();
    expect(first).toMatchObject({ embedded: 4, pendingEmbeddings: 6 });
    const healthy = new HashingEmbeddings();
    const second = await createCorpusSource({
      root,
      embeddings: healthy,
      batchSize: 4,
      ...quick,
    }).refresh();
    expect(second).toMatchObject({ added: 0, embedded: 6, pendingEmbeddings: 0, warnings: [] });
    expect(healthy.embeddedTexts).toBe(6);
  });

  it("keeps a down embedder quiet during its cooldown, with a warning", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings({
      beforeBatch: () => {
        throw new Error("connection refused");
      },
    });
    const source = createCorpusSource({
      root,
      embeddings,
      retries: 0,
      retryDelayMs: 0,
      embeddingCooldownMs: 600_000,
    });
    const first = await searchData(source, "tyres");
    expect(first.hits[0]?.file).toBe("vehicles.md");
    expect(embeddings.batches).toHaveLength(1);
    const queries = embeddings.queries.length;
    const second = await searchData(source, "habitat");
    expect(second.hits.length).toBe(9);
    expect(second.warnings.join(" ")).toContain(
      "The embedder failed recently (connection refused)",
    );
    expect(embeddings.batches).toHaveLength(1);
    expect(embeddings.queries.length).toBe(queries);
  });

  it("answers with BM25 and a warning when embedding the query fails", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings({
      beforeQuery: () => {
        throw new Error("query endpoint 503");
      },
    });
    const source = createCorpusSource({ root, embeddings, ...quick });
    const data = await searchData(source, "tyres");
    expect(data.hits.map((hit) => hit.file)).toEqual(["vehicles.md"]);
    expect(data.warnings).toEqual([
      "The embedder failed for the query (query endpoint 503); these results are BM25 only.",
    ]);
    expect(await source.refresh()).toMatchObject({ embedded: 0, pendingEmbeddings: 0 });
  });

  it("stores the vectors as binary float32, not JSON numbers", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings({ dimensions: 256 });
    const hybrid = createCorpusSource({ root, embeddings });
    await hybrid.refresh();
    const lexicalFolder = temporaryFolder();
    const lexical = createCorpusSource({ root, indexDirectory: lexicalFolder });
    await lexical.refresh();
    const vectorBytes = 10 * 256 * 4;
    const extra = statSync(hybrid.indexPath).size - statSync(lexical.indexPath).size;
    expect(extra).toBeGreaterThanOrEqual(vectorBytes);
    expect(extra).toBeLessThan(vectorBytes + 200);
    const bytes = readFileSync(hybrid.indexPath);
    const text = embeddings.batches.flat()[0] as string;
    const vector = embeddings.vectorOf(text);
    const component = vector.find((value) => value !== 0) as number;
    expect(bytes.includes(Buffer.from(String(component).slice(0, 8)))).toBe(false);
    expect(bytes.includes(Buffer.from(Float32Array.from(vector).buffer))).toBe(true);
  });
});

describe("concurrent searches in one process", () => {
  it("share one refresh: five parallel searches embed each chunk once", async () => {
    const root = corpusOf(tenFiles());
    const embeddings = new HashingEmbeddings();
    const source = createCorpusSource({ root, embeddings });
    const results = await Promise.all(
      ["tyres", "falcon", "otter", "habitat", "lynx"].map((query) => searchData(source, query)),
    );
    expect(results.map((data) => data.hits[0]?.file)).toEqual([
      "vehicles.md",
      "animals/falcon.md",
      "animals/otter.md",
      expect.stringMatching(/^animals\//),
      "animals/lynx.md",
    ]);
    expect(embeddings.embeddedTexts).toBe(10);
    expect(embeddings.queries).toHaveLength(5);
    await source.flush(); // the searches' sidecar write (it follows the answers)
    const reports = await Promise.all([source.refresh(), source.refresh(), source.refresh()]);
    expect(reports[1]).toBe(reports[0]);
    expect(reports[2]).toBe(reports[0]);
    expect(reports[0]).toMatchObject({ added: 0, embedded: 0, saved: false });
  });

  it("one caller's abort does not stop the refresh the others wait on", async () => {
    const root = corpusOf(tenFiles());
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => undefined;
    const embedding = new Promise<void>((resolve) => {
      started = resolve;
    });
    const embeddings = new HashingEmbeddings({
      beforeBatch: async () => {
        started();
        await gate;
      },
    });
    const source = createCorpusSource({ root, embeddings });
    const tool = createSearchKnowledgeTool({ source });
    const controller = new AbortController();
    const aborted = tool.run({ query: "tyres" }, { signal: controller.signal });
    const patient = tool.run({ query: "tyres" });
    await embedding;
    controller.abort();
    const first = await aborted;
    expect(first.success).toBe(false);
    if (!first.success) expect(first.error.code).toBe("ABORTED");
    release();
    const second = await patient;
    expect(second.success).toBe(true);
    if (second.success) expect(second.data.hits[0]?.file).toBe("vehicles.md");
    expect(embeddings.embeddedTexts).toBe(10);
    expect(await source.refresh()).toMatchObject({ embedded: 0, pendingEmbeddings: 0 });
  });

  it("close() during a refresh stops it; the next search finishes the work", async () => {
    const root = corpusOf(tenFiles());
    let started: () => void = () => undefined;
    const embedding = new Promise<void>((resolve) => {
      started = resolve;
    });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const embeddings = new HashingEmbeddings({
      beforeBatch: async (batch) => {
        if (batch !== 0) return;
        started();
        await gate;
      },
    });
    const source = createCorpusSource({ root, embeddings, batchSize: 2 });
    const running = source.refresh().then(
      () => "finished",
      (error: unknown) => `rejected: ${(error as Error).message}`,
    );
    await embedding;
    const closing = source.close();
    release();
    await closing;
    expect(await running).toBe("rejected: the corpus source was closed");
    expect(embeddings.batches).toHaveLength(1);
    const data = await searchData(source, "tyres");
    expect(data.hits[0]?.file).toBe("vehicles.md");
    expect(await source.refresh()).toMatchObject({ files: 10, pendingEmbeddings: 0 });
    expect(readdirSync(dirname(source.indexPath)).sort()).toEqual([".gitignore", "index.bin"]);
  });
});
