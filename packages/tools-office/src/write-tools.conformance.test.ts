import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { toOpenAiStrictSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOfficeTools,
  OFFICE_READ_TOOL_NAMES,
  OFFICE_WRITE_TOOL_NAMES,
} from "./create-office-tools.js";
import { minimalDocx, tempWorkspace } from "./test-support/write-fixtures.js";

const folder = tempWorkspace({
  "letter.docx": minimalDocx("<w:p><w:r><w:t>Dear team, thanks.</w:t></w:r></w:p>"),
  "nb.ipynb": `${JSON.stringify({ cells: [{ cell_type: "code", execution_count: null, id: "a1", metadata: {}, outputs: [], source: ["1 + 1"] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`,
});
afterAll(() => folder.remove());
beforeAll(async () => {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("Data").addRow(["a", 1]);
  writeFileSync(join(folder.root, "book.xlsx"), new Uint8Array(await workbook.xlsx.writeBuffer()));
});

describe("createOfficeTools in read-write mode", () => {
  it("mounts the write tools, and every one passes the conformance kit with a real run", async () => {
    const tools = createOfficeTools({ root: folder.root, mode: "read-write" });
    expect(tools.map((tool) => tool.name)).toEqual([
      ...OFFICE_READ_TOOL_NAMES,
      ...OFFICE_WRITE_TOOL_NAMES,
    ]);
    await assertConformance(tools, {
      workspaceRoot: folder.root,
      samples: {
        write_document: { path: "out.docx", markdown: "# Title\n\nBody.", overwrite: true },
        edit_document: { path: "letter.docx", old_text: "thanks", new_text: "thank you" },
        edit_sheet: { path: "book.xlsx", sheet: "Data", cells: [{ cell: "B2", value: "=B1*2" }] },
        edit_notebook: { path: "nb.ipynb", cell: "a1", new_source: "2 + 2" },
      },
    });
    for (const tool of tools) expect(() => toOpenAiStrictSchema(tool)).not.toThrow();
  });

  it("the read-only mode leaves them out", () => {
    const names = createOfficeTools({ root: folder.root }).map((tool) => tool.name);
    for (const name of OFFICE_WRITE_TOOL_NAMES) expect(names).not.toContain(name);
  });
});
