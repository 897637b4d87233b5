import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadDocumentTool } from "../../../read-document.js";
import { readFolder } from "../../../test-support/read-folder.js";
import { minimalDocx } from "../../../test-support/write-fixtures.js";

// Minimal documents in the XML shapes LibreOffice 7.4 writes when it saves a .docx (seen in the
// fidelity corpus's docx-libreoffice files): an item's later paragraphs as `numId 0` paragraphs
// indented under it, and a `w:num` that redefines its levels in `w:lvlOverride`.

const RELATIONSHIPS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>' +
  "</Relationships>";

const level = (ilvl: number, format: string, text: string, left: number) =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${left}" w:hanging="360"/></w:pPr></w:lvl>`;

/** abstractNum 2: decimal at levels 0 and 1; num 2 uses it as is, num 11 makes level 1 bullets, num 12 restarts level 0 at 5. */
const NUMBERING =
  '<?xml version="1.0" encoding="UTF-8"?><w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
  `<w:abstractNum w:abstractNumId="2">${level(0, "decimal", "%1.", 720)}${level(1, "decimal", "%2.", 1080)}</w:abstractNum>` +
  '<w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num>' +
  `<w:num w:numId="11"><w:abstractNumId w:val="2"/><w:lvlOverride w:ilvl="1">${level(1, "bullet", "◦", 1080)}</w:lvlOverride><w:lvlOverride w:ilvl="1"/></w:num>` +
  '<w:num w:numId="12"><w:abstractNumId w:val="2"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride></w:num>' +
  "</w:numbering>";

const run = (text: string, style?: string) =>
  `<w:r>${style === undefined ? "" : `<w:rPr><w:rStyle w:val="${style}"/></w:rPr>`}<w:t xml:space="preserve">${text}</w:t></w:r>`;

/** A paragraph; `numbering` is `[numId, ilvl]`, `left` its own left indent (twips). */
const paragraph = (text: string, numbering?: [string, number], left?: number) =>
  `<w:p><w:pPr><w:pStyle w:val="TextBody"/>${
    numbering === undefined
      ? ""
      : `<w:numPr><w:ilvl w:val="${numbering[1]}"/><w:numId w:val="${numbering[0]}"/></w:numPr>`
  }${left === undefined ? "" : `<w:ind w:left="${left}" w:hanging="0"/>`}</w:pPr>${text}</w:p>`;

// pandoc's shape: a bookmark around the section, started before the heading's paragraph, named
// `X` + a hash when the identifier is over Word's 40 characters; Word's: `_Toc…` inside it, the
// table of contents linking with `HYPERLINK \l`.
const STYLES =
  '<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
  '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>' +
  "</w:styles>";
const HEADINGS_RELATIONSHIPS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
  "</Relationships>";
const heading = (text: string, inside = "") =>
  `<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr>${inside}${run(text)}</w:p>`;
const HASHED = "Xd877072a8af138f7db63c20e4ecf77695d4d5bf";
const HEADINGS_BODY =
  `<w:p><w:hyperlink w:anchor="${HASHED}">${run("Speeding up frequent rebuilds")}</w:hyperlink></w:p>` +
  '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK \\l "_Toc1234" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>' +
  `${run("Options")}<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>` +
  `<w:p><w:hyperlink w:anchor="options-2">${run("the other Options")}</w:hyperlink>${run(" and ")}<w:hyperlink w:anchor="elsewhere">${run("a bookmark in text")}</w:hyperlink></w:p>` +
  `<w:bookmarkStart w:id="72" w:name="${HASHED}"/>${heading("Speeding up frequent rebuilds when developing")}` +
  heading("Options", '<w:bookmarkStart w:id="1" w:name="_Toc1234"/><w:bookmarkEnd w:id="1"/>') +
  `<w:bookmarkEnd w:id="72"/><w:bookmarkStart w:id="73" w:name="options-2"/>${heading("Options")}` +
  `<w:p><w:bookmarkStart w:id="74" w:name="elsewhere"/>${run("Plain text.")}</w:p>`;

