import { contentToText } from "@agentool/contract";
import PptxGenJS from "pptxgenjs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadDocumentTool } from "./read-document.js";
import { simplePdf } from "./test-support/pdf-fixture.js";
import { readFolder } from "./test-support/read-folder.js";

async function samplePptx(): Promise<Uint8Array> {
  type Deck = {
    addSlide(): {
      addText(text: unknown, options: Record<string, unknown>): void;
      addNotes(text: string): void;
      addTable(rows: unknown, options: Record<string, unknown>): void;
    };
    write(options: { outputType: string }): Promise<unknown>;
  };
  const Presentation = PptxGenJS as unknown as new () => Deck;
  const deck = new Presentation();
  const first = deck.addSlide();
  first.addText("Roadmap", { x: 0.5, y: 0.3, w: 9, h: 1 });
  first.addText(
    [
      { text: "Ship the reader", options: { bullet: true } },
      { text: "Tests first", options: { bullet: { indent: 20 }, indentLevel: 1 } },
    ],
    { x: 0.5, y: 1.5, w: 9, h: 2 },
  );
  first.addNotes("Say hello to the team.");
  const second = deck.addSlide();
  second.addTable(
    [
      [{ text: "Q" }, { text: "Revenue" }],
      [{ text: "Q1" }, { text: "10" }],
    ],
    { x: 0.5, y: 1, w: 6 },
  );
  const out = (await deck.write({ outputType: "uint8array" })) as Uint8Array;
  return new Uint8Array(out);
}

let folder: ReturnType<typeof readFolder>;
beforeAll(async () => {
  const png = (
    await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
      .png()
      .toBuffer()
  ).toString("base64");
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { language_info: { name: "python" } },
    cells: [
      { cell_type: "markdown", metadata: {}, source: ["# Analysis\n", "Some *notes*."] },
      {
        cell_type: "code",
        execution_count: 1,
        metadata: {},
        source: "print('hi')",
        outputs: [{ output_type: "stream", name: "stdout", text: ["hi\n"] }],
      },
      {
        cell_type: "code",
        execution_count: 2,
        metadata: {},
        source: "plot()",
        outputs: [
          {
            output_type: "display_data",
            metadata: {},
            data: { "image/png": png, "text/plain": "<Figure>" },
          },
        ],
      },
      {
        cell_type: "code",
        execution_count: 3,
        metadata: {},
        source: "1/0",
        outputs: [
          {
            output_type: "error",
            ename: "ZeroDivisionError",
            evalue: "division by zero",
            traceback: ["\u001b[31mZeroDivisionError\u001b[0m: division by zero"],
          },
        ],
      },
      {
        cell_type: "code",
        execution_count: 4,
        metadata: {},
        source: "x",
        outputs: [
          {
            output_type: "execute_result",
            execution_count: 4,
            metadata: {},
            data: { "text/plain": "y".repeat(5_000) },
          },
        ],
      },
    ],
  };
  folder = readFolder({
    "deck.pptx": await samplePptx(),
    "paper.pdf": simplePdf(
      Array.from({ length: 5 }, (_, index) => [
        `# Part ${index + 1}`,
        `Body text of page ${index + 1}`,
        "goes on here.",
        "",
        "- first point",
        "- second point",
      ]),
      "The Paper",
    ),
    "nb.ipynb": JSON.stringify(notebook),
  });
});
afterAll(() => folder.remove());

const tool = () => createReadDocumentTool({ root: folder.root });

describe("read_document — presentations", () => {
  it("reads slides with titles, bullet levels, tables and speaker notes, paged by slide", async () => {
    const result = await tool().run({ path: "deck.pptx" });
    if (!result.success) throw new Error(result.error.message);
    const md = result.data.markdown;
    expect(result.data.unit).toBe("slides");
    expect(result.data.total).toBe(2);
    expect(md).toContain("<!-- Slide 1 -->");
    expect(md).toContain("Roadmap");
    expect(md).toMatch(/- Ship the reader\n {4}- Tests first/);
    expect(md).toContain("### Notes\n\nSay hello to the team.");
    expect(md).toContain("| Q | Revenue |\n| --- | --- |\n| Q1 | 10 |");
    const second = await tool().run({ path: "deck.pptx", pages: "2" });
    expect(second.success && second.data.markdown.startsWith("<!-- Slide 2 -->")).toBe(true);
  });
});

describe("read_document — PDF", () => {
  it("reads text by page and pages through with pages and offset", async () => {
    const all = await tool().run({ path: "paper.pdf", limit: 2 });
    if (!all.success) throw new Error(all.error.message);
    expect(all.data).toMatchObject({
      unit: "pages",
      total: 5,
      next_offset: 3,
      truncated: true,
      title: "The Paper",
    });
    expect(all.data.markdown).toContain(
      "<!-- Page 1 -->\n\n# Part 1\n\nBody text of page 1 goes on here.\n\n- first point\n- second point",
    );
    expect(all.data.markdown).not.toContain("Part 3");
    const selected = await tool().run({ path: "paper.pdf", pages: "3-4" });
    if (!selected.success) throw new Error(selected.error.message);
    expect(selected.data.total).toBe(2);
    expect(selected.data.markdown).toContain("<!-- Page 3 -->");
    expect(selected.data.markdown).toContain("<!-- Page 4 -->");
    expect(selected.data.markdown).not.toContain("<!-- Page 5 -->");
    const past = await tool().run({ path: "paper.pdf", pages: "9" });
    expect(!past.success && past.error.code).toBe("INVALID_INPUT");
    const beyond = await tool().run({ path: "paper.pdf", pages: "3-4", offset: 3 });
    expect(beyond.success ? undefined : beyond.error).toEqual({
      code: "INVALID_INPUT",
      message: "offset=3 is past the end: there are 2 pages in all.",
      hint: "Call read_document again with an offset between 1 and 2.",
    });
  });

  it("refuses a file that is not a PDF inside", async () => {
    folder = folder ?? folder;
    const bad = createReadDocumentTool({ root: folder.root });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(`${folder.root}/broken.pdf`, "%PDF-1.4\nnot really");
    const result = await bad.run({ path: "broken.pdf" });
    expect(!result.success && result.error.code).toBe("UNSUPPORTED");
  });
});

describe("read_document — notebooks", () => {
  it("reads cells with outputs, caps long text, shows image outputs as image blocks", async () => {
    const result = await tool().run({ path: "nb.ipynb" });
    if (!result.success) throw new Error(result.error.message);
    const md = result.data.markdown;
    expect(result.data.unit).toBe("cells");
    expect(md).toContain("### Cell 1 · markdown\n\n# Analysis\nSome *notes*.");
    expect(md).toContain(
      "### Cell 2 · code · In [1]\n\n```python\nprint('hi')\n```\n\n```output\nhi\n```",
    );
    expect(md).toContain("ZeroDivisionError: division by zero");
    expect(md).not.toContain("\u001b[");
    expect(md).toContain("more characters of this output left out");
    expect(result.data.images).toHaveLength(1);
    const content = tool().renderResult(result);
    expect(Array.isArray(content) && content.some((block) => block.type === "image")).toBe(true);
    expect(contentToText(content)).toContain("Image: cell 3, output 1");
  });
});
