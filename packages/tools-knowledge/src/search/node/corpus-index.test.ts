import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { HashingEmbeddings } from "../../test-support/hashing-embeddings.js";
import {
  createSearchKnowledgeTool,
  type SearchKnowledgeHit,
  type SearchKnowledgeToolData,
} from "../search-knowledge.js";
import { CORPUS_INDEX_FILE, CORPUS_INDEX_FOLDER, createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { temporaryFolder, corpusOf } = useCorpusFolders("agentool-corpus-");

type SearchTool = ReturnType<typeof createSearchKnowledgeTool>;

async function searchData(
  tool: SearchTool,
  input: Record<string, unknown>,
): Promise<SearchKnowledgeToolData> {
  const result = await tool.run(input);
  if (!result.success) throw new Error(`search failed: ${JSON.stringify(result)}`);
  return result.data;
}

/** The lines `hit` cites, read from the real file as `read_file` splits them. */
function citedLines(root: string, hit: SearchKnowledgeHit): string {
  const lines = readFileSync(join(root, hit.file), "utf8")
    .split("\n")
    .map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  return lines.slice(hit.start_line - 1, hit.end_line).join("\n");
}

function section(title: string, words: string, paragraphs = 1): string {
  const body = Array.from(
    { length: paragraphs },
    (_, index) => `${words} paragraph ${index + 1} of the ${title.toLowerCase()} section.`,
  );
  return `## ${title}\n\n${body.join("\n\n")}\n`;
}

const GUIDE = [
  "# Vector databases",
  "",
  "An overview of how vector search engines store embeddings.",
  "",
  section("HNSW", "HNSW builds a layered proximity graph; efConstruction sets the build effort."),
  section(
    "IVF",
    "IVF partitions vectors into lists around centroids; probes trade recall for speed.",
  ),
  section("Quantization", "Product quantization compresses each vector into short codes."),
].join("\n");

const NOTES = [
  "# Meeting notes",
  "",
  "We chose HNSW for the prototype because recall mattered more than memory.",
  "",
  "## Follow-ups",
  "",
  "Measure the HNSW build time on the full corpus.",
  "",
].join("\n");

describe("search_knowledge over a corpus folder, end to end", () => {
  it("returns hits whose reference opens the very lines the excerpt shows", async () => {
    const root = corpusOf({
      "docs/vectors.md": GUIDE,
      "notes/meeting.md": NOTES,
      "readme.txt": "Plain text about nothing special.\n",
    });
    const tool = createSearchKnowledgeTool({
      source: createCorpusSource({ root }),
      mountedTools: ["read_file"],
    });
    const data = await searchData(tool, { query: "efConstruction build effort" });
    expect(data.hits.length).toBeGreaterThan(0);
    const top = data.hits[0] as SearchKnowledgeHit;
    expect(top.file).toBe("docs/vectors.md");
    expect(top.heading_trail).toEqual(["Vector databases", "HNSW"]);
    expect(top.reference).toBe(`docs/vectors.md:${top.start_line}-${top.end_line}`);
    expect(top.excerpt).toContain("efConstruction");
    expect(top.excerpt_truncated).toBe(false);
    for (const hit of data.hits) {
      expect(hit.start_line).toBeGreaterThanOrEqual(1);
      expect(hit.end_line).toBeGreaterThanOrEqual(hit.start_line);
      expect(hit.reference).toBe(`${hit.file}:${hit.start_line}-${hit.end_line}`);
      expect(citedLines(root, hit)).toBe(hit.excerpt);
    }
    expect(data.searched).toEqual({ documents: 3, chunks: expect.any(Number) });
    const rendered = tool.renderResult(await tool.run({ query: "efConstruction build effort" }));
    expect(rendered).toContain(
      `Open a passage with read_file: ${top.reference} is path="docs/vectors.md", offset=${top.start_line}, limit=${top.end_line - top.start_line + 1}.`,
    );
  });

  it("limits the hits to path_prefix", async () => {
    const root = corpusOf({ "docs/vectors.md": GUIDE, "notes/meeting.md": NOTES });
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root }) });
    const everywhere = await searchData(tool, { query: "hnsw" });
    expect(new Set(everywhere.hits.map((hit) => hit.file))).toEqual(
      new Set(["docs/vectors.md", "notes/meeting.md"]),
    );
    const notes = await searchData(tool, { query: "hnsw", path_prefix: "notes/" });
    expect(notes.hits.length).toBeGreaterThan(0);
    expect(notes.hits.every((hit) => hit.file.startsWith("notes/"))).toBe(true);
    expect(notes.path_prefix).toBe("notes/");
    expect(notes.searched.documents).toBe(1);
    expect(notes.total).toBe(everywhere.hits.filter((hit) => hit.file.startsWith("notes/")).length);
  });

  it("says why a search is empty: empty or missing folder, nothing matched, all filtered out", async () => {
    const missing = join(temporaryFolder(), "not-created-yet");
    for (const root of [temporaryFolder(), missing, corpusOf({ "empty.md": "" })]) {
      const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root }) });
      const data = await searchData(tool, { query: "anything" });
      expect(data).toMatchObject({ hits: [], total: 0, empty_reason: "empty_corpus" });
    }
    expect(existsSync(missing)).toBe(false);

    const root = corpusOf({ "docs/vectors.md": GUIDE, "notes/meeting.md": NOTES });
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root }) });
    expect(await searchData(tool, { query: "xylophone" })).toMatchObject({
      hits: [],
      empty_reason: "no_match",
    });
    expect(await searchData(tool, { query: "centroids", path_prefix: "notes/" })).toMatchObject({
      hits: [],
      empty_reason: "filtered_out",
    });
    expect(await searchData(tool, { query: "hnsw", path_prefix: "nowhere/" })).toMatchObject({
      hits: [],
      empty_reason: "filtered_out",
    });
    expect(await searchData(tool, { query: "xylophone", path_prefix: "notes/" })).toMatchObject({
      hits: [],
      empty_reason: "no_match",
    });
  });

  it("pages with offset: the pages concatenate to the full list", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 9; index += 1) {
      files[`page-${index}.md`] = `# Page ${index}\n\nThe lighthouse keeper logs entry ${index}.\n`;
    }
    const root = corpusOf(files);
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root }) });
    const all = await searchData(tool, { query: "lighthouse keeper", limit: 20 });
    expect(all.total).toBe(9);
    const pages: SearchKnowledgeHit[] = [];
    let offset: number | undefined = 1;
    while (offset !== undefined) {
      const page = await searchData(tool, { query: "lighthouse keeper", limit: 4, offset });
      expect(page.total).toBe(9);
      pages.push(...page.hits);
      offset = page.next_offset;
    }
    expect(pages.map((hit) => hit.reference)).toEqual(all.hits.map((hit) => hit.reference));
    const past = await tool.run({ query: "lighthouse keeper", offset: 40 });
    expect(past.success).toBe(false);
  });

  it("passes the contract's conformance kit", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 6; index += 1) {
      files[`docs/page-${index}.md`] = `# Page ${index}\n\nHNSW graphs, part ${index}.\n`;
    }
    const root = corpusOf(files);
    await assertConformance(
      [
        createSearchKnowledgeTool({
          source: createCorpusSource({ root }),
          mountedTools: ["read_file"],
        }),
      ],
      {
        samples: { search_knowledge: { query: "hnsw", path_prefix: "docs/" } },
        cutSamples: { search_knowledge: { query: "hnsw", limit: 2 } },
        alsoMounted: ["read_file"],
        // The sample again with path_prefix written absolute inside the folder.
        workspaceRoot: root,
      },
    );
  });

  it("reports files done / total through the search's progress during a cold build", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 25; index += 1) {
      files[`f-${String(index).padStart(2, "0")}.md`] = `# File ${index}\n\nOrchard ${index}.\n`;
    }
    const root = corpusOf(files);
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root }) });
    const updates: Array<{ completed?: number; total?: number }> = [];
    const result = await tool.run(
      { query: "orchard" },
      { progress: (update) => updates.push(update) },
    );
    expect(result.success).toBe(true);
    const counted = updates.filter((update) => update.total !== undefined);
    expect(counted.length).toBeGreaterThanOrEqual(2);
    expect(counted.every((update) => update.total === 25)).toBe(true);
    const completed = counted.map((update) => update.completed as number);
    expect(completed).toEqual([...completed].sort((left, right) => left - right));
    expect(completed.at(-1)).toBe(25);
    // A warm search reads nothing, so it has nothing to report.
    const warm: unknown[] = [];
    await tool.run({ query: "orchard" }, { progress: (update) => warm.push(update) });
    expect(warm).toEqual([]);
  });
});

