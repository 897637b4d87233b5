import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEditDocumentTool, formatEditDocument } from "./edit-document.js";
import { createZip, openZip } from "./internal/container/zip.js";
import {
  HAS_PYTHON_OFFICE,
  minimalDocx,
  minimalOdt,
  python,
  tempWorkspace,
} from "./test-support/write-fixtures.js";

const BOLD = "<w:rPr><w:b/></w:rPr>";
const ITALIC = "<w:rPr><w:i/></w:rPr>";
const RUN_A = `<w:r>${BOLD}<w:t>Hello wor</w:t></w:r>`;
const RUN_B = `<w:r>${ITALIC}<w:t xml:space="preserve">ld is </w:t></w:r>`;
const RUN_C = `<w:r><w:t>round.</w:t></w:r>`;
const SECOND = `<w:p><w:r><w:t>The “quoted” words stay.</w:t></w:r></w:p>`;
const BODY = `<w:p>${RUN_A}${RUN_B}${RUN_C}</w:p>${SECOND}<w:p><w:r><w:t>cat and cat</w:t></w:r></w:p>`;
const HEADER = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p><w:r><w:t>Header cat</w:t></w:r></w:p></w:hdr>`;

const folder = tempWorkspace();
afterAll(() => folder.remove());
let counter = 0;

function place(bytes: Uint8Array, name = `doc${++counter}.docx`): string {
  writeFileSync(join(folder.root, name), bytes);
  return name;
}

async function part(path: string, name: string): Promise<string> {
  return openZip(readFileSync(join(folder.root, path))).readText(name);
}

const tool = createEditDocumentTool({ root: folder.root });

describe("edit_document on .docx", () => {
  it("replaces text split across bold and italic runs mid-word, keeping untouched runs byte-identical", async () => {
    const path = place(minimalDocx(BODY, { "word/header1.xml": HEADER }));
    const before = readFileSync(join(folder.root, path));
    const result = await tool.run({ path, old_text: "world", new_text: "planet" });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.replacements).toBe(1);
    expect(result.data.paragraphs).toEqual([
      { place: "body paragraph 1", text: "Hello planet is round." },
    ]);
    expect(result.data.parts).toEqual(["word/document.xml"]);
    const xml = await part(path, "word/document.xml");
    // The new text took the bold run's formatting; the italic run kept its own, minus "ld".
    expect(xml).toContain(`<w:r>${BOLD}<w:t>Hello planet</w:t></w:r>`);
    expect(xml).toContain(`<w:r>${ITALIC}<w:t xml:space="preserve"> is </w:t></w:r>`);
    // Untouched runs and paragraphs: the same bytes.
    expect(xml).toContain(RUN_C);
    expect(xml).toContain(SECOND);
    const original = openZip(before);
    const edited = openZip(readFileSync(join(folder.root, path)));
    expect(edited.entries.map((entry) => entry.name)).toEqual(
      original.entries.map((entry) => entry.name),
    );
    for (const entry of original.entries) {
      if (entry.name === "word/document.xml") continue;
      expect(await edited.read(entry.name)).toEqual(await original.read(entry.name));
    }
    expect(formatEditDocument(result.data)).toContain("body paragraph 1: Hello planet is round.");
  });

  it("removes a run the match covers whole and adds xml:space when the text needs it", async () => {
    const path = place(minimalDocx(BODY));
    const result = await tool.run({ path, old_text: "Hello world is ", new_text: "  Earth is " });
    expect(result.success).toBe(true);
    const xml = await part(path, "word/document.xml");
    expect(xml).toContain(`<w:r>${BOLD}<w:t xml:space="preserve">  Earth is </w:t></w:r>${RUN_C}`);
    expect(xml).not.toContain("<w:i/>");
  });

  it("refuses an ambiguous match listing paragraphs, and replace_all changes body and header", async () => {
    const path = place(minimalDocx(BODY, { "word/header1.xml": HEADER }));
    const refused = await tool.run({ path, old_text: "cat", new_text: "dog" });
    expect(refused.success).toBe(false);
    if (refused.success) return;
    expect(refused.error.code).toBe("PATTERN_NOT_UNIQUE");
    expect(refused.error.message).toContain("3 times");
    expect(refused.error.message).toContain("body paragraph 3");
    expect(refused.error.message).toContain("header 1 paragraph 1");
    const all = await tool.run({ path, old_text: "cat", new_text: "dog", replace_all: true });
    expect(all.success && all.data.replacements).toBe(3);
    expect(all.success && all.data.parts).toEqual(["word/document.xml", "word/header1.xml"]);
    expect(await part(path, "word/header1.xml")).toContain("<w:t>Header dog</w:t>");
  });

  it("a miss names the closest paragraph, and typography differences with the exact characters", async () => {
    const path = place(minimalDocx(BODY));
    const missing = await tool.run({ path, old_text: "Hello world is flat", new_text: "x" });
    expect(!missing.success && missing.error.code).toBe("PATTERN_NOT_FOUND");
    expect(!missing.success && missing.error.message).toContain(
      'The closest paragraph is body paragraph 1: "Hello world is round."',
    );
    const quotes = await tool.run({ path, old_text: 'The "quoted" words', new_text: "x" });
    expect(!quotes.success && quotes.error.message).toContain("different typography");
    expect(!quotes.success && quotes.error.message).toContain("“quoted”");
  });

  it("checks expected_sha, refuses other formats, paths outside the root and line breaks", async () => {
    const path = place(minimalDocx(BODY));
    const stale = await tool.run({
      path,
      old_text: "round",
      new_text: "flat",
      expected_sha: "0".repeat(64),
    });
    expect(!stale.success && stale.error.code).toBe("CONFLICT");
    const outside = await tool.run({ path: "../outside.docx", old_text: "a", new_text: "b" });
    expect(!outside.success && outside.error.code).toBe("INVALID_PATH");
    const sheet = await tool.run({ path: "book.xlsx", old_text: "a", new_text: "b" });
    expect(!sheet.success && sheet.error.code).toBe("UNSUPPORTED");
    const broken = await tool.run({ path, old_text: "round", new_text: "a\nb" });
    expect(!broken.success && broken.error.code).toBe("INVALID_INPUT");
    const secret = await tool.run({ path: ".env", old_text: "a", new_text: "b" });
    expect(!secret.success && ["BLOCKED", "UNSUPPORTED"]).toContain(
      !secret.success && secret.error.code,
    );
  });

  it("refuses hostile archives: a ../ entry, a 50 MB bomb part", async () => {
    const traversal = createZip([
      {
        name: "word/document.xml",
        data: `<w:document><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`,
      },
      { name: "../evil.txt", data: "boom" },
    ]);
    const refused = await tool.run({ path: place(traversal), old_text: "x", new_text: "y" });
    expect(!refused.success && refused.error.code).toBe("BLOCKED");
    const bomb = createZip([{ name: "word/document.xml", data: new Uint8Array(50_000_000) }]);
    const big = await tool.run({ path: place(bomb), old_text: "x", new_text: "y" });
    expect(!big.success && big.error.code).toBe("TOO_LARGE");
  });

  it.skipIf(!HAS_PYTHON_OFFICE)(
    "python-docx reads the edited runs with their formatting",
    async () => {
      const path = place(minimalDocx(BODY));
      await tool.run({ path, old_text: "world", new_text: "planet" });
      const runs = python(
        "import docx,sys,json\nd=docx.Document(sys.argv[1])\nprint(json.dumps([[r.text,bool(r.bold),bool(r.italic)] for r in d.paragraphs[0].runs]))",
        join(folder.root, path),
      );
      expect(JSON.parse(runs)).toEqual([
        ["Hello planet", true, false],
        [" is ", false, true],
        ["round.", false, false],
      ]);
    },
  );
});

describe("edit_document on .odt", () => {
  it("replaces across a text:span, keeping the span's style for the text that stays", async () => {
    const path = place(
      minimalOdt(
        `<text:p>Good <text:span text:style-name="T1">mor</text:span>ning, all.</text:p><text:h text:outline-level="1">Title</text:h>`,
      ),
      "notes.odt",
    );
    const result = await tool.run({ path, old_text: "morning", new_text: "evening" });
    expect(result.success).toBe(true);
    const xml = await part(path, "content.xml");
    expect(xml).toContain(
      `<text:p>Good <text:span text:style-name="T1">evening</text:span>, all.</text:p>`,
    );
    expect(xml).toContain(`<text:h text:outline-level="1">Title</text:h>`);
    const entries = openZip(readFileSync(join(folder.root, path))).entries;
    expect(entries[0]?.name).toBe("mimetype");
    expect(entries[0]?.method).toBe(0);
  });
});
