import { writeFileSync } from "node:fs";
import { unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createZip } from "./internal/container/zip.js";
import { pdfWorkerCount } from "./internal/readers/pdf/read-pdf.js";
import { createReadDocumentTool, DEFAULT_MAX_PDF_MEMORY_BYTES } from "./read-document.js";
import { sampleDocx } from "./test-support/docx-fixture.js";
import { pdfBombStream } from "./test-support/hostile-files.js";
import { simplePdf } from "./test-support/pdf-fixture.js";
import { readFolder } from "./test-support/read-folder.js";
import { xlsxWithRows } from "./test-support/xlsx-builder.js";

const WORD_RELS =
  '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

function docxWith(
  documentXml: string | Uint8Array,
  extra: Record<string, Uint8Array> = {},
): Uint8Array {
  return createZip([
    { name: "_rels/.rels", data: WORD_RELS },
    { name: "word/document.xml", data: documentXml },
    ...Object.entries(extra).map(([name, data]) => ({ name, data })),
  ]);
}

const BODY =
  '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:body></w:document>';

function encryptedOffice(): Uint8Array {
  const bytes = new Uint8Array(4_096);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  bytes.set(
    Array.from("EncryptedPackage").flatMap((character) => [character.charCodeAt(0), 0]),
    1_200,
  );
  return bytes;
}

let folder: ReturnType<typeof readFolder>;
beforeAll(async () => {
  const traversal = zipSync({
    "word/document.xml": new TextEncoder().encode("<a/>"),
    "xx/evil.txt": new Uint8Array(1),
  });
  const text = new TextDecoder("latin1").decode(traversal).replaceAll("xx/evil", "../evil");
  const docm = await sampleDocx();
  folder = readFolder({
    "laughs.docx": docxWith(
      `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "ha"><!ENTITY x "&a;&a;&a;&a;&a;&a;&a;&a;">]>${BODY}`,
    ),
    "xxe.docx": docxWith(
      `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>${BODY}`,
    ),
    "bomb.docx": zipSync({
      "_rels/.rels": new TextEncoder().encode(WORD_RELS),
      "word/document.xml": [new Uint8Array(30_000_000), { level: 9 }],
    }),
    "traversal.docx": Uint8Array.from(text, (character) => character.charCodeAt(0)),
    "locked.docx": encryptedOffice(),
    "locked.xlsx": encryptedOffice(),
    "macros.docm": createZip([
      ...unzipAll(docm),
      { name: "word/vbaProject.bin", data: new Uint8Array([1, 2, 3]) },
    ]),
    "macros.xlsm": xlsxWithRows(3, [{ name: "xl/vbaProject.bin", data: new Uint8Array([1]) }]),
    "big.xlsx": xlsxWithRows(100_000),
    "big.csv": Array.from(
      { length: 120_000 },
      (_, index) => `${index},name ${index},${index * 3}`,
    ).join("\n"),
  });
});
afterAll(() => folder.remove());

function unzipAll(bytes: Uint8Array) {
  return Object.entries(unzipSync(bytes)).map(([name, data]) => ({ name, data }));
}

const read = (input: Record<string, unknown>) =>
  createReadDocumentTool({ root: folder.root }).run(input);

describe("read_document — hostile files", () => {
  it("refuses billion laughs and XXE without expanding anything", async () => {
    for (const path of ["laughs.docx", "xxe.docx"]) {
      const result = await read({ path });
      expect(!result.success && result.error.code).toBe("BLOCKED");
      expect(!result.success && result.error.message).toMatch(/never processed/);
      expect(!result.success && result.error.message).not.toContain("root:");
    }
  });

  it("refuses a zip bomb with TOO_LARGE after bounded work", async () => {
    const started = performance.now();
    const result = await read({ path: "bomb.docx" });
    expect(!result.success && result.error.code).toBe("TOO_LARGE");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(!result.success && result.error.message).toMatch(/zip bomb/);
  });

  it("refuses path traversal inside the archive and encrypted Office files", async () => {
    const traversal = await read({ path: "traversal.docx" });
    expect(!traversal.success && traversal.error.code).toBe("BLOCKED");
    for (const path of ["locked.docx", "locked.xlsx"]) {
      const locked = await read({ path });
      expect(!locked.success && locked.error.code).toBe("UNSUPPORTED");
      expect(!locked.success && locked.error.message).toMatch(/encrypted/);
    }
  });

  it("reads macro-enabled files as data and says macros never run", async () => {
    const docm = await read({ path: "macros.docm" });
    expect(docm.success && docm.data.notes.join(" ")).toMatch(/never run/);
    expect(docm.success && docm.data.markdown).toContain("# Quarterly report");
    const xlsm = await read({ path: "macros.xlsm" });
    expect(xlsm.success && xlsm.data.notes.join(" ")).toMatch(/never run/);
  });
});

