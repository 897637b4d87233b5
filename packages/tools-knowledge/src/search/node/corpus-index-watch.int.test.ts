import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSearchKnowledgeTool } from "../search-knowledge.js";
import { type CorpusSource, createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf, write } = useCorpusFolders("agentool-corpus-watch-");
const sources: CorpusSource[] = [];

afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
});

function open(root: string, options: { watch?: boolean; rescanIntervalMs?: number } = {}) {
  const source = createCorpusSource({ root, ...options });
  sources.push(source);
  return source;
}

async function filesFound(source: CorpusSource, query: string): Promise<string[]> {
  const result = await createSearchKnowledgeTool({ source }).run({ query, limit: 50 });
  if (!result.success) throw new Error(`search failed: ${JSON.stringify(result)}`);
  return [...new Set(result.data.hits.map((hit) => hit.file))].sort();
}

const CORPUS = {
  "alpha.md": "# Alpha\n\nThe falcon hunts at dawn.\n",
  "docs/beta.md": "# Beta\n\nThe otter swims in the river.\n",
};

describe("folder watching", () => {
  it("skips the walk while no watcher saw a change, and checks only what the watchers named after one", async () => {
    const root = corpusOf(CORPUS);
    const source = open(root);
    expect(await source.refresh()).toMatchObject({ walked: true, added: 2 });
    expect(await source.refresh()).toMatchObject({ walked: false, files: 2, saved: false });
    expect(await source.refresh()).toMatchObject({ walked: false, files: 2 });
    write(root, "docs/beta.md", "# Beta\n\nThe otter and the heron.\n");
    expect(await source.refresh()).toMatchObject({ walked: false, eventPaths: 1, changed: 1 });
    expect(await source.refresh()).toMatchObject({ walked: false, eventPaths: 0 });
    // More named entries than a refresh checks one by one: a walk.
    for (let index = 0; index < 300; index += 1) write(root, `many/n${index}.md`, `# N ${index}\n`);
    write(root, "alpha.md", "# Alpha\n\nThe falcon and the heron.\n");
    expect(await source.refresh()).toMatchObject({ walked: true, added: 300, changed: 1 });
    for (let index = 0; index < 300; index += 1) write(root, `many/n${index}.md`, `# M ${index}\n`);
    expect(await source.refresh()).toMatchObject({ walked: true, changed: 300 });
  });

  it("sees every kind of change the moment it is made: add, modify, delete, rename, touch, a new folder", async () => {
    const root = corpusOf(CORPUS);
    const source = open(root);
    expect(await filesFound(source, "falcon")).toEqual(["alpha.md"]);
    write(root, "gamma.md", "# Gamma\n\nThe lynx walks through the snow.\n");
    expect(await filesFound(source, "lynx")).toEqual(["gamma.md"]);
    write(root, "alpha.md", "# Alpha\n\nThe falcon and the lynx.\n");
    expect(await filesFound(source, "lynx")).toEqual(["alpha.md", "gamma.md"]);
    rmSync(join(root, "gamma.md"));
    expect(await filesFound(source, "lynx")).toEqual(["alpha.md"]);
    renameSync(join(root, "docs/beta.md"), join(root, "docs/delta.md"));
    expect(await filesFound(source, "otter")).toEqual(["docs/delta.md"]);
    utimesSync(join(root, "alpha.md"), 1_000_000, 1_000_000);
    expect(await source.refresh()).toMatchObject({ walked: false, eventPaths: 1, touched: 1 });
    // A folder made after the last walk, and a file in it, in one go.
    write(root, "new/deeper/epsilon.md", "# Epsilon\n\nThe heron waits.\n");
    expect(await filesFound(source, "heron")).toEqual(["new/deeper/epsilon.md"]);
    // ...and that new folder is watched from then on.
    write(root, "new/deeper/epsilon.md", "# Epsilon\n\nThe heron and the crane.\n");
    expect(await filesFound(source, "crane")).toEqual(["new/deeper/epsilon.md"]);
  });

  it("walks when a named entry is a folder: one removed, one renamed, one made", async () => {
    const root = corpusOf({ ...CORPUS, "docs/deep/gamma.md": "# Gamma\n\nThe lynx walks.\n" });
    const source = open(root);
    expect(await filesFound(source, "lynx")).toEqual(["docs/deep/gamma.md"]);
    renameSync(join(root, "docs/deep"), join(root, "docs/deeper"));
    expect(await filesFound(source, "lynx")).toEqual(["docs/deeper/gamma.md"]);
    rmSync(join(root, "docs"), { recursive: true });
    expect(await filesFound(source, "lynx")).toEqual([]);
    expect(await filesFound(source, "otter")).toEqual([]);
    expect(await source.refresh()).toMatchObject({ files: 1 });
    mkdirSync(join(root, "later"));
    write(root, "later/iota.md", "# Iota\n\nThe stoat runs.\n");
    expect(await filesFound(source, "stoat")).toEqual(["later/iota.md"]);
    // The new folder is watched: a change in it is placed without a walk.
    write(root, "later/iota.md", "# Iota\n\nThe stoat and the weasel run.\n");
    expect(await source.refresh()).toMatchObject({ walked: false, eventPaths: 1, changed: 1 });
  });

  it("sees a change another process made", async () => {
    const root = corpusOf(CORPUS);
    const source = open(root);
    expect(await filesFound(source, "falcon")).toEqual(["alpha.md"]);
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        `require("node:fs").writeFileSync(${JSON.stringify(join(root, "docs/zeta.md"))}, "# Zeta\\n\\nThe ibex climbs.\\n")`,
      ],
      { stdio: "ignore" },
    );
    expect(child.status).toBe(0);
    expect(await filesFound(source, "ibex")).toEqual(["docs/zeta.md"]);
  });

  it("watches the folder of a linked file's target", async () => {
    // The target lies in a folder the walk lists too (since issue 27 a link to a hidden folder's
    // file is not followed at all), so it is found under both paths.
    const root = corpusOf({
      ...CORPUS,
      "store/notes/theta.md": "# Theta\n\nThe mole digs.\n",
    });
    symlinkSync(join(root, "store/notes/theta.md"), join(root, "theta.md"));
    const source = open(root);
    expect(await filesFound(source, "mole")).toEqual(["store/notes/theta.md", "theta.md"]);
    writeFileSync(join(root, "store/notes/theta.md"), "# Theta\n\nThe vole digs.\n");
    expect(await filesFound(source, "vole")).toEqual(["store/notes/theta.md", "theta.md"]);
  });

  it("ignores changes to hidden entries (its own sidecar among them)", async () => {
    const root = corpusOf(CORPUS);
    const source = open(root);
    await source.refresh();
    write(root, ".draft.md", "# Draft\n\nNot indexed.\n");
    expect(await source.refresh()).toMatchObject({ walked: false });
  });

  it("walks on every search with watch: false, and after rescanIntervalMs", async () => {
    const root = corpusOf(CORPUS);
    const unwatched = open(root, { watch: false });
    await unwatched.refresh();
    expect(await unwatched.refresh()).toMatchObject({ walked: true, added: 0, saved: false });
    const rescanning = open(root, { rescanIntervalMs: 0 });
    await rescanning.refresh();
    expect(await rescanning.refresh()).toMatchObject({ walked: true, added: 0 });
  });

  it("walks again after close() and with a fresh source (watchers are per source)", async () => {
    const root = corpusOf(CORPUS);
    const source = open(root);
    await source.refresh();
    await source.close();
    expect(await source.refresh()).toMatchObject({ walked: true, added: 0, files: 2 });
    expect(await source.refresh()).toMatchObject({ walked: false });
  });
});
