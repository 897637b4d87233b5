import {
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from "docx";

/**
 * A real .docx made by the `docx` library (not hand-written XML): headings 1–3, a nested
 * bullet list, a numbered list, a table with a bold cell, a hyperlink, a footnote and a comment.
 *
 * @internal
 */
export async function sampleDocx(): Promise<Uint8Array> {
  const document = new Document({
    numbering: {
      config: [
        {
          reference: "numbers",
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: "%1." }],
        },
      ],
    },
    footnotes: { 1: { children: [new Paragraph("The footnote text.")] } },
    comments: {
      children: [
        { id: 0, author: "Ada", date: new Date(0), children: [new Paragraph("Check this.")] },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: "Quarterly report", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun("Revenue grew "),
              new TextRun({ text: "twelve percent", bold: true }),
              new TextRun(" this year"),
              new FootnoteReferenceRun(1),
              new TextRun("."),
            ],
          }),
          new Paragraph({ text: "Details", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "First point", bullet: { level: 0 } }),
          new Paragraph({ text: "Nested point", bullet: { level: 1 } }),
          new Paragraph({ text: "Second point", bullet: { level: 0 } }),
          new Paragraph({ text: "Step one", numbering: { reference: "numbers", level: 0 } }),
          new Paragraph({ text: "Step two", numbering: { reference: "numbers", level: 0 } }),
          new Paragraph({ text: "Figures", heading: HeadingLevel.HEADING_3 }),
          new Table({
            rows: [
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph("Region")] }),
                  new TableCell({ children: [new Paragraph("Sales")] }),
                ],
              }),
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph("North")] }),
                  new TableCell({
                    children: [
                      new Paragraph({ children: [new TextRun({ text: "1,200", bold: true })] }),
                    ],
                  }),
                ],
              }),
            ],
          }),
          new Paragraph({
            children: [
              new TextRun("See "),
              new ExternalHyperlink({
                link: "https://example.com/report",
                children: [new TextRun("the full report")],
              }),
              new TextRun(" online."),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
