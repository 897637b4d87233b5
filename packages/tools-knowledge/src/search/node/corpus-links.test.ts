import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSearchKnowledgeTool } from "../search-knowledge.js";
import { readLines } from "./corpus/corpus-excerpt.js";
import type { FileEntry } from "./corpus/corpus-state.js";
import { sha256 } from "./corpus/decode-text.js";
import { createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf, write } = useCorpusFolders("agentool-corpus-links-");

const MARKER = "zebracorn7431";

describe("links inside the corpus root", () => {
  it("never serve a secret, hidden or skipped file through a link with an innocent name", async () => {
    const root = corpusOf({
      ".env": `API_KEY=${MARKER}\n# ${MARKER} ${MARKER}\n`,
      ".git/config": `[core]\n\tsecret = ${MARKER}\n`,
      "node_modules/pkg/readme.md": `# Package\n\n${MARKER} in a skipped folder.\n`,
      "plain.md": "# Plain\n\nNothing to see here.\n",
    });
    symlinkSync(join(root, ".env"), join(root, "notes.md"));
    symlinkSync(".git/config", join(root, "gitcfg.txt"));
    symlinkSync(join(root, "node_modules", "pkg", "readme.md"), join(root, "vendored.md"));
    mkdirSync(join(root, "linked"));
    symlinkSync(join(root, ".git"), join(root, "linked", "git-folder"));
    const tool = createSearchKnowledgeTool({
      source: createCorpusSource({ root, watch: false }),
    });
    const result = await tool.run({ query: MARKER });
    if (!result.success) throw new Error(JSON.stringify(result));
    // The query is echoed back; nothing else may hold the marker.
    const { query, ...rest } = result.data;
    expect(query).toBe(MARKER);
    expect(JSON.stringify(rest)).not.toContain(MARKER);
    expect(result.data.hits).toEqual([]);
    expect(result.data.searched.documents).toBe(1);
  });

  it("still follow a link to an ordinary file inside the root", async () => {
    const root = corpusOf({ "docs/real.md": "# Real\n\nObsidian glass.\n" });
    symlinkSync(join(root, "docs", "real.md"), join(root, "alias.md"));
    const tool = createSearchKnowledgeTool({
      source: createCorpusSource({ root, watch: false }),
    });
    const result = await tool.run({ query: "obsidian" });
    if (!result.success) throw new Error(JSON.stringify(result));
    expect(result.data.hits.map((hit) => hit.file).sort()).toEqual(["alias.md", "docs/real.md"]);
  });

  it("read no excerpt from a file swapped for a link to a secret after it was indexed", async () => {
    const indexed = "# Notes\n\nGranite quarry.\n";
    const root = realpathSync(corpusOf({ "notes.md": indexed }));
    write(root, ".env", `GRANITE=${MARKER}\n`);
    const entry = entryOf("notes.md", Buffer.from(indexed));
    expect(await readLines(root, entry)).toEqual(["# Notes", "", "Granite quarry.", ""]);
    // Between two walks the file becomes a link to the secret: the excerpt read refuses it.
    rmSync(join(root, "notes.md"));
    symlinkSync(join(root, ".env"), join(root, "notes.md"));
    expect(await readLines(root, entry)).toBeUndefined();
    // Or a plain file with other bytes than those indexed (same size): refused too.
    rmSync(join(root, "notes.md"));
    writeFileSync(join(root, "notes.md"), indexed.replace("Granite", MARKER.slice(0, 7)));
    expect(await readLines(root, entry)).toBeUndefined();
  });
});

/** An index entry for `path` as indexing `bytes` records it. */
function entryOf(path: string, bytes: Buffer): FileEntry {
  return {
    path,
    size: bytes.length,
    mtime_ms: 0,
    sha256: sha256(bytes),
    id_base: 0,
    chunks: [],
    missing: new Set(),
    vectors: undefined,
  };
}
