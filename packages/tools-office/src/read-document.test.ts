import { contentToText } from "@agentool/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadDocumentTool } from "./read-document.js";
import { sampleDocx } from "./test-support/docx-fixture.js";
import { readFolder } from "./test-support/read-folder.js";
import { sampleXlsx } from "./test-support/sheet-fixture.js";

let folder: ReturnType<typeof readFolder>;
beforeAll(async () => {
  folder = readFolder({
    "report.docx": await sampleDocx(),
    "sales.xlsx": await sampleXlsx(),
    "table.csv": 'name,qty,note\n"Smith, J",3,"said ""hi"""\nDoe,4,\n',
    "notes.txt": "plain",
    ".env": "SECRET=1",
  });
});
afterAll(() => folder.remove());

async function read(input: Record<string, unknown>) {
  const tool = createReadDocumentTool({ root: folder.root, mountedTools: ["read_file"] });
  const result = await tool.run(input);
  return { result, text: contentToText(tool.renderResult(result)) };
}

describe("read_document — Word", () => {
  it("reads headings, nested lists, tables, links and footnotes", async () => {
    const { result, text } = await read({ path: "report.docx" });
    if (!result.success) throw new Error(result.error.message);
    const md = result.data.markdown;
    expect(md).toContain("# Quarterly report");
    expect(md).toContain("## Details");
    expect(md).toContain("### Figures");
    expect(md).toMatch(/^- First point\n {4}- Nested point\n- Second point$/m);
    expect(md).toMatch(/^1\. Step one\n2\. Step two$/m);
    expect(md).toContain("| Region | Sales |");
    expect(md).toContain("| North | **1,200** |");
    expect(md).toContain("[the full report](https://example.com/report)");
    expect(md).toContain("Revenue grew **twelve percent** this year[^1].");
    expect(md).toContain("[^1]: The footnote text.");
    expect(result.data.unit).toBe("lines");
    expect(text).toMatch(/^report\.docx — Word document, \d+ lines of Markdown/);
  });

  it("pages by lines with a marker naming the next call", async () => {
    const { result, text } = await read({ path: "report.docx", limit: 3 });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.truncated).toBe(true);
    expect(result.data.next_offset).toBe(4);
    expect(text).toContain('call read_document again with path="report.docx", limit=3, offset=4');
  });
});

