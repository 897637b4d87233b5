import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEditDocumentTool } from "./edit-document.js";
import { openZip } from "./internal/container/zip.js";
import {
  HAS_PYTHON_OFFICE,
  HAS_SOFFICE,
  python,
  sofficeConvert,
  tempWorkspace,
} from "./test-support/write-fixtures.js";
import { createWriteDocumentTool, formatWriteDocument } from "./write-document.js";

// A 2×1 red PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDAAAAd9AP9c4xhPAAAAABJRU5ErkJggg==",
  "base64",
);
const folder = tempWorkspace({ "img/dot.png": PNG, ".env": "SECRET=1" });
afterAll(() => folder.remove());
const tool = createWriteDocumentTool({ root: folder.root });
const at = (path: string) => join(folder.root, path);

const MARKDOWN = [
  "# Quarterly report",
  "",
  "Revenue grew **strongly** in *every* region; see [the site](https://example.com) and `code`.",
  "",
  "## Regions",
  "",
  "- North",
  "  - Cities",
  "- South",
  "",
  "1. First",
  "2. Second",
  "",
  "| Region | Sales |",
  "| --- | ---: |",
  "| North | 10 |",
  "| South | 20 |",
  "",
  "```",
  "total = 30",
  "```",
  "",
  "![A dot](img/dot.png) ![secret](.env) ![remote](https://example.com/x.png)",
].join("\n");

