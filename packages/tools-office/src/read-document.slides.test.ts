import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { unzipSync } from "fflate";
import PptxGenJS from "pptxgenjs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ZipArchive } from "./internal/container/zip.js";
import { OdfTextWriter } from "./internal/readers/odf/odf-text.js";
import { createReadDocumentTool } from "./read-document.js";
import { buildZip, type HostileZipEntry, repeatedDeflate } from "./test-support/hostile-files.js";
import { odfPackage } from "./test-support/odf-fixture.js";
import { readFolder } from "./test-support/read-folder.js";

const HAS_PANDOC = spawnSync("pandoc", ["--version"]).status === 0;

/** A deck of `count` slides titled "Slide N", each with one bullet, made by pptxgenjs. */
async function plainDeck(count: number): Promise<Uint8Array> {
  type Deck = {
    addSlide(): { addText(text: unknown, options: Record<string, unknown>): void };
    write(options: { outputType: string }): Promise<unknown>;
  };
  const deck = new (PptxGenJS as unknown as new () => Deck)();
  for (let number = 1; number <= count; number += 1) {
    const slide = deck.addSlide();
    slide.addText(`Slide ${number} text`, { x: 0.5, y: 0.5, w: 9, h: 1 });
  }
  return new Uint8Array((await deck.write({ outputType: "uint8array" })) as Uint8Array);
}

/** The deck re-zipped with some parts replaced (a part given `undefined` is left out). */
function withParts(deck: Uint8Array, replaced: Record<string, HostileZipEntry>): Uint8Array {
  const entries = Object.entries(unzipSync(deck)).map(
    ([name, data]): HostileZipEntry => replaced[name] ?? { name, data },
  );
  return buildZip(entries);
}

/** A slide part that inflates to 300 MB while its directory declares 2 KB. */
function slideBomb(name: string): HostileZipEntry {
  const stream = repeatedDeflate(" ".repeat(1 << 20), 300, {
    head: '<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld>',
    tail: "</p:cSld></p:sld>",
  });
  return { name, deflated: stream.deflated, declaredSize: 2_000, crc: 0 };
}

