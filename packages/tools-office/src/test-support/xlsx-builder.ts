import { createZip, type ZipInput } from "../internal/container/zip.js";

/**
 * A minimal but complete SpreadsheetML package around one sheet's `sheetData` rows (what
 * Excel needs: content types, relationships, workbook, sheet), for tests that need sizes no
 * library writes quickly (a 100,000-row sheet).
 *
 * @internal
 */
export function xlsxWithRows(rowCount: number, extra: ZipInput[] = []): Uint8Array {
  const rows: string[] = [];
  for (let row = 1; row <= rowCount; row += 1) {
    rows.push(
      `<row r="${row}"><c r="A${row}"><v>${row}</v></c><c r="B${row}" t="inlineStr"><is><t>item ${row}</t></is></c><c r="C${row}"><f>A${row}*2</f><v>${row * 2}</v></c></row>`,
    );
  }
  return createZip([
    {
      name: "[Content_Types].xml",
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    },
    {
      name: "_rels/.rels",
      data: '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    },
    {
      name: "xl/workbook.xml",
      data: '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Big" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    },
    {
      name: "xl/worksheets/sheet1.xml",
      data: `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:C${rowCount}"/><sheetData>${rows.join("")}</sheetData></worksheet>`,
    },
    ...extra,
  ]);
}
