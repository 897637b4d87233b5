import { describe, expect, it } from "vitest";
import { createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf } = useCorpusFolders("agentool-corpus-word-pairs-");

describe("word pairs in the document order (issue 30)", () => {
  it("ranks the file that says the query's words side by side above one that only holds them apart", async () => {
    const root = corpusOf({
      // More of both words, but never "memory barrier": first by every other evidence.
      "apart.md":
        "# Notes\n\nThe memory is slow. A barrier stands in the road. Memory fades; the barrier stays.\n",
      "together.md": "# Notes\n\nA memory barrier orders the stores before it.\n",
      "other-1.md": "# Cooking\n\nBoil the pasta.\n",
      "other-2.md": "# Gardening\n\nWater the roses.\n",
      "other-3.md": "# Travel\n\nPack light.\n",
    });
    const source = createCorpusSource({ root });
    const context = { signal: new AbortController().signal };
    try {
      const pair = await source.search({ query: "memory barrier", offset: 1, limit: 5 }, context);
      expect(pair.hits.map((hit) => hit.file)).toEqual(["together.md", "apart.md"]);
      // Without a pair in the query, the file with more of the words comes first.
      const words = await source.search({ query: "barrier", offset: 1, limit: 5 }, context);
      expect(words.hits.map((hit) => hit.file)).toEqual(["apart.md", "together.md"]);
      // The excerpt of a file read for its pairs is its text as read for the page.
      expect(pair.hits[0]?.excerpt).toContain("A memory barrier orders the stores");
    } finally {
      await source.close();
    }
  });
});