let folder: ReturnType<typeof readFolder>;
beforeAll(() => {
  const parts = { "word/_rels/document.xml.rels": RELATIONSHIPS, "word/numbering.xml": NUMBERING };
  folder = readFolder({
    // zstd's README: each step's command is a numId-0 paragraph under the step
    "steps.docx": minimalDocx(
      paragraph(run("Create the dictionary"), ["2", 0]) +
        paragraph(
          run("zstd --train FullPathToTrainingSet/* -o dictionaryName", "SourceText"),
          ["0", 0],
          720,
        ) +
        paragraph(run("Compress with dictionary"), ["2", 0]) +
        paragraph(run("zstd -D dictionaryName FILE", "SourceText"), ["0", 0], 720) +
        paragraph(run("After the list, taken out of it.")) +
        paragraph(run("Not indented: a paragraph of its own."), ["0", 0]),
      parts,
    ),
    // signal(7): an item's own paragraph, then nested items (their own numId each), then its text again
    "nested.docx": minimalDocx(
      paragraph(run("The kernel prepares the handler:"), ["2", 0]) +
        paragraph(run("Context is saved on the stack:"), ["0", 0], 720) +
        paragraph(run("the program counter;"), ["11", 1]) +
        paragraph(run("the signal mask."), ["11", 1]) +
        paragraph(run("The handler then runs."), ["0", 0], 720) +
        paragraph(run("The kernel returns."), ["2", 0]),
      parts,
    ),
    "headings.docx": minimalDocx(HEADINGS_BODY, {
      "word/_rels/document.xml.rels": HEADINGS_RELATIONSHIPS,
      "word/styles.xml": STYLES,
    }),
    "restart.docx": minimalDocx(
      paragraph(run("Fifth"), ["12", 0]) + paragraph(run("Sixth"), ["12", 0]),
      parts,
    ),
  });
});
afterAll(() => folder.remove());

async function markdownOf(path: string): Promise<string> {
  const result = await createReadDocumentTool({ root: folder.root }).run({ path });
  if (!result.success) throw new Error(result.error.message);
  return result.data.markdown;
}

describe("read_document on Word lists as LibreOffice writes them", () => {
  it("an indented numId-0 paragraph after an item is the item's next paragraph", async () => {
    const markdown = await markdownOf("steps.docx");
    expect(markdown).toContain(
      [
        "1. Create the dictionary",
        "",
        "    `zstd --train FullPathToTrainingSet/* -o dictionaryName`",
        "",
        "2. Compress with dictionary",
        "",
        "    `zstd -D dictionaryName FILE`",
        "",
        "After the list, taken out of it.",
        "",
        "Not indented: a paragraph of its own.",
      ].join("\n"),
    );
  });

  it("nested items after the item's paragraph stay nested; a later numId-0 paragraph returns to the item", async () => {
    const markdown = await markdownOf("nested.docx");
    expect(markdown).toBe(
      [
        "1. The kernel prepares the handler:",
        "",
        "    Context is saved on the stack:",
        "",
        "    - the program counter;",
        "    - the signal mask.",
        "",
        "    The handler then runs.",
        "",
        "2. The kernel returns.",
      ].join("\n"),
    );
  });

  it("a w:num's lvlOverride redefines a level (bullets over decimals) and startOverride restarts it", async () => {
    expect(await markdownOf("nested.docx")).not.toContain("1. the program counter");
    expect(await markdownOf("restart.docx")).toBe("5. Fifth\n6. Sixth");
  });
});

describe("read_document on links to headings", () => {
  it("a link to a bookmark marking a heading goes to the heading's slug, as Markdown can follow it", async () => {
    const markdown = await markdownOf("headings.docx");
    expect(markdown).toContain(
      "[Speeding up frequent rebuilds](#speeding-up-frequent-rebuilds-when-developing)",
    );
    expect(markdown).toContain("[Options](#options)");
    // the second "Options" heading is #options-1 in GFM, whatever its bookmark's name
    expect(markdown).toContain("[the other Options](#options-1)");
    expect(markdown).toContain("[a bookmark in text](#elsewhere)");
    expect(markdown).toContain("## Speeding up frequent rebuilds when developing\n\n## Options");
  });
});