describe("read_document — big sheets", () => {
  it("pages a 100,000-row sheet by streaming, a middle page exact, without blocking the event loop", async () => {
    let worst = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    const middle = await read({ path: "big.xlsx", offset: 50_001, limit: 3 });
    clearInterval(timer);
    if (!middle.success) throw new Error(middle.error.message);
    expect(middle.data).toMatchObject({
      total: 100_000,
      offset: 50_001,
      next_offset: 50_004,
      truncated: true,
    });
    expect(middle.data.markdown).toContain("| 50001 | 50001 | item 50001 | =A50001*2 → 100002 |");
    expect(middle.data.sheets).toEqual([{ name: "Big", rows: 100_000, columns: 3, hidden: false }]);
    expect(worst).toBeLessThan(250);
  });

  it("pages a large CSV by rows and a range", async () => {
    const page = await read({ path: "big.csv", range: "B100000:C100002" });
    if (!page.success) throw new Error(page.error.message);
    expect(page.data.total).toBe(3);
    expect(page.data.markdown).toContain("| 100000 | name 99999 | 299997 |");
  });
});

/** One read_document call with the process's peak RSS growth over it (sampled every 5 ms). */
async function measured(tool: ReturnType<typeof createReadDocumentTool>, path: string) {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  const result = await tool.run({ path });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { result, milliseconds: performance.now() - started, growth: peak - before };
}

describe("read_document — hostile PDF", () => {
  it("a PDF bomb stream (1 GiB in one stream), even with a 60 s timeout: TOO_LARGE within seconds, the loop free, memory under the ceiling", async () => {
    writeFileSync(`${folder.root}/bomb.pdf`, pdfBombStream(1_024));
    const tool = createReadDocumentTool({ root: folder.root, timeoutMs: 60_000 });
    let worst = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    const { result, milliseconds, growth } = await measured(tool, "bomb.pdf");
    clearInterval(timer);
    if (result.success) throw new Error("the bomb was read");
    expect(result.error.code).toBe("TOO_LARGE");
    expect(result.error.message).toMatch(
      /grew memory past 512 MB, the PDF reader's memory ceiling/,
    );
    expect(result.error.hint).toMatch(/pages="1-5".*maxPdfMemoryBytes/);
    // PDFium inflates into its WebAssembly memory until the watch ends the thread: measured
    // ~1.6–1.8 s and +514 MB (pdf.js before the thread and the watch: 34 s and +2.2 GB)
    expect(milliseconds).toBeLessThan(5_000);
    expect(growth).toBeLessThan(DEFAULT_MAX_PDF_MEMORY_BYTES + 64_000_000);
    expect(worst).toBeLessThan(250);
  }, 30_000);

  it("streams that pass the ceiling together (4 × 40 MiB on one page, ceiling 128 MB): TOO_LARGE, memory under the ceiling plus a margin", async () => {
    writeFileSync(`${folder.root}/streams.pdf`, pdfBombStream(40, 4));
    const ceiling = 128_000_000;
    const tool = createReadDocumentTool({
      root: folder.root,
      timeoutMs: 60_000,
      maxPdfMemoryBytes: ceiling,
    });
    const { result, milliseconds, growth } = await measured(tool, "streams.pdf");
    if (result.success) throw new Error("the streams were read");
    expect(result.error.code).toBe("TOO_LARGE");
    expect(result.error.message).toMatch(/grew memory past 128 MB/);
    expect(milliseconds).toBeLessThan(5_000);
    expect(growth).toBeLessThan(ceiling + 64_000_000);
  }, 30_000);

  it("after a worker is ended past the ceiling, the next call reads and no worker is left over", async () => {
    writeFileSync(`${folder.root}/bomb.pdf`, pdfBombStream(1_024));
    writeFileSync(`${folder.root}/paper.pdf`, simplePdf([["# Results", "The yield rose."]]));
    const tool = createReadDocumentTool({ root: folder.root, maxPdfMemoryBytes: 128_000_000 });
    const first = await tool.run({ path: "paper.pdf" });
    if (!first.success) throw new Error(first.error.message);
    expect(pdfWorkerCount()).toBe(1);
    const bomb = await tool.run({ path: "bomb.pdf" });
    expect(bomb.success ? "read" : bomb.error.code).toBe("TOO_LARGE");
    // the bomb's thread is gone (the idle one served it), none is running
    expect(pdfWorkerCount()).toBe(0);
    const after = await tool.run({ path: "paper.pdf" });
    if (!after.success) throw new Error(after.error.message);
    expect(after.data.markdown).toBe(first.data.markdown);
    expect(pdfWorkerCount()).toBe(1);
  }, 30_000);
});
