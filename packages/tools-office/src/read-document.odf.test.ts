import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadDocumentTool } from "./read-document.js";
import { sampleEpub, sampleOdp, sampleOds, sampleOdt } from "./test-support/odf-fixture.js";
import { readFolder } from "./test-support/read-folder.js";

const RTF =
  "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times;}}{\\stylesheet{\\s1 heading 1;}}" +
  "{\\s1\\outlinelevel0 Caf\\'e9 menu\\par}" +
  "\\pard Plain {\\b bold} and {\\i italic} text \\u8212? done.\\par" +
  "\\pard{\\listtext\\'95\\tab}\\ilvl0 First item\\par" +
  "\\pard\\intbl A\\cell B\\cell\\row\\pard\\intbl 1\\cell 2\\cell\\row\\pard After\\par}";

let folder: ReturnType<typeof readFolder>;
beforeAll(() => {
  folder = readFolder({
    "plan.odt": sampleOdt(),
    "budget.ods": sampleOds(),
    "deck.odp": sampleOdp(),
    "book.epub": sampleEpub(),
    "menu.rtf": RTF,
  });
});
afterAll(() => folder.remove());

const read = (input: Record<string, unknown>) =>
  createReadDocumentTool({ root: folder.root }).run(input);

describe("read_document — OpenDocument, EPUB, RTF", () => {
  it("reads .odt headings, nested lists, tables, links, notes, comments, code and tracked changes", async () => {
    const result = await read({ path: "plan.odt" });
    if (!result.success) throw new Error(result.error.message);
    const md = result.data.markdown;
    expect(md).toContain("# Project plan");
    expect(md).toContain("## Steps");
    expect(md).toContain("We ship **on Friday**, see [the plan](https://example.org/plan).[^1]");
    expect(md).toContain("[^1]: Weather permitting.");
    expect(md).toMatch(/^1\. Build\n {4}- Compile\n2\. Test\[comment 1\]$/m);
    expect(md).toContain("- [comment 1] Ada: Add more tests");
    expect(md).toContain("| Name | Owner |\n| --- | --- |\n| Docs | Kim |");
    expect(md).toContain("```\nlet x = 1;\nx += 1;\n```");
    expect(md).toContain("Added {++new words++} here.");
    expect(result.data.notes.join(" ")).toContain("Tracked changes");
  });

  it("reads .ods without expanding a million repeated rows; formulas, dates, merges", async () => {
    const started = performance.now();
    const result = await read({ path: "budget.ods" });
    if (!result.success) throw new Error(result.error.message);
    expect(performance.now() - started).toBeLessThan(5_000);
    const md = result.data.markdown;
    expect(md).toContain("| 1 | Budget |  |  |");
    expect(md).toContain("| 4 | Total | =SUM(B2:B3) → 1500 | 2024-03-01 |");
    expect(result.data.total).toBe(4);
    expect(result.data.sheets).toEqual([
      { name: "Budget", rows: 4, columns: 3, hidden: false },
      { name: "Other", rows: 1, columns: 1, hidden: false },
    ]);
    expect(result.data.notes.join(" ")).toContain("A1:B1");
    const other = await read({ path: "budget.ods", sheet: "other" });
    expect(other.success && other.data.markdown).toContain("| 1 | x |");
  });

  it("reads .odp slides with titles, nested bullets and notes", async () => {
    const result = await read({ path: "deck.odp" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.total).toBe(2);
    expect(result.data.markdown).toContain(
      "<!-- Slide 1 -->\n# Launch\n\n- Goals\n    - Grow\n\n### Notes\n\nSmile.",
    );
    expect(result.data.markdown).toContain("<!-- Slide 2 -->\n# Next");
  });

  it("reads an EPUB in spine order with its title", async () => {
    const result = await read({ path: "book.epub" });
    if (!result.success) throw new Error(result.error.message);
    const md = result.data.markdown;
    expect(result.data.title).toBe("The Book");
    expect(md.indexOf("# Chapter One")).toBeLessThan(md.indexOf("## Chapter Two"));
    expect(md).toContain("[here](https://example.com)");
    expect(md).toMatch(/- Alpha\n\s+- Beta/);
    expect(md).toContain("| K | V |");
  });

  it("reads RTF headings, emphasis, unicode, list items and tables", async () => {
    const result = await read({ path: "menu.rtf" });
    if (!result.success) throw new Error(result.error.message);
    const md = result.data.markdown;
    expect(md).toContain("# Café menu");
    expect(md).toContain("Plain **bold** and *italic* text — done.");
    expect(md).toContain("- First item");
    expect(md).toContain("| A | B |\n| --- | --- |\n| 1 | 2 |");
    expect(md).toContain("After");
  });
});