describe("configuration and the folder itself", () => {
  it("rejects invalid options before any work, naming the option", () => {
    expect(() => createCorpusSource({ root: "" })).toThrow(/createCorpusSource: invalid options/);
    expect(() => createCorpusSource({ root: "x", batchSize: 0 })).toThrow(/batchSize/);
    expect(() => createCorpusSource({ root: "x", extensions: ["md"] })).toThrow(
      /starts with a dot/,
    );
    expect(() =>
      createCorpusSource({ root: "x", embeddings: {} as unknown as HashingEmbeddings }),
    ).toThrow(/Embeddings/);
    expect(() => createCorpusSource({ root: "x", unknown: 1 } as never)).toThrow(/unknown/);
  });

  it("fails with NOT_CONFIGURED when root is a file", async () => {
    const folder = temporaryFolder();
    const file = join(folder, "not-a-folder.md");
    writeFileSync(file, "# Hi\n");
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root: file }) });
    const result = await tool.run({ query: "hi" });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.code).toBe("NOT_CONFIGURED");
      expect(result.error.message).toContain("is a file, not a folder");
    }
  });

  it("picks up a folder created after the first search", async () => {
    const root = join(temporaryFolder(), "later");
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root }) });
    expect((await searchData(tool, { query: "tapir" })).empty_reason).toBe("empty_corpus");
    mkdirSync(root);
    writeFileSync(join(root, "tapir.md"), "# Tapir\n\nThe tapir browses.\n");
    expect((await searchData(tool, { query: "tapir" })).hits[0]?.file).toBe("tapir.md");
  });
});

