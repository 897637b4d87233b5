import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEditSheetTool, formatEditSheet } from "./edit-sheet.js";
import { openZip } from "./internal/container/zip.js";
import {
  HAS_PYTHON_OFFICE,
  HAS_SOFFICE,
  python,
  sofficeConvert,
  tempWorkspace,
} from "./test-support/write-fixtures.js";

const folder = tempWorkspace();
afterAll(() => folder.remove());
let book: Uint8Array;
let counter = 0;

beforeAll(async () => {
  const workbook = new ExcelJS.Workbook();
  const sales = workbook.addWorksheet("Sales");
  sales.addRow(["Item", "Amount", "Note"]);
  sales.addRow(["Apples", 10, "fresh"]);
  sales.addRow(["Pears", 20, "ripe"]);
  sales.addRow(["Total", { formula: "SUM(B2:B3)", result: 30 }]);
  sales.getRow(1).font = { bold: true };
  sales.getCell("B2").numFmt = "#,##0.00";
  sales.getCell("B2").fill = { type: "pattern", pattern: "solid", fgColor: { argb: "FFFFFF00" } };
  workbook.addWorksheet("Other").addRow(["x"]);
  book = new Uint8Array(await workbook.xlsx.writeBuffer());
});

function place(bytes: Uint8Array): string {
  const name = `book${++counter}.xlsx`;
  writeFileSync(join(folder.root, name), bytes);
  return name;
}

async function part(path: string, name: string): Promise<string> {
  return openZip(readFileSync(join(folder.root, path))).readText(name);
}

function cellTag(xml: string, reference: string): string {
  return new RegExp(`<c r="${reference}"[^>]*?(/>|>[\\s\\S]*?</c>)`).exec(xml)?.[0] ?? "";
}

const tool = createEditSheetTool({ root: folder.root });

