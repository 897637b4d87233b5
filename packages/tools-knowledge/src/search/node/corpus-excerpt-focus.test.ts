import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSearchKnowledgeTool, type SearchKnowledgeToolData } from "../search-knowledge.js";
import { createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { corpusOf } = useCorpusFolders("agentool-corpus-excerpt-focus-");

/** A long text nobody here wrote: Debian's copy of the Apache License 2.0 (base-files). */
const LICENCE = readFileSync("/usr/share/common-licenses/Apache-2.0", "utf8");
const SENTENCE = "The staging cluster rotates its TLS certificates every Tuesday at noon.";

/** Lines `start`…`end` of a file as `read_file` numbers them. */
function linesOf(root: string, file: string, start: number, end: number): string {
  return readFileSync(join(root, file), "utf8")
    .split("\n")
    .slice(start - 1, end)
    .join("\n");
}

describe("excerpts show the match (issue 30)", () => {
  it("a sentence appended to a long file is in the excerpt, and the reference names exactly the lines shown", async () => {
    // A README whose last section (the licence's opening lines, one chunk of ~1,300 characters)
    // gets a sentence appended at its end, past the 700 characters an excerpt holds.
    const licenceOpening = LICENCE.split("\n").slice(0, 22).join("\n").trim();
    const root = corpusOf({
      "LICENSE.md": `# Deploy kit\n\nScripts for the deploy pipeline.\n\n## License\n\n${licenceOpening}\n${SENTENCE}\n`,
      "notes.md": "# Notes\n\nCertificates are renewed by the platform team.\n",
      "other.md": `# Other\n\n${LICENCE.slice(0, 3_000)}\n`,
    });
    const tool = createSearchKnowledgeTool({ source: createCorpusSource({ root }) });
    const result = await tool.run({ query: SENTENCE });
    if (!result.success) throw new Error(JSON.stringify(result));
    const data: SearchKnowledgeToolData = result.data;
    const hit = data.hits[0];
    expect(hit?.file).toBe("LICENSE.md");
    expect(hit?.excerpt).toContain(SENTENCE);
    expect(hit?.excerpt.length).toBeLessThanOrEqual(700);
    expect(hit?.excerpt_truncated).toBe(true); // the passage held more lines than are shown
    expect(hit?.reference).toBe(`LICENSE.md:${hit?.start_line}-${hit?.end_line}`);
    expect(hit?.excerpt).toBe(
      linesOf(root, "LICENSE.md", hit?.start_line ?? 0, hit?.end_line ?? 0),
    );
    // The model reads it too: the rendered text carries the sentence under the reference.
    const text = tool.renderResult(result);
    expect(text).toContain(hit?.reference);
    expect(text).toContain(SENTENCE);
  });
});