describe("window expansion", () => {
  const sections = Array.from(
    { length: 6 },
    (_, index) =>
      `## Step ${index + 1}\n\nStep ${index + 1} ${index === 2 ? "calibrates the gyroscope" : "tightens a bolt"} before moving on to the next one.\n`,
  );
  const manual = `# Assembly\n\n${sections.join("\n")}`;

  it("stitches the neighbouring chunks into one passage with the true line span", async () => {
    const root = corpusOf({ "manual.md": manual });
    const alone = createSearchKnowledgeTool({
      source: createCorpusSource({ root, maxChunkCharacters: 100 }),
    });
    const single = (await searchData(alone, { query: "gyroscope" })).hits[0] as SearchKnowledgeHit;
    expect(single.heading_trail).toEqual(["Assembly", "Step 3"]);
    expect(single.excerpt).not.toContain("Step 2");

    const windowed = createSearchKnowledgeTool({
      source: createCorpusSource({ root, maxChunkCharacters: 100, window: 1 }),
    });
    const hit = (await searchData(windowed, { query: "gyroscope" })).hits[0] as SearchKnowledgeHit;
    expect(hit.heading_trail).toEqual(["Assembly", "Step 3"]);
    expect(hit.start_line).toBeLessThan(single.start_line);
    expect(hit.end_line).toBeGreaterThan(single.end_line);
    expect(hit.excerpt).toContain("## Step 2");
    expect(hit.excerpt).toContain("calibrates the gyroscope");
    expect(hit.excerpt).toContain("## Step 4");
    expect(hit.excerpt).not.toContain("## Step 5");
    expect(citedLines(root, hit)).toBe(hit.excerpt);
  });

  it("caps a stitched passage at maxPassageCharacters, keeping the hit", async () => {
    const long = "filler words ".repeat(40);
    const text = `# Big\n\n## Before\n\n${long}\n\n## Target\n\nThe needle sits here.\n\n## After\n\n${long}\n`;
    const root = corpusOf({ "big.md": text });
    const tool = createSearchKnowledgeTool({
      source: createCorpusSource({
        root,
        maxChunkCharacters: 600,
        window: 1,
        maxPassageCharacters: 300,
      }),
      maxExcerptCharacters: 10_000,
    });
    const hit = (await searchData(tool, { query: "needle" })).hits[0] as SearchKnowledgeHit;
    expect(hit.excerpt.length).toBeLessThanOrEqual(300);
    expect(hit.excerpt).toContain("The needle sits here.");
    expect(citedLines(root, hit)).toBe(hit.excerpt);
  });
});

