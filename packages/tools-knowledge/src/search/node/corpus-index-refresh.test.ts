import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Embeddings } from "../../engine/types.js";
import { HashingEmbeddings } from "../../test-support/hashing-embeddings.js";
import { createSearchKnowledgeTool, type SearchKnowledgeToolData } from "../search-knowledge.js";
import { type CorpusSourceOptions, createCorpusSource } from "./index.js";
import { decodeIndex, encodeIndex } from "./internal/index-file.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf, write } = useCorpusFolders("agentool-corpus-refresh-");

/** Sets a whole-second mtime, which every file system stores exactly. */
function setTime(root: string, path: string, seconds: number): void {
  utimesSync(join(root, path), seconds, seconds);
}

async function searchData(
  source: ReturnType<typeof createCorpusSource>,
  query: string,
): Promise<SearchKnowledgeToolData> {
  const result = await createSearchKnowledgeTool({ source }).run({ query, limit: 50 });
  if (!result.success) throw new Error(`search failed: ${JSON.stringify(result)}`);
  return result.data;
}

const filesOf = (data: SearchKnowledgeToolData) =>
  [...new Set(data.hits.map((hit) => hit.file))].sort();

function page(title: string, sections: string[]): string {
  return `# ${title}\n\n${sections.map((text, index) => `## Part ${index + 1}\n\n${text}\n`).join("\n")}`;
}

const CORPUS = {
  "alpha.md": page("Alpha", ["The falcon hunts at dawn.", "Falcons nest on cliffs."]),
  "beta.md": page("Beta", ["The otter swims in the river.", "Otters eat fish.", "They play."]),
  "docs/gamma.md": page("Gamma", ["The lynx walks through the snow."]),
};

/** Every text each batch held, flattened. */
const textsOf = (embeddings: HashingEmbeddings, fromBatch = 0) =>
  embeddings.batches.slice(fromBatch).flat();