/** A slide of `count` bulleted paragraphs in one body placeholder (about 250 bytes each). */
function bigSlide(name: string, count: number): HostileZipEntry {
  const paragraph =
    '<a:p><a:pPr lvl="0"/><a:r><a:rPr lang="en-US" b="1"/><a:t>A bold start</a:t></a:r><a:r><a:rPr lang="en-US"/><a:t> and the rest of a fairly ordinary sentence on the slide.</a:t></a:r></a:p>';
  const data = `<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:txBody>${paragraph.repeat(count)}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  return { name, data, level: 1 };
}

/** Markdown in pandoc's slide conventions: `#` a section, `##` a slide, `###` inside it. */
const PANDOC_SOURCE = `---
title: The Deck
---

# Part one

## Slide A

Intro with \`code\`, a [link with **bold** words](https://example.org/a) and a [jump](#slide-b).

### Inner heading

**Term**

:   Its definition.

1.  First step

    \`\`\`
    npm install
    \`\`\`

2.  Second step

\`\`\`
line one
# not a heading
\`\`\`

## Slide B

- a bullet

3.  Third
4.  Fourth
`;

let folder: ReturnType<typeof readFolder>;
beforeAll(async () => {
  const deck = await plainDeck(45);
  const files: Record<string, Uint8Array> = {
    "long.pptx": deck,
    "hostile.pptx": withParts(deck, {
      "ppt/slides/slide40.xml": { name: "ppt/slides/slide40.xml", data: "<p:sld><p:cSld>" },
      "ppt/slides/slide44.xml": slideBomb("ppt/slides/slide44.xml"),
    }),
    "big.pptx": withParts(await plainDeck(3), {
      "ppt/slides/slide2.xml": bigSlide("ppt/slides/slide2.xml", 40_000),
    }),
    "long.odp": odfPackage(
      "application/vnd.oasis.opendocument.presentation",
      "",
      `<office:presentation>${Array.from(
        { length: 30 },
        (_, index) =>
          `<draw:page draw:name="p${index + 1}"><draw:frame presentation:class="title"><draw:text-box><text:p>Page ${index + 1}</text:p></draw:text-box></draw:frame></draw:page>`,
      ).join("")}</office:presentation>`,
    ),
  };
  if (HAS_PANDOC) {
    const scratch = mkdtempSync(join(tmpdir(), "slides-"));
    writeFileSync(join(scratch, "deck.md"), PANDOC_SOURCE);
    execFileSync("pandoc", ["-o", join(scratch, "deck.pptx"), join(scratch, "deck.md")]);
    files["pandoc.pptx"] = readFileSync(join(scratch, "deck.pptx"));
    rmSync(scratch, { recursive: true, force: true });
  }
  folder = readFolder(files);
});
afterAll(() => folder.remove());
afterEach(() => {
  vi.restoreAllMocks();
});

const read = (input: Record<string, unknown>) =>
  createReadDocumentTool({ root: folder.root }).run(input);

/** Counts the slide parts (`ppt/slides/slideN.xml`) inflated from here on. */
function countSlidesInflated(): () => number {
  const stream = vi.spyOn(ZipArchive.prototype, "stream");
  return () =>
    stream.mock.calls.filter(([name]) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).length;
}

describe("read_document — .pptx as pandoc writes it", () => {
  it.skipIf(!HAS_PANDOC)(
    "reads sections, slide titles and inner headings at their levels; code, links, definitions and list items as the source has them",
    async () => {
      const result = await read({ path: "pandoc.pptx" });
      if (!result.success) throw new Error(result.error.message);
      const md = result.data.markdown;
      expect(result.data.title).toBe("The Deck");
      expect(md).toContain("<!-- Slide 2 -->\n# Part one");
      expect(md).toContain("<!-- Slide 3 -->\n## Slide A");
      expect(md).toContain(
        "Intro with `code`, a [link with **bold** words](https://example.org/a) and a [jump](#slide-4).",
      );
      expect(md).toContain("### Inner heading");
      // a definition's term is bold but not spaced like a heading
      expect(md).toContain("**Term**\n\nIts definition.");
      expect(md).toContain("1. First step\n\n    ```\n    npm install\n    ```\n\n2. Second step");
      expect(md).toContain("```\nline one\n# not a heading\n```");
      expect(md).toContain("- a bullet\n3. Third\n4. Fourth");
    },
  );
});

describe("read_document — a page of slides converts only its slides", () => {
  it("inflates only the first page's slide parts; total is the exact slide count", async () => {
    const inflated = countSlidesInflated();
    const result = await read({ path: "long.pptx" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ total: 45, offset: 1, next_offset: 21, truncated: true });
    expect(result.data.markdown).toContain("<!-- Slide 20 -->");
    expect(result.data.markdown).not.toContain("<!-- Slide 21 -->");
    expect(inflated()).toBe(20);
    const selected = await read({ path: "long.pptx", pages: "30-45", offset: 3, limit: 2 });
    if (!selected.success) throw new Error(selected.error.message);
    expect(selected.data).toMatchObject({ total: 16, offset: 3, next_offset: 5 });
    expect(selected.data.markdown).toMatch(/^<!-- Slide 32 -->[\s\S]*<!-- Slide 33 -->/);
    expect(inflated()).toBe(22);
  });

  it("answers the pages before a corrupt and a bomb slide; the page holding one names it", async () => {
    const first = await read({ path: "hostile.pptx", limit: 39 });
    if (!first.success) throw new Error(first.error.message);
    expect(first.data).toMatchObject({ total: 45, next_offset: 40 });
    expect(first.data.markdown).toContain("Slide 39 text");
    const after = await read({ path: "hostile.pptx", pages: "45" });
    expect(after.success && after.data.markdown).toContain("Slide 45 text");
    const corrupt = await read({ path: "hostile.pptx", pages: "38-41" });
    expect(!corrupt.success && corrupt.error).toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringMatching(/^Slide 40: /),
      hint: expect.stringContaining('pages: "41-"'),
    });
    const bomb = await read({ path: "hostile.pptx", pages: "44" });
    expect(!bomb.success && bomb.error.code).toBe("TOO_LARGE");
  });

  it("converts a 10 MB slide without holding the event loop 250 ms", async () => {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const tool = createReadDocumentTool({ root: folder.root, maxPageChars: 10_000_000 });
    const result = await tool.run({ path: "big.pptx", pages: "2" });
    histogram.disable();
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.markdown.split("\n- **A bold start** and the rest").length).toBe(40_001);
    expect(histogram.max / 1e6).toBeLessThan(250);
  }, 60_000);

  it("pages an .odp by slide with the exact count, converting only the page", async () => {
    const converted = vi.spyOn(OdfTextWriter.prototype, "finish");
    const result = await read({ path: "long.odp", pages: "12-30", limit: 3 });
    if (!result.success) throw new Error(result.error.message);
    expect(converted).toHaveBeenCalledTimes(3);
    expect(result.data).toMatchObject({ total: 19, next_offset: 4, truncated: true });
    expect(result.data.markdown).toBe(
      "<!-- Slide 12 -->\n# Page 12\n\n<!-- Slide 13 -->\n# Page 13\n\n<!-- Slide 14 -->\n# Page 14",
    );
    const past = await read({ path: "long.odp", pages: "31" });
    expect(!past.success && past.error.message).toContain("the document has 30 slides");
  });
});