describe("the sidecar", () => {
  it("lives in <root>/.knowledge/index.bin and is never indexed itself", async () => {
    const root = corpusOf({ "a.md": "# Alpha\n\nQuartz crystals.\n" });
    const source = createCorpusSource({ root });
    expect(source.indexPath).toBe(join(root, CORPUS_INDEX_FOLDER, CORPUS_INDEX_FILE));
    await source.refresh();
    expect(existsSync(source.indexPath)).toBe(true);
    // A Markdown file inside the sidecar folder, holding the query word, stays out.
    writeFileSync(join(root, CORPUS_INDEX_FOLDER, "notes.md"), "# Quartz\n\nQuartz quartz.\n");
    const tool = createSearchKnowledgeTool({ source });
    const data = await searchData(tool, { query: "quartz" });
    expect(data.hits.map((hit) => hit.file)).toEqual(["a.md"]);
    expect(data.searched.documents).toBe(1);
  });

  it("close() drops the in-memory index; the next search reloads it from disk without re-reading", async () => {
    const root = corpusOf({
      "a.md": "# Alpha\n\nQuartz crystals.\n",
      "b.md": "# Beta\n\nBasalt.\n",
    });
    const embeddings = new HashingEmbeddings();
    const source = createCorpusSource({ root, embeddings });
    expect(await source.refresh()).toMatchObject({ added: 2, saved: true });
    const embedded = embeddings.embeddedTexts;
    await source.close();
    const tool = createSearchKnowledgeTool({ source });
    const data = await searchData(tool, { query: "basalt" });
    expect(data.hits[0]?.file).toBe("b.md");
    expect(data.warnings).toEqual([]);
    expect(embeddings.embeddedTexts).toBe(embedded);
    expect(await source.refresh()).toMatchObject({ files: 2, added: 0, changed: 0, saved: false });
  });

  it("indexDirectory puts the sidecar elsewhere and writes nothing inside root", async () => {
    const root = corpusOf({ "a.md": "# Alpha\n\nQuartz crystals.\n" });
    const elsewhere = join(temporaryFolder(), "cache", "knowledge");
    const source = createCorpusSource({ root, indexDirectory: elsewhere });
    expect(source.indexPath).toBe(join(elsewhere, CORPUS_INDEX_FILE));
    const tool = createSearchKnowledgeTool({ source });
    expect((await searchData(tool, { query: "quartz" })).hits[0]?.file).toBe("a.md");
    // A search answers first and writes the sidecar after; flush() waits for that write.
    expect(await source.flush()).toEqual({ saved: true, warnings: [] });
    expect(readdirSync(root)).toEqual(["a.md"]);
    expect(existsSync(join(elsewhere, CORPUS_INDEX_FILE))).toBe(true);
    // A second source over the same places reuses that index.
    const again = createCorpusSource({ root, indexDirectory: elsewhere });
    expect(await again.refresh()).toMatchObject({ files: 1, added: 0, saved: false, warnings: [] });
  });
});
