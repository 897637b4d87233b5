import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createKnowledgeResources } from "./knowledge-resources.js";
import { temporaryDirectory } from "./test-support/spawn-server.js";

describe("createKnowledgeResources", () => {
  it("gives one corpus source per folder and index, releases the others, and closes after the last save", async () => {
    const first = temporaryDirectory({ "a.md": "# Alpha\n\nThe first folder.\n" });
    const second = temporaryDirectory({ "b.md": "# Beta\n\nThe second folder.\n" });
    const cache = temporaryDirectory();
    const warnings: string[] = [];
    const resources = createKnowledgeResources({ onWarn: (message) => warnings.push(message) });
    try {
      const a = resources.corpus(realpathSync(first.path), undefined);
      expect(resources.corpus(realpathSync(first.path), undefined)).toBe(a);
      const elsewhere = resources.corpus(realpathSync(first.path), join(cache.path, "a"));
      expect(elsewhere).not.toBe(a);
      expect(elsewhere.indexPath).toBe(join(cache.path, "a", "index.bin"));
      const b = resources.corpus(realpathSync(second.path), join(cache.path, "b"));
      const report = await b.refresh();
      expect(report.files).toBe(1);
      await resources.release(b);
      // Released sources are gone from the cache: asking again gives a new one.
      expect(resources.corpus(realpathSync(first.path), undefined)).not.toBe(a);
      expect(resources.corpus(realpathSync(second.path), join(cache.path, "b"))).toBe(b);
      await resources.close();
      expect(existsSync(join(cache.path, "b", "index.bin"))).toBe(true);
      expect(existsSync(join(first.path, ".knowledge"))).toBe(false);
      expect(resources.memory.searchesText).toBe(true);
      expect(warnings).toEqual([]);
    } finally {
      await resources.close();
      for (const directory of [first, second, cache]) directory.cleanup();
    }
  });
});
