import ExcelJS from "exceljs";

/**
 * A real .xlsx made by ExcelJS: two sheets, numbers, a formula with its cached result, a date,
 * a percentage, a merged header, a hidden third sheet; and a big one of `rows` rows.
 *
 * @internal
 */
export async function sampleXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sales = workbook.addWorksheet("Sales");
  sales.mergeCells("A1:C1");
  sales.getCell("A1").value = "Sales 2024";
  sales.addRow(["Region", "Units", "When"]);
  sales.addRow(["North", 10, new Date(Date.UTC(2024, 0, 15))]);
  sales.addRow(["South", 32, new Date(Date.UTC(2024, 1, 29))]);
  sales.getCell("C3").numFmt = "yyyy-mm-dd";
  sales.getCell("C4").numFmt = "yyyy-mm-dd";
  sales.getCell("A5").value = "Total";
  sales.getCell("B5").value = { formula: "SUM(B3:B4)", result: 42 };
  sales.getCell("D3").value = 0.25;
  sales.getCell("D3").numFmt = "0%";
  const notes = workbook.addWorksheet("Notes");
  notes.addRow(["a | pipe", "line\nbreak"]);
  const hidden = workbook.addWorksheet("Secret");
  hidden.state = "hidden";
  hidden.addRow(["x"]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A one-sheet workbook of `rows` rows × 4 columns (shared strings and numbers). */
export async function bigXlsx(rows: number): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Data");
  sheet.addRow(["id", "name", "value", "note"]);
  for (let index = 1; index < rows; index += 1) {
    sheet.addRow([
      index,
      `name ${index % 1000}`,
      index * 1.5,
      `note number ${index} with some filler text`,
    ]);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
