import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSearchKnowledgeTool } from "../search-knowledge.js";
import { CORPUS_INDEX_FILE, CORPUS_INDEX_FOLDER, createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf, temporaryFolder } = useCorpusFolders("agentool-corpus-sidecar-");

/** Rejects after `ms` (the search must answer well before). */
function deadline(ms: number): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
  });
}

describe("the sidecar stays inside the corpus root", () => {
  it("never reads an index.bin that is a link (to /dev/zero): it answers, with the index rebuilt", async () => {
    const root = corpusOf({ "a.md": "# Alpha\n\nQuartz crystals.\n" });
    mkdirSync(join(root, CORPUS_INDEX_FOLDER));
    symlinkSync("/dev/zero", join(root, CORPUS_INDEX_FOLDER, CORPUS_INDEX_FILE));
    const warned: string[] = [];
    const source = createCorpusSource({ root, onWarn: (message) => warned.push(message) });
    const tool = createSearchKnowledgeTool({ source });
    const result = await Promise.race([tool.run({ query: "quartz" }), deadline(5_000)]);
    if (!result.success) throw new Error(JSON.stringify(result));
    expect(result.data.hits.map((hit) => hit.file)).toEqual(["a.md"]);
    expect(result.data.warnings.join(" ")).toMatch(/knowledge index was rebuilt/);
    // The save replaces the link with a real index file; /dev/zero is never written.
    expect(await source.flush()).toEqual({ saved: true, warnings: [] });
    const written = lstatSync(join(root, CORPUS_INDEX_FOLDER, CORPUS_INDEX_FILE));
    expect(written.isFile()).toBe(true);
    await source.close();
  });

  it("never reads an index.bin larger than the cap (a sparse 4 GiB + 1 file): rebuilt with a warning", async () => {
    const root = corpusOf({ "a.md": "# Alpha\n\nQuartz crystals.\n" });
    mkdirSync(join(root, CORPUS_INDEX_FOLDER));
    writeFileSync(join(root, CORPUS_INDEX_FOLDER, CORPUS_INDEX_FILE), "");
    truncateSync(join(root, CORPUS_INDEX_FOLDER, CORPUS_INDEX_FILE), 4 * 1024 * 1024 * 1024 + 1);
    const source = createCorpusSource({ root });
    const report = await source.refresh();
    expect(report).toMatchObject({ files: 1, added: 1, saved: true });
    expect(report.warnings.join(" ")).toMatch(/rebuilt: the index file is larger than/);
    await source.close();
  });

  it("never writes through a .knowledge link to a folder outside the root", async () => {
    const root = corpusOf({ "a.md": "# Alpha\n\nQuartz crystals.\n" });
    const outside = temporaryFolder();
    symlinkSync(outside, join(root, CORPUS_INDEX_FOLDER));
    const source = createCorpusSource({ root });
    const tool = createSearchKnowledgeTool({ source });
    const result = await tool.run({ query: "quartz" });
    if (!result.success) throw new Error(JSON.stringify(result));
    expect(result.data.hits.map((hit) => hit.file)).toEqual(["a.md"]);
    const flushed = await source.flush();
    expect(flushed.saved).toBe(false);
    expect(flushed.warnings.join(" ")).toMatch(/kept in memory only/);
    expect(readdirSync(outside)).toEqual([]);
    // Searches still answer from memory.
    const again = await tool.run({ query: "quartz" });
    if (!again.success) throw new Error(JSON.stringify(again));
    expect(again.data.hits.map((hit) => hit.file)).toEqual(["a.md"]);
    await source.close();
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(root, CORPUS_INDEX_FOLDER)).isSymbolicLink()).toBe(true);
  });

  it("never creates a folder through a dangling .knowledge link", async () => {
    const root = corpusOf({ "a.md": "# Alpha\n\nQuartz crystals.\n" });
    const target = join(temporaryFolder(), "not-yet");
    symlinkSync(target, join(root, CORPUS_INDEX_FOLDER));
    const source = createCorpusSource({ root });
    expect(await source.refresh()).toMatchObject({ files: 1, added: 1, saved: false });
    expect(existsSync(target)).toBe(false);
    await source.close();
  });

  it("never reads an index through a .knowledge link to a folder outside the root", async () => {
    const root = corpusOf({ "a.md": "# Alpha\n\nQuartz crystals.\n" });
    const elsewhere = temporaryFolder();
    // A real index of another corpus, written by a source whose index folder is `elsewhere`.
    const other = corpusOf({ "b.md": "# Beta\n\nBasalt columns.\n" });
    await createCorpusSource({ root: other, indexDirectory: elsewhere }).refresh();
    expect(existsSync(join(elsewhere, CORPUS_INDEX_FILE))).toBe(true);
    symlinkSync(elsewhere, join(root, CORPUS_INDEX_FOLDER));
    const report = await createCorpusSource({ root }).refresh();
    // Built from the files (one added), not adopted from the linked index.
    expect(report).toMatchObject({ files: 1, added: 1, saved: false });
  });
});