describe("write_document", () => {
  it("writes a .docx with headings, nested lists, a table, a link and a workspace image", async () => {
    const result = await tool.run({ path: "out/report.docx", markdown: MARKDOWN });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data).toMatchObject({
      format: "docx",
      created: true,
      images: 1,
      previous_sha: null,
    });
    expect(result.data.missing_images).toEqual([".env", "https://example.com/x.png"]);
    expect(formatWriteDocument(result.data)).toContain("Created out/report.docx");
    const archive = openZip(readFileSync(at("out/report.docx")));
    const xml = await archive.readText("word/document.xml");
    expect(xml).toContain('w:val="Heading1"');
    expect(xml).toContain("<w:numPr>");
    expect(xml).toContain("<w:tbl>");
    expect(archive.entries.some((entry) => entry.name.startsWith("word/media/"))).toBe(true);
  });

  it("refuses an existing file without overwrite, other formats, rows for Word, and paths outside", async () => {
    await tool.run({ path: "exists.docx", markdown: "one" });
    const again = await tool.run({ path: "exists.docx", markdown: "two" });
    expect(!again.success && again.error.code).toBe("FILE_ALREADY_EXISTS");
    const replaced = await tool.run({ path: "exists.docx", markdown: "two", overwrite: true });
    expect(replaced.success && replaced.data.created).toBe(false);
    expect(replaced.success && replaced.data.previous_sha).toMatch(/^[0-9a-f]{64}$/);
    const pdf = await tool.run({ path: "a.pdf", markdown: "x" });
    expect(!pdf.success && pdf.error.code).toBe("UNSUPPORTED");
    const rows = await tool.run({ path: "a.docx", rows: [[1]] });
    expect(!rows.success && rows.error.code).toBe("INVALID_INPUT");
    const outside = await tool.run({ path: "../evil.docx", markdown: "x" });
    expect(!outside.success && outside.error.code).toBe("INVALID_PATH");
    const git = await tool.run({ path: ".git/x.docx", markdown: "x" });
    expect(!git.success && git.error.code).toBe("BLOCKED");
    const noTable = await tool.run({ path: "t.xlsx", markdown: "just text" });
    expect(!noTable.success && noTable.error.code).toBe("INVALID_INPUT");
  });

  it("writes a .pptx with a slide per # heading and ---, which edit_document can then edit", async () => {
    const result = await tool.run({
      path: "deck.pptx",
      markdown:
        "# Intro\n\nHello **all**\n\n- point one\n  - detail\n\n---\n\nNo title here\n\n# Numbers\n\n| a | b |\n| - | - |\n| 1 | 2 |",
    });
    expect(result.success && result.data.slides).toBe(3);
    const edited = await createEditDocumentTool({ root: folder.root }).run({
      path: "deck.pptx",
      old_text: "point one",
      new_text: "first point",
    });
    expect(edited.success && edited.data.paragraphs[0]?.place).toMatch(/^slide 1 paragraph/);
  });

  it("writes .xlsx from rows and from Markdown tables with types kept", async () => {
    const rows = await tool.run({
      path: "rows.xlsx",
      rows: [
        ["Item", "Amount", "When", "Paid"],
        ["A", 10, "2024-05-01", true],
        ["B", "20.5", "2024-05-02T10:30", false],
        ["Sum", "=SUM(B2:B3)", null, null],
      ],
    });
    expect(rows.success && rows.data).toMatchObject({ sheets: 1, cells: 14 });
    const fromMarkdown = await tool.run({
      path: "md.xlsx",
      markdown: "# Sales\n\n| x | y |\n|---|---|\n| 1 | =A2*2 |\n\n## Costs\n\n| c |\n|---|\n| 3 |",
    });
    expect(fromMarkdown.success && fromMarkdown.data.sheets).toBe(2);
  });

  it.skipIf(!HAS_PYTHON_OFFICE)("python-docx and openpyxl read the files back", async () => {
    await tool.run({ path: "py.docx", markdown: MARKDOWN });
    const docx = python(
      "import docx,sys,json\nd=docx.Document(sys.argv[1])\nt=lambda p:''.join(x.text for x in p._p.xpath('.//w:t'))\nprint(json.dumps({'p':[[p.style.name,t(p)] for p in d.paragraphs if t(p)][:6],'t':[[c.text for c in r.cells] for r in d.tables[0].rows]}))",
      at("py.docx"),
    );
    // python-docx 0.8's paragraph.text skips runs inside w:hyperlink, so the text is read from every w:t.
    const read = JSON.parse(docx);
    expect(read.p.slice(0, 3)).toEqual([
      ["Heading 1", "Quarterly report"],
      [expect.any(String), "Revenue grew strongly in every region; see the site and code."],
      ["Heading 2", "Regions"],
    ]);
    expect(read.t).toEqual([
      ["Region", "Sales"],
      ["North", "10"],
      ["South", "20"],
    ]);
    await tool.run({
      path: "py.xlsx",
      rows: [
        ["n", "d", "f", "b"],
        [10, "2024-05-01", "=A2*2", true],
        ["20.5", "x", "'=literal", null],
      ],
    });
    const xlsx = python(
      "import openpyxl,sys,json\nws=openpyxl.load_workbook(sys.argv[1]).active\nprint(json.dumps([[c.value if not hasattr(c.value,'isoformat') else c.value.isoformat() for c in r] for r in ws.iter_rows(min_row=2)]))",
      at("py.xlsx"),
    );
    expect(JSON.parse(xlsx)).toEqual([
      [10, "2024-05-01T00:00:00", "=A2*2", true],
      [20.5, "x", "=literal", null],
    ]);
  });

  it.skipIf(!HAS_SOFFICE)(
    "LibreOffice converts each written file without errors, text identical",
    async () => {
      await tool.run({ path: "lo/report.docx", markdown: MARKDOWN });
      await tool.run({ path: "lo/deck.pptx", markdown: "# One\n\nAlpha\n\n# Two\n\n- Beta" });
      await tool.run({
        path: "lo/book.xlsx",
        rows: [
          ["a", "b"],
          [2, "=A2*21"],
        ],
      });
      for (const name of ["report.docx", "deck.pptx", "book.xlsx"]) {
        const converted = sofficeConvert(at(`lo/${name}`), "pdf", at("lo"));
        expect(converted.status, converted.output).toBe(0);
        expect(existsSync(at(`lo/${name.replace(/\.\w+$/, ".pdf")}`))).toBe(true);
      }
      sofficeConvert(at("lo/report.docx"), "txt:Text", at("lo"));
      const text = readFileSync(at("lo/report.txt"), "utf8");
      for (const line of [
        "Quarterly report",
        "Revenue grew strongly in every region; see the site and code.",
        "Regions",
        "North",
        "Cities",
        "total = 30",
      ]) {
        expect(text).toContain(line);
      }
      sofficeConvert(at("lo/book.xlsx"), "csv", at("lo"));
      expect(readFileSync(at("lo/book.csv"), "utf8").trim().split("\n")).toEqual(["a,b", "2,42"]);
      writeFileSync(at("lo/done"), "");
    },
    240_000,
  );
});