describe("edit_sheet", () => {
  it("writes values keeping each cell's style and styles.xml, other parts byte-identical", async () => {
    const path = place(book);
    const before = await part(path, "xl/worksheets/sheet1.xml");
    const styleOfB2 = /\ss="(\d+)"/.exec(cellTag(before, "B2"))?.[1];
    const result = await tool.run({
      path,
      sheet: "sales",
      cells: [
        { cell: "B2", value: 15 },
        { cell: "c3", value: "very ripe" },
        { cell: "D1", value: true },
      ],
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.sheet).toBe("Sales");
    expect(result.data.cells).toEqual([
      { cell: "B2", kind: "number", previous: "10" },
      { cell: "C3", kind: "text", previous: "ripe" },
      { cell: "D1", kind: "boolean", previous: null },
    ]);
    expect(formatEditSheet(result.data)).toContain('B2: number (was "10")');
    const after = await part(path, "xl/worksheets/sheet1.xml");
    expect(cellTag(after, "B2")).toBe(`<c r="B2" s="${styleOfB2}"><v>15</v></c>`);
    expect(cellTag(after, "C3")).toContain('t="inlineStr"><is><t>very ripe</t></is>');
    expect(cellTag(after, "D1")).toBe('<c r="D1" t="b"><v>1</v></c>');
    // Untouched cells: the same bytes.
    expect(cellTag(after, "A2")).toBe(cellTag(before, "A2"));
    expect(cellTag(after, "A3")).toBe(cellTag(before, "A3"));
    // A formula's cached result is dropped (it may be stale now): readers recompute it.
    expect(cellTag(before, "B4")).toContain("<v>30</v>");
    expect(cellTag(after, "B4")).toBe(cellTag(before, "B4").replace("<v>30</v>", ""));
    expect(result.data.cleared_results).toBe(1);
    const original = openZip(book);
    const edited = openZip(readFileSync(join(folder.root, path)));
    for (const entry of original.entries) {
      if (["xl/worksheets/sheet1.xml", "xl/workbook.xml"].includes(entry.name)) continue;
      expect(await edited.read(entry.name)).toEqual(await original.read(entry.name));
    }
    expect(await part(path, "xl/workbook.xml")).toContain('fullCalcOnLoad="1"');
  });

  it("adds rows and cells in order, dates with a date format, formulas without a cached value", async () => {
    const path = place(book);
    const result = await tool.run({
      path,
      cells: [
        { cell: "B6", value: "=B4*2" },
        { cell: "A6", value: "Double" },
        { cell: "A5", value: "2024-05-01" },
        { cell: "B4", value: "=SUM(B2:B3)+1" },
        { cell: "C5", value: "'=not a formula" },
      ],
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.rows_added).toBe(2);
    expect(result.data.cells.map((cell) => cell.kind)).toEqual([
      "formula",
      "text",
      "date",
      "formula",
      "text",
    ]);
    expect(result.data.cells[3]?.previous).toBe("=SUM(B2:B3)");
    const xml = await part(path, "xl/worksheets/sheet1.xml");
    expect(xml.indexOf('<row r="5"')).toBeLessThan(xml.indexOf('<row r="6"'));
    expect(xml.indexOf('<c r="A6"')).toBeLessThan(xml.indexOf('<c r="B6"'));
    expect(cellTag(xml, "B6")).toBe('<c r="B6"><f>B6*2</f></c>'.replace("B6*2", "B4*2"));
    expect(cellTag(xml, "B4")).not.toContain("<v>");
    expect(cellTag(xml, "A5")).toMatch(/<c r="A5" s="\d+"><v>45413<\/v><\/c>/);
    expect(cellTag(xml, "C5")).toContain("<t>=not a formula</t>");
    expect(await part(path, "xl/styles.xml")).toMatch(
      /numFmtId="14"[^>]*applyNumberFormat="1"|applyNumberFormat="1"[^>]*numFmtId="14"/,
    );
  });

  it("refuses invalid references, unknown sheets, merged interiors and other formats", async () => {
    const path = place(book);
    const bad = await tool.run({ path, cells: [{ cell: "XFE1", value: 1 }] });
    expect(!bad.success && bad.error.code).toBe("INVALID_INPUT");
    const twice = await tool.run({
      path,
      cells: [
        { cell: "A1", value: 1 },
        { cell: "$A$1", value: 2 },
      ],
    });
    expect(!twice.success && twice.error.message).toContain("named twice");
    const sheet = await tool.run({ path, sheet: "Salez", cells: [{ cell: "A1", value: 1 }] });
    expect(!sheet.success && sheet.error.message).toContain('"Sales", "Other"');
    expect(!sheet.success && sheet.error.hint).toContain("Sales");
    const doc = await tool.run({ path: "a.docx", cells: [{ cell: "A1", value: 1 }] });
    expect(!doc.success && doc.error.code).toBe("UNSUPPORTED");
    const outside = await tool.run({ path: "/etc/passwd.xlsx", cells: [{ cell: "A1", value: 1 }] });
    expect(!outside.success && outside.error.code).toBe("INVALID_PATH");
  });

  it.skipIf(!HAS_PYTHON_OFFICE)("openpyxl reads the typed values and the kept style", async () => {
    const path = place(book);
    await tool.run({
      path,
      sheet: "Sales",
      cells: [
        { cell: "B2", value: 12.5 },
        { cell: "A5", value: "2024-05-01T09:30" },
        { cell: "B5", value: "=B2*2" },
      ],
    });
    const out = python(
      "import openpyxl,sys,json\nws=openpyxl.load_workbook(sys.argv[1])['Sales']\nprint(json.dumps([ws['B2'].value, ws['B2'].number_format, ws['B2'].fill.fgColor.rgb, str(ws['A5'].value), ws['B5'].value, ws['A1'].font.b]))",
      join(folder.root, path),
    );
    expect(JSON.parse(out)).toEqual([
      12.5,
      "#,##0.00",
      "FFFFFF00",
      "2024-05-01 09:30:00",
      "=B2*2",
      true,
    ]);
  });

  it.skipIf(!HAS_SOFFICE)(
    "LibreOffice recalculates the written formulas (csv export)",
    async () => {
      const path = place(book);
      await tool.run({
        path,
        cells: [
          { cell: "B2", value: 100 },
          { cell: "B5", value: "=B4*2" },
        ],
      });
      const converted = sofficeConvert(join(folder.root, path), "csv", folder.root);
      expect(converted.status).toBe(0);
      const csv = readFileSync(join(folder.root, path.replace(/\.xlsx$/, ".csv")), "utf8");
      expect(csv).toContain("Total,120");
      expect(csv).toContain(",240");
    },
    120_000,
  );
});
