/**
 * A real PDF written object by object (catalog, pages, Helvetica, one content stream per page,
 * an exact cross-reference table): page k shows `lines[k]` — what any PDF reader can parse.
 *
 * @param pages - each page's lines of text
 * @param title - the document's Title
 * @returns the file's bytes
 * @internal
 */
export function simplePdf(pages: readonly (readonly string[])[], title = "Sample"): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  pages.forEach((lines, index) => {
    const id = pageIds[index] ?? 0;
    const escapeText = (text: string) => text.replace(/[\\()]/g, "\\$&");
    // A line written "# Title" is set in 18 pt (a heading); the others in 12 pt, 14 pt apart.
    const shown = lines.map((line) =>
      line.startsWith("# ")
        ? `/F1 18 Tf (${escapeText(line.slice(2))}) Tj T* T* /F1 12 Tf`
        : `(${escapeText(line)}) Tj T*`,
    );
    const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${shown.join(" ")} ET`;
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  const infoId = objects.length;
  objects[infoId] = `<< /Title (${title}) >>`;
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = body.length;
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id += 1)
    body += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}