describe("read_document — sheets", () => {
  it("reads a sheet with row numbers, column letters, formulas, dates and merges", async () => {
    const { result, text } = await read({ path: "sales.xlsx" });
    if (!result.success) throw new Error(result.error.message);
    const md = result.data.markdown;
    expect(md.split("\n")[0]).toBe("|  | A | B | C | D |");
    expect(md).toContain("| 1 | Sales 2024 |");
    expect(md).toContain("| 3 | North | 10 | 2024-01-15 | 25% |");
    expect(md).toContain("| 4 | South | 32 | 2024-02-29 |  |");
    expect(md).toContain("| 5 | Total | =SUM(B3:B4) → 42 |");
    expect(result.data.sheets).toEqual([
      { name: "Sales", rows: 5, columns: 4, hidden: false },
      { name: "Notes", rows: 1, columns: 2, hidden: false },
      { name: "Secret", rows: 1, columns: 1, hidden: true },
    ]);
    expect(text).toContain("Merged cells (the value sits in the first cell): A1:C1");
    expect(result.data.unit).toBe("rows");
  });

  it("reads another sheet and a range, escaping pipes and line breaks", async () => {
    const notes = await read({ path: "sales.xlsx", sheet: "Notes" });
    if (!notes.result.success) throw new Error(notes.result.error.message);
    expect(notes.result.data.markdown).toContain("| 1 | a \\| pipe | line<br>break |");
    const range = await read({ path: "sales.xlsx", range: "B3:C4" });
    if (!range.result.success) throw new Error(range.result.error.message);
    expect(range.result.data.markdown).toBe(
      "|  | B | C |\n| --- | --- | --- |\n| 3 | 10 | 2024-01-15 |\n| 4 | 32 | 2024-02-29 |",
    );
    expect(range.result.data.total).toBe(2);
    const reversed = await read({ path: "sales.xlsx", range: "C4:B3" });
    expect(reversed.result.success && reversed.result.data.range).toBe("B3:C4");
    for (const bad of ["B3:C4:D5", "B0:C4", "XFE1:XFE2"]) {
      const refused = await read({ path: "sales.xlsx", range: bad });
      expect(refused.result.success ? "read" : refused.result.error.code, bad).toBe(
        "INVALID_INPUT",
      );
    }
    const missing = await read({ path: "sales.xlsx", sheet: "Nope" });
    expect(missing.result.success || missing.result.error.hint).toContain('"Sales"');
  });

  it("refuses an offset past the end with the contract's message and the last valid offset", async () => {
    const rows = await read({ path: "table.csv", offset: 99 });
    expect(rows.result.success ? undefined : rows.result.error).toEqual({
      code: "INVALID_INPUT",
      message: "offset=99 is past the end: there are 3 rows in all.",
      hint: "Call read_document again with an offset between 1 and 3.",
    });
    const lines = await read({ path: "report.docx", offset: 10_000 });
    expect(lines.result.success ? undefined : lines.result.error.hint).toMatch(
      /^Call read_document again with an offset between 1 and \d+\.$/,
    );
  });

  it("reads CSV with quoting", async () => {
    const { result } = await read({ path: "table.csv" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.markdown).toContain('| 2 | Smith, J | 3 | said "hi" |');
    expect(result.data.total).toBe(3);
  });
});

describe("read_document — refusals", () => {
  it("refuses secrets, unknown formats, misplaced fields and escapes", async () => {
    const secret = await read({ path: ".env" });
    expect(secret.result.success).toBe(false);
    const text = await read({ path: "notes.txt" });
    expect(!text.result.success && text.result.error.code).toBe("UNSUPPORTED");
    expect(!text.result.success && text.result.error.hint).toContain("read_file");
    const sheetOnDocx = await read({ path: "report.docx", sheet: "A" });
    expect(!sheetOnDocx.result.success && sheetOnDocx.result.error.code).toBe("INVALID_INPUT");
    const outside = await read({ path: "../x.docx" });
    expect(!outside.result.success && outside.result.error.code).toBe("INVALID_PATH");
    // Confinement comes before the format: an escape is named as one whatever its extension.
    const outsideText = await read({ path: "../../etc/passwd" });
    expect(!outsideText.result.success && outsideText.result.error.code).toBe("INVALID_PATH");
    const missing = await read({ path: "nope.docx" });
    expect(!missing.result.success && missing.result.error.code).toBe("FILE_NOT_FOUND");
  });
});

describe("read_document — conversion cache", () => {
  it("cuts later pages from one conversion, and converts again when the file changes", async () => {
    const { utimesSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { odfPackage } = await import("./test-support/odf-fixture.js");
    const odt = (words: string) =>
      odfPackage(
        "application/vnd.oasis.opendocument.text",
        "",
        `<office:text>${Array.from({ length: 6 }, (_, index) => `<text:p>${words} ${index}</text:p>`).join("")}</office:text>`,
      );
    const path = join(folder.root, "cached.odt");
    writeFileSync(path, odt("first"));
    utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const tool = createReadDocumentTool({ root: folder.root });
    const page1 = await tool.run({ path: "cached.odt", limit: 4 });
    const page2 = await tool.run({ path: "cached.odt", limit: 4, offset: 9 });
    expect(page1.success && page1.data.markdown).toContain("first 0");
    expect(page2.success && page2.data.markdown).toContain("first 4");
    writeFileSync(path, odt("second"));
    utimesSync(path, new Date(Date.now() - 30_000), new Date(Date.now() - 30_000));
    const again = await tool.run({ path: "cached.odt", limit: 4 });
    expect(again.success && again.data.markdown).toContain("second 0");
  });

  it("reads the file's bytes once: a later page of a cached conversion reads none", async () => {
    const { utimesSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { createWorkspace } = await import("@agentool/tools-fs");
    const { createNodeFileSystem } = await import("@agentool/tools-fs/node");
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(folder.root, "report.docx"), old, old);
    const fileSystem = createNodeFileSystem({ root: folder.root });
    const reads: string[] = [];
    const counting = new Proxy(fileSystem, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key === "readFile") {
          return (path: string) => {
            reads.push(path);
            return target.readFile(path);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const tool = createReadDocumentTool({ workspace: createWorkspace({ fileSystem: counting }) });
    const first = await tool.run({ path: "report.docx", limit: 3 });
    const second = await tool.run({ path: "report.docx", limit: 3, offset: 4 });
    expect(first.success && second.success).toBe(true);
    expect(reads).toHaveLength(1);
  });
});