describe("refresh", () => {
  it("builds cold, then recognises an unchanged folder without writing", async () => {
    const root = corpusOf(CORPUS);
    const embeddings = new HashingEmbeddings();
    const source = createCorpusSource({ root, embeddings });
    const cold = await source.refresh();
    expect(cold).toMatchObject({
      files: 3,
      chunks: 6,
      added: 3,
      changed: 0,
      touched: 0,
      removed: 0,
      embedded: 6,
      pendingEmbeddings: 0,
      saved: true,
      warnings: [],
    });
    const written = statSync(source.indexPath).mtimeMs;
    const warm = await source.refresh();
    expect(warm).toMatchObject({
      files: 3,
      chunks: 6,
      added: 0,
      changed: 0,
      touched: 0,
      removed: 0,
      embedded: 0,
      saved: false,
      warnings: [],
    });
    expect(statSync(source.indexPath).mtimeMs).toBe(written);
    expect(embeddings.embeddedTexts).toBe(6);
  });

  it("picks up an added file and embeds only its chunks", async () => {
    const root = corpusOf(CORPUS);
    const embeddings = new HashingEmbeddings();
    const source = createCorpusSource({ root, embeddings });
    await source.refresh();
    const before = embeddings.batches.length;
    write(root, "docs/delta.md", page("Delta", ["The heron fishes.", "Herons wade."]));
    expect(await source.refresh()).toMatchObject({
      files: 4,
      chunks: 8,
      added: 1,
      embedded: 2,
      saved: true,
    });
    const texts = textsOf(embeddings, before);
    expect(texts).toHaveLength(2);
    expect(texts.every((text) => text.includes("Delta"))).toBe(true);
    expect(filesOf(await searchData(source, "heron"))).toEqual(["docs/delta.md"]);
  });

  it("re-chunks and re-embeds only a modified file's chunks", async () => {
    const root = corpusOf(CORPUS);
    const embeddings = new HashingEmbeddings();
    const source = createCorpusSource({ root, embeddings });
    await source.refresh();
    const before = embeddings.batches.length;
    write(root, "beta.md", page("Beta", ["The beaver builds a dam.", "Beavers gnaw wood."]));
    expect(await source.refresh()).toMatchObject({
      files: 3,
      chunks: 5,
      added: 0,
      changed: 1,
      removed: 0,
      embedded: 2,
    });
    const texts = textsOf(embeddings, before);
    expect(texts).toHaveLength(2);
    expect(texts.every((text) => text.includes("Beta"))).toBe(true);
    expect((await searchData(source, "beaver")).hits[0]?.file).toBe("beta.md");
    // The old words are gone from every passage (hybrid ranking may still list near vectors).
    const otter = await searchData(source, "otter");
    expect(otter.hits.some((hit) => hit.excerpt.includes("otter"))).toBe(false);
  });

  it("drops a deleted file", async () => {
    const root = corpusOf(CORPUS);
    const source = createCorpusSource({ root });
    await source.refresh();
    unlinkSync(join(root, "docs/gamma.md"));
    expect(await source.refresh()).toMatchObject({ files: 2, chunks: 5, removed: 1, saved: true });
    expect((await searchData(source, "lynx")).empty_reason).toBe("no_match");
    rmSync(join(root, "alpha.md"));
    rmSync(join(root, "beta.md"));
    expect(await source.refresh()).toMatchObject({ files: 0, chunks: 0, removed: 2 });
    expect((await searchData(source, "falcon")).empty_reason).toBe("empty_corpus");
  });

  it("keeps a renamed file's vectors (same bytes: no embedding call)", async () => {
    const root = corpusOf(CORPUS);
    const embeddings = new HashingEmbeddings({ synonyms: [["lynx", "bobcat"]] });
    const source = createCorpusSource({ root, embeddings });
    await source.refresh();
    const batches = embeddings.batches.length;
    mkdirSync(join(root, "archive"));
    renameSync(join(root, "docs/gamma.md"), join(root, "archive/gamma-old.md"));
    expect(await source.refresh()).toMatchObject({
      files: 3,
      chunks: 6,
      added: 1,
      removed: 1,
      embedded: 0,
      pendingEmbeddings: 0,
      saved: true,
    });
    expect(embeddings.batches.length).toBe(batches);
    expect(filesOf(await searchData(source, "lynx"))).toEqual(["archive/gamma-old.md"]);
    // The kept vectors still answer: "bobcat" is only a synonym the embedder knows.
    expect(filesOf(await searchData(source, "bobcat"))).toEqual(["archive/gamma-old.md"]);
    // And they survive a restart (they were saved under the new path).
    const restarted = createCorpusSource({ root, embeddings });
    expect(await restarted.refresh()).toMatchObject({
      added: 0,
      embedded: 0,
      pendingEmbeddings: 0,
    });
    expect(filesOf(await searchData(restarted, "bobcat"))).toEqual(["archive/gamma-old.md"]);
  });

  it("re-hashes a touched file but neither re-chunks nor re-embeds it", async () => {
    const root = corpusOf(CORPUS);
    const embeddings = new HashingEmbeddings();
    const source = createCorpusSource({ root, embeddings });
    await source.refresh();
    setTime(root, "alpha.md", 1_600_000_000);
    expect(await source.refresh()).toMatchObject({
      touched: 1,
      changed: 0,
      added: 0,
      embedded: 0,
      saved: true,
    });
    expect(embeddings.embeddedTexts).toBe(6);
    // The new time is remembered: the next refresh does not read it again.
    expect(await source.refresh()).toMatchObject({ touched: 0, saved: false });
    expect(filesOf(await searchData(source, "falcon"))).toEqual(["alpha.md"]);
  });

  it("recognises unchanged files by size + mtime without reading them", async () => {
    const root = corpusOf(CORPUS);
    setTime(root, "alpha.md", 1_600_000_000);
    const source = createCorpusSource({ root });
    await source.refresh();
    // Same size, other bytes, the old time back: only a read would notice.
    const original = readFileSync(join(root, "alpha.md"), "utf8");
    const swapped = original.replace("falcon", "condor");
    expect(swapped.length).toBe(original.length);
    writeFileSync(join(root, "alpha.md"), swapped);
    setTime(root, "alpha.md", 1_600_000_000);
    expect(await source.refresh()).toMatchObject({
      added: 0,
      changed: 0,
      touched: 0,
      saved: false,
    });
    expect((await searchData(source, "condor")).empty_reason).toBe("no_match");
    // Also in a fresh process-like source reading the sidecar.
    expect((await searchData(createCorpusSource({ root }), "condor")).empty_reason).toBe(
      "no_match",
    );
    // A real time change makes it read: then the new word is found.
    setTime(root, "alpha.md", 1_600_000_100);
    expect(await source.refresh()).toMatchObject({ changed: 1 });
    expect(filesOf(await searchData(source, "condor"))).toEqual(["alpha.md"]);
  });

  it("drops a file that turned binary and takes in one that turned text", async () => {
    const root = corpusOf(CORPUS);
    writeFileSync(join(root, "blob.md"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    const source = createCorpusSource({ root });
    expect(await source.refresh()).toMatchObject({ files: 3, added: 3 });
    writeFileSync(join(root, "alpha.md"), Buffer.from([0, 1, 2, 3]));
    write(root, "blob.md", "# Blob\n\nNow a page about the pangolin.\n");
    const report = await source.refresh();
    expect(report).toMatchObject({ files: 3, added: 1, removed: 1 });
    expect(report.warnings).toEqual([expect.stringContaining("skipped as binary: alpha.md")]);
    expect((await searchData(source, "pangolin")).hits[0]?.file).toBe("blob.md");
    expect((await searchData(source, "falcon")).empty_reason).toBe("no_match");
  });

  it("does all of it in one refresh: add, modify, delete, rename, touch", async () => {
    const root = corpusOf({ ...CORPUS, "same.md": page("Same", ["The ibis stands."]) });
    const embeddings = new HashingEmbeddings();
    const source = createCorpusSource({ root, embeddings });
    await source.refresh();
    const before = embeddings.batches.length;
    write(root, "new.md", page("New", ["The newt.", "The toad."]));
    write(root, "alpha.md", page("Alpha", ["Only one part now."]));
    rmSync(join(root, "beta.md"));
    renameSync(join(root, "docs/gamma.md"), join(root, "gamma.md"));
    setTime(root, "same.md", 1_600_000_000);
    expect(await source.refresh()).toMatchObject({
      files: 4,
      chunks: 5,
      added: 2,
      changed: 1,
      touched: 1,
      removed: 2,
      embedded: 3,
    });
    const texts = textsOf(embeddings, before);
    expect(texts.filter((text) => text.includes("New")).length).toBe(2);
    expect(texts.filter((text) => text.includes("Alpha")).length).toBe(1);
    expect(texts).toHaveLength(3);
  });
});

/** An embedder whose fingerprint shows only its class: the vector length is noticed at search. */
class OpaqueEmbeddings implements Embeddings {
  private readonly inner: HashingEmbeddings;
  constructor(dimensions: number) {
    this.inner = new HashingEmbeddings({ dimensions });
  }
  embedDocuments(documents: string[]): Promise<number[][]> {
    return this.inner.embedDocuments(documents);
  }
  embedQuery(document: string): Promise<number[]> {
    return this.inner.embedQuery(document);
  }
  get embeddedTexts(): number {
    return this.inner.embeddedTexts;
  }
}

describe("fingerprint change", () => {
  async function rebuiltBy(
    first: Partial<CorpusSourceOptions>,
    second: Partial<CorpusSourceOptions>,
    reason: string,
  ) {
    const root = corpusOf(CORPUS);
    expect(await createCorpusSource({ root, ...first }).refresh()).toMatchObject({ added: 3 });
    const warnings: string[] = [];
    const source = createCorpusSource({
      root,
      ...second,
      onWarn: (message) => warnings.push(message),
    });
    const report = await source.refresh();
    expect(report).toMatchObject({
      files: 3,
      chunks: expect.any(Number),
      added: 3,
      changed: 0,
      saved: true,
    });
    expect(report.warnings).toEqual([expect.stringContaining("The knowledge index was rebuilt")]);
    expect(report.warnings[0]).toContain(reason);
    expect(warnings).toEqual(report.warnings);
    // Clean from then on: a third source with the second configuration reuses it.
    const third = createCorpusSource({ root, ...second });
    expect(await third.refresh()).toMatchObject({ added: 0, warnings: [], saved: false });
    return report;
  }

  it("re-indexes everything when the embedder's model changes", async () => {
    const second = new HashingEmbeddings({ model: "other-model" });
    const report = await rebuiltBy(
      { embeddings: new HashingEmbeddings({ model: "first-model" }) },
      { embeddings: second },
      "the embedder changed",
    );
    expect(report.embedded).toBe(6);
    expect(second.embeddedTexts).toBe(6);
  });

  it("re-indexes everything when the embedder's dimensions change", async () => {
    const second = new HashingEmbeddings({ dimensions: 64 });
    const report = await rebuiltBy(
      { embeddings: new HashingEmbeddings({ dimensions: 32 }) },
      { embeddings: second },
      '"dimensions":64',
    );
    expect(report.embedded).toBe(6);
  });

  it("re-indexes everything when maxChunkCharacters changes", async () => {
    const report = await rebuiltBy({}, { maxChunkCharacters: 200 }, "the chunk size changed");
    expect(report.embedded).toBe(0);
  });

  it("re-indexes when BM25-only becomes hybrid, and back", async () => {
    const embeddings = new HashingEmbeddings();
    const report = await rebuiltBy({}, { embeddings }, "the embedder changed (null →");
    expect(report.embedded).toBe(6);
    await rebuiltBy({ embeddings: new HashingEmbeddings() }, {}, "→ null)");
  });

  it("re-embeds everything when an opaque embedder's vector length changes", async () => {
    const root = corpusOf(CORPUS);
    const first = new OpaqueEmbeddings(16);
    expect(await createCorpusSource({ root, embeddings: first }).refresh()).toMatchObject({
      embedded: 6,
    });
    const second = new OpaqueEmbeddings(32);
    const source = createCorpusSource({ root, embeddings: second });
    const data = await searchData(source, "otter");
    expect(filesOf(data)).toEqual(["beta.md"]);
    expect(data.warnings).toEqual([expect.stringContaining("changed length (16 → 32)")]);
    expect(second.embeddedTexts).toBe(6);
    await source.flush();
    const stored = decodeIndex(readFileSync(source.indexPath));
    expect(stored.dimension).toBe(32);
    expect(stored.files.every((file) => file.missing.length === 0)).toBe(true);
    expect(await source.refresh()).toMatchObject({
      embedded: 0,
      pendingEmbeddings: 0,
      warnings: [],
    });
  });
});

describe("a damaged index is rebuilt with a warning, never a crash", () => {
  const damages: Array<[string, (path: string) => void, string]> = [
    [
      "bytes flipped in the middle",
      (path) => {
        const bytes = readFileSync(path);
        for (let at = bytes.length >> 1; at < (bytes.length >> 1) + 8; at += 1) {
          bytes[at] = (bytes[at] as number) ^ 0xff;
        }
        writeFileSync(path, bytes);
      },
      "fails its checksum",
    ],
    ["cut in half", (path) => truncateSync(path, statSync(path).size >> 1), "is truncated"],
    [
      "an old format version",
      (path) => {
        const bytes = readFileSync(path);
        bytes.writeUInt32LE(0, 8);
        writeFileSync(path, bytes);
      },
      "format version 0",
    ],
    [
      "garbage",
      (path) => writeFileSync(path, "this is not an index at all, just text\n".repeat(20)),
      "not an agentool knowledge index",
    ],
    ["zero length", (path) => writeFileSync(path, ""), "not an agentool knowledge index"],
    [
      "a file table that disagrees with the BM25 index",
      (path) => {
        const stored = decodeIndex(readFileSync(path));
        stored.files = stored.files.slice(1);
        writeFileSync(path, encodeIndex(stored));
      },
      "disagree",
    ],
  ];

  it.each(damages)("%s", async (_name, damage, reason) => {
    const root = corpusOf(CORPUS);
    const embeddings = new HashingEmbeddings();
    const first = createCorpusSource({ root, embeddings });
    await first.refresh();
    damage(first.indexPath);
    const source = createCorpusSource({ root, embeddings: new HashingEmbeddings() });
    const data = await searchData(source, "otter");
    expect(filesOf(data)).toEqual(["beta.md"]);
    expect(data.warnings).toEqual([expect.stringContaining("The knowledge index was rebuilt")]);
    expect(data.warnings[0]).toContain(reason);
    expect(await source.flush()).toEqual({ saved: true, warnings: [] });
    // Rebuilt whole and saved: it decodes, and the next source reads it without a warning.
    const stored = decodeIndex(readFileSync(source.indexPath));
    expect(stored.files.length).toBe(3);
    expect(await createCorpusSource({ root, embeddings }).refresh()).toMatchObject({
      files: 3,
      added: 0,
      embedded: 0,
      warnings: [],
    });
  });

  it("an index.bin that is a folder: searches still answer, with a warning", async () => {
    const root = corpusOf(CORPUS);
    const source = createCorpusSource({ root });
    mkdirSync(source.indexPath, { recursive: true });
    const data = await searchData(source, "otter");
    expect(filesOf(data)).toEqual(["beta.md"]);
    // The write follows the answer; its failure is told by flush() (and onWarn, and the next search).
    expect(await source.flush()).toEqual({
      saved: false,
      warnings: [
        expect.stringMatching(
          /^The knowledge index could not be saved \(.*\); it is kept in memory only\.$/,
        ),
      ],
    });
    expect(filesOf(await searchData(source, "lynx"))).toEqual(["docs/gamma.md"]);
    expect(filesOf(await searchData(createCorpusSource({ root }), "lynx"))).toEqual([
      "docs/gamma.md",
    ]);
  });

  it("a sidecar another source wrote meanwhile is adopted without re-reading the files", async () => {
    const root = corpusOf(CORPUS);
    const embeddings = new HashingEmbeddings();
    const writer = createCorpusSource({ root, embeddings });
    const reader = createCorpusSource({ root, embeddings });
    await writer.refresh();
    expect(await reader.refresh()).toMatchObject({ files: 3, added: 0, embedded: 0 });
    write(root, "new.md", "# New\n\nThe newt.\n");
    expect(await writer.refresh()).toMatchObject({ added: 1, embedded: 1, saved: true });
    const embedded = embeddings.embeddedTexts;
    expect(await reader.refresh()).toMatchObject({ files: 4, added: 0, embedded: 0, saved: false });
    expect(embeddings.embeddedTexts).toBe(embedded);
    expect((await searchData(reader, "newt")).hits[0]?.file).toBe("new.md");
  });

  it("a sidecar damaged while the source is open is ignored, then replaced", async () => {
    const root = corpusOf(CORPUS);
    const source = createCorpusSource({ root });
    await source.refresh();
    writeFileSync(source.indexPath, "garbage");
    // The open source keeps its whole in-memory index and answers without a warning…
    const data = await searchData(source, "falcon");
    expect(filesOf(data)).toEqual(["alpha.md"]);
    // …and its next save replaces the garbage.
    write(root, "new.md", "# New\n\nThe newt.\n");
    expect(await source.refresh()).toMatchObject({ added: 1, saved: true });
    expect(decodeIndex(readFileSync(source.indexPath)).files.length).toBe(4);
  });
});

describe("the cold build's BM25 worker", () => {
  const WORDS = ["falcon", "otter", "lynx", "river", "cliff", "snow", "dawn", "nest", "fish"];
  const manyFiles = () => {
    const files: Record<string, string> = {};
    for (let file = 0; file < 160; file += 1) {
      const sections = Array.from({ length: 6 }, (_, section) =>
        Array.from(
          { length: 40 },
          (_, word) => WORDS[(file * 7 + section * 3 + word * word) % WORDS.length],
        ).join(" "),
      );
      files[`notes/${String(file).padStart(3, "0")}.md`] = page(`Note ${file}`, sections);
    }
    return files;
  };
  const ranked = async (source: ReturnType<typeof createCorpusSource>, query: string) =>
    (await searchData(source, query)).hits.map((hit) => `${hit.file}:${hit.start_line}`);

  it("builds the same index on a worker as on this thread, saved and reloaded the same", async () => {
    const files = manyFiles();
    const onWorker = createCorpusSource({ root: corpusOf(files), indexWorkerMinimumBytes: 1 });
    const here = createCorpusSource({ root: corpusOf(files), indexWorker: false });
    const workerReport = await onWorker.refresh();
    const hereReport = await here.refresh();
    expect(workerReport.builtOnWorker).toBe(true);
    expect(hereReport.builtOnWorker).toBe(false);
    expect(workerReport.chunks).toBe(hereReport.chunks);
    for (const query of ["falcon river", "lynx", "otter snow dawn", "Note 42", "cliff nest fish"]) {
      const expected = await ranked(here, query);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(await ranked(onWorker, query), query).toEqual(expected);
      const reopened = createCorpusSource({ root: onWorker.root });
      expect(await ranked(reopened, query), query).toEqual(expected);
      await reopened.close();
    }
    await onWorker.close();
    await here.close();
  });

  it("stays on this thread for a corpus under the minimum, and for an index that exists", async () => {
    const root = corpusOf(CORPUS);
    const source = createCorpusSource({ root });
    expect((await source.refresh()).builtOnWorker).toBe(false);
    write(root, "new.md", page("New", ["A heron waits."]));
    const again = createCorpusSource({ root, indexWorkerMinimumBytes: 0 });
    const report = await again.refresh();
    expect(report.builtOnWorker).toBe(false);
    expect(filesOf(await searchData(again, "heron"))).toEqual(["new.md"]);
    await source.close();
    await again.close();
  });
});
