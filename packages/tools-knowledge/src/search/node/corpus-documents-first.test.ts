import { describe, expect, it } from "vitest";
import { createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf } = useCorpusFolders("agentool-corpus-documents-first-");

const section = (title: string, body: string) => `## ${title}\n\n${body}\n\n`;

describe("documents first (issue 30)", () => {
  it("lists each file's best passage before a file's second passage, files by whole-file evidence", async () => {
    const root = corpusOf({
      // Many passages about herons: every one of them matches better than the pond's one line.
      "herons.md": `# Herons\n\n${Array.from({ length: 6 }, (_, index) =>
        section(`Heron habits ${index}`, "Herons wade; a heron hunts fish in the marsh at dawn."),
      ).join("")}`,
      "pond.md": "# Pond\n\nA heron visits the pond.\n",
      "otters.md": "# Otters\n\nOtters swim.\n",
    });
    const source = createCorpusSource({ root });
    try {
      const result = await source.search(
        { query: "heron marsh", offset: 1, limit: 10 },
        { signal: new AbortController().signal },
      );
      const files = result.hits.map((hit) => hit.file);
      expect(files.slice(0, 2)).toEqual(["herons.md", "pond.md"]);
      expect(files.slice(2).every((file) => file === "herons.md")).toBe(true);
      expect(files).not.toContain("otters.md");
    } finally {
      await source.close();
    }
  });
});
