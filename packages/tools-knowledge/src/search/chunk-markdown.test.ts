import { describe, expect, test } from "vitest";
import type { Chunk, ChunkedDocument } from "../engine/types.js";
import {
  BINARY_SNIFF_BYTES,
  chunkMarkdown,
  DEFAULT_MAX_CHUNK_CHARACTERS,
  isBinaryContent,
  MIN_MAX_CHUNK_CHARACTERS,
} from "./chunk-markdown.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The source lines a chunk claims, as read_file would show them. */
function sourceLines(text: string, chunk: Chunk): string {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .map((line) => line.replace(/\r$/, ""));
  return lines.slice(chunk.start_line - 1, chunk.end_line).join("\n");
}

/** Checks the invariants every chunked document keeps. */
function expectInvariants(text: string, document: ChunkedDocument, cap: number): void {
  let previousEnd = 0;
  document.chunks.forEach((chunk, index) => {
    expect(chunk.chunk_index).toBe(index);
    expect(chunk.text.length).toBeLessThanOrEqual(cap);
    expect(chunk.start_line).toBeGreaterThanOrEqual(1);
    expect(chunk.end_line).toBeGreaterThanOrEqual(chunk.start_line);
    expect(chunk.text.trim().length).toBeGreaterThan(0);
    expect(chunk.text).not.toContain("\r\n");
    const source = sourceLines(text, chunk);
    if (chunk.start_line === chunk.end_line && source.length > cap) {
      // A piece of an over-long line.
      expect(source).toContain(chunk.text);
      expect(chunk.start_line).toBeGreaterThanOrEqual(previousEnd);
    } else {
      expect(chunk.text).toBe(source);
      expect(chunk.start_line).toBeGreaterThan(previousEnd);
      const lines = chunk.text.split("\n");
      expect(lines[0]?.trim()).not.toBe("");
      expect(lines[lines.length - 1]?.trim()).not.toBe("");
    }
    previousEnd = chunk.end_line;
  });
}

describe("chunkMarkdown — headings", () => {
  test("ATX headings start chunks and build the trail, closing #s removed", () => {
    const text = [
      "Intro line.",
      "",
      "# Power ##",
      "",
      "Mains text.",
      "",
      "## Limits",
      "",
      "The regulator caps at 5V.",
      "",
      "### Deep `code` **bold** [link](https://example.com)",
      "deep text",
      "",
      "## Other",
      "other text",
      "",
      "# Second",
      "second text",
    ].join("\n");
    const { chunks } = chunkMarkdown(text);
    expect(chunks.map((chunk) => [chunk.start_line, chunk.end_line, chunk.heading_trail])).toEqual([
      [1, 1, []],
      [3, 5, ["Power"]],
      [7, 9, ["Power", "Limits"]],
      [11, 12, ["Power", "Limits", "Deep code bold link"]],
      [14, 15, ["Power", "Other"]],
      [17, 18, ["Second"]],
    ]);
    expectInvariants(text, { chunks, front_matter: "" }, DEFAULT_MAX_CHUNK_CHARACTERS);
  });

  test("#hashtag, #5 and a four-space indented # line are not headings", () => {
    const text = "# Real\n\n#hashtag text\n#5 bolts\n\n    # indented code\n\nafter";
    const { chunks } = chunkMarkdown(text);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.heading_trail).toEqual(["Real"]);
    expect(chunks[0]?.end_line).toBe(8);
  });

  test("Setext headings (=== level 1, --- level 2), a two-line title, and --- under a list is not one", () => {
    const text = [
      "Main Title",
      "==========",
      "",
      "body one",
      "",
      "Sub title",
      "on two lines",
      "------------",
      "body two",
      "",
      "- a list item",
      "---",
      "still under sub title",
      "",
      "---",
      "",
      "after a thematic break",
    ].join("\n");
    const { chunks } = chunkMarkdown(text);
    expect(chunks.map((chunk) => [chunk.start_line, chunk.end_line, chunk.heading_trail])).toEqual([
      [1, 4, ["Main Title"]],
      [6, 17, ["Main Title", "Sub title on two lines"]],
    ]);
  });

  test("a body-less heading joins its first child's chunk; a body-less sibling stays its own chunk", () => {
    const text = "# Guide\n\n## Install\n\nRun it.\n\n## Empty\n## Use\n\nCall it.";
    const { chunks } = chunkMarkdown(text);
    expect(chunks.map((chunk) => [chunk.text, chunk.heading_trail])).toEqual([
      ["# Guide\n\n## Install\n\nRun it.", ["Guide", "Install"]],
      ["## Empty", ["Guide", "Empty"]],
      ["## Use\n\nCall it.", ["Guide", "Use"]],
    ]);
  });

  test("a shallower heading resets the trail; empty `#` headings add nothing to it", () => {
    const text = "# A\na\n### C\nc\n## B\nb\n#\nnone";
    const { chunks } = chunkMarkdown(text);
    expect(chunks.map((chunk) => chunk.heading_trail)).toEqual([["A"], ["A", "C"], ["A", "B"], []]);
  });
});

describe("chunkMarkdown — code fences and comments", () => {
  test("no heading is taken from inside ``` or ~~~ fences, an indented block or an HTML comment", () => {
    const text = [
      "# Outside",
      "",
      "```bash",
      "# a shell comment, not a heading",
      "echo hi",
      "```",
      "",
      "~~~",
      "## not a heading",
      "```",
      "## still inside the tilde fence",
      "~~~",
      "",
      "````md",
      "```",
      "# inside a longer fence",
      "```",
      "````",
      "",
      "<!--",
      "# commented out",
      "-->",
      "",
      "Setext inside a fence does not count:",
      "",
      "```",
      "Title",
      "=====",
      "```",
    ].join("\n");
    const document = chunkMarkdown(text);
    expect(document.chunks).toHaveLength(1);
    expect(document.chunks[0]?.heading_trail).toEqual(["Outside"]);
    expect(document.chunks[0]?.end_line).toBe(29);
  });

  test("an unclosed fence runs to the end of the document", () => {
    const text = "# A\n\n```\n# B\ncode";
    const { chunks } = chunkMarkdown(text);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.heading_trail).toEqual(["A"]);
  });

  test("a fence that fits is never split: it moves whole to the next chunk", () => {
    const paragraph = "word ".repeat(20).trim(); // 99 characters
    const fence = [
      "```js",
      ...Array.from({ length: 8 }, (_, index) => `const value${index} = ${index};`),
      "```",
    ];
    const text = ["# Code", "", paragraph, "", ...fence, "", paragraph].join("\n");
    const cap = 300;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expectInvariants(text, document, cap);
    const fenceStart = 5;
    const fenceEnd = fenceStart + fence.length - 1;
    const holding = document.chunks.filter(
      (chunk) => chunk.start_line <= fenceEnd && chunk.end_line >= fenceStart,
    );
    expect(holding).toHaveLength(1);
    expect(holding[0]?.start_line).toBeLessThanOrEqual(fenceStart);
    expect(holding[0]?.end_line).toBeGreaterThanOrEqual(fenceEnd);
  });

  test("a fence bigger than the cap is split on line boundaries", () => {
    const body = Array.from({ length: 40 }, (_, index) => `line ${index} of a long listing`);
    const text = ["```", ...body, "```"].join("\n");
    const cap = 200;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expect(document.chunks.length).toBeGreaterThan(4);
    expectInvariants(text, document, cap);
    // Every line of the fence is in exactly one chunk.
    const covered = document.chunks.flatMap((chunk) =>
      Array.from(
        { length: chunk.end_line - chunk.start_line + 1 },
        (_, index) => chunk.start_line + index,
      ),
    );
    expect(covered).toEqual(Array.from({ length: 42 }, (_, index) => index + 1));
  });
});

describe("chunkMarkdown — over-long lines inside blocks", () => {
  test("a fence holding one line longer than the cap: the fence splits by lines, that line by characters", () => {
    const long = "0123456789".repeat(30);
    const text = ["```", "short", long, "tail", "```"].join("\n");
    const cap = 100;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expectInvariants(text, document, cap);
    const pieces = document.chunks.filter(
      (chunk) => chunk.start_line === 3 && chunk.end_line === 3,
    );
    expect(pieces.map((piece) => piece.text).join("")).toBe(long);
    expect(document.chunks[0]?.text).toBe("```\nshort");
  });

  test("a table row longer than the cap is the one row that is cut, at character boundaries", () => {
    const row = `| ${"cell ".repeat(60)}| end |`;
    const text = ["| a | b |", "|---|---|", "| 1 | 2 |", row, "| 3 | 4 |"].join("\n");
    const cap = 80;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expectInvariants(text, document, cap);
    expect(
      document.chunks
        .filter((chunk) => chunk.start_line === 4)
        .map((chunk) => chunk.text)
        .join(""),
    ).toBe(row);
    expect(document.chunks.at(-1)?.text).toBe("| 3 | 4 |");
  });
});

describe("chunkMarkdown — front matter", () => {
  test("YAML fields go to front_matter, not to a chunk, and line numbers stay true", () => {
    const text = [
      "---",
      'title: "Deploying with Docker"',
      "tags:",
      "  - docker",
      "  - 'networking'",
      "# a YAML comment",
      "---",
      "# Docker",
      "",
      "Body text.",
    ].join("\n");
    const document = chunkMarkdown(text);
    expect(document.front_matter).toBe("title: Deploying with Docker tags: docker networking");
    expect(document.chunks).toHaveLength(1);
    expect(document.chunks[0]).toMatchObject({
      start_line: 8,
      end_line: 10,
      heading_trail: ["Docker"],
    });
    expect(document.chunks[0]?.text).not.toContain("title");
    expectInvariants(text, document, DEFAULT_MAX_CHUNK_CHARACTERS);
  });

  test("`...` closes YAML, `+++` TOML front matter works, front matter alone gives no chunks", () => {
    expect(chunkMarkdown("---\na: 1\n...\nbody").front_matter).toBe("a: 1");
    const toml = chunkMarkdown('+++\ntitle = "T"\n+++\n\nbody');
    expect(toml.front_matter).toBe("title = T");
    expect(toml.chunks[0]).toMatchObject({ start_line: 5, text: "body" });
    expect(chunkMarkdown("---\ntitle: only\n---\n")).toEqual({
      chunks: [],
      front_matter: "title: only",
    });
  });

  test("a --- on line 1 without a closing line is not front matter, and --- later is not either", () => {
    const unclosed = chunkMarkdown("---\ntitle: x\n\nbody");
    expect(unclosed.front_matter).toBe("");
    expect(unclosed.chunks[0]?.start_line).toBe(1);
    const later = chunkMarkdown("\n---\na: b\n---\nbody");
    expect(later.front_matter).toBe("");
  });
});

describe("chunkMarkdown — tables", () => {
  const header = "| name | value | notes |";
  const delimiter = "|:-----|------:|-------|";
  const rows = Array.from(
    { length: 30 },
    (_, index) => `| key${index} | ${index * 7} | row number ${index} |`,
  );

  test("a table that fits stays whole in one chunk", () => {
    const text = [
      "# Table",
      "",
      "Intro.",
      "",
      header,
      delimiter,
      ...rows.slice(0, 3),
      "",
      "After.",
    ].join("\n");
    const { chunks } = chunkMarkdown(text);
    expect(chunks).toHaveLength(1);
  });

  test("a table bigger than the cap splits between rows, never inside one", () => {
    const text = ["# Table", "", header, delimiter, ...rows].join("\n");
    const cap = 200;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expect(document.chunks.length).toBeGreaterThan(3);
    expectInvariants(text, document, cap);
    for (const chunk of document.chunks) {
      for (const line of chunk.text.split("\n")) {
        if (line.startsWith("|")) expect(line.endsWith("|")).toBe(true);
      }
    }
  });

  test("a table that would not fit beside earlier text moves whole to the next chunk", () => {
    const paragraph = "text ".repeat(30).trim();
    const table = [header, delimiter, ...rows.slice(0, 4)];
    const text = ["# T", "", paragraph, "", ...table].join("\n");
    const tableLength = table.join("\n").length;
    const cap = tableLength + 10;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expect(document.chunks.map((chunk) => chunk.start_line)).toEqual([1, 5]);
    expect(document.chunks[1]?.text).toBe(table.join("\n"));
  });
});

describe("chunkMarkdown — line endings, scripts, long lines, empty input", () => {
  test("CRLF files chunk exactly like LF files, with the same line numbers and no \\r", () => {
    const lf = "---\ntitle: t\n---\n# A\n\ntext a\n\nB\n---\ntext b\n\n```\n# x\n```\n";
    const crlf = lf.replace(/\n/g, "\r\n");
    expect(chunkMarkdown(crlf)).toEqual(chunkMarkdown(lf));
    expect(
      chunkMarkdown(crlf).chunks.map((chunk) => [chunk.start_line, chunk.heading_trail]),
    ).toEqual([
      [4, ["A"]],
      [8, ["A", "B"]],
    ]);
  });

  test("a leading byte-order mark is ignored", () => {
    expect(chunkMarkdown("\uFEFF# Title\ntext")).toEqual(chunkMarkdown("# Title\ntext"));
  });

  test("CJK headings and text", () => {
    const text = "# 東京の天気\n\n今日は晴れです。\n\n## 한국어 설명\n\n서울은 맑습니다.";
    const { chunks } = chunkMarkdown(text);
    expect(chunks.map((chunk) => chunk.heading_trail)).toEqual([
      ["東京の天気"],
      ["東京の天気", "한국어 설명"],
    ]);
  });

  test("a line longer than the cap is split at character boundaries; every piece spans that line", () => {
    const long = "lorem ipsum dolor sit amet ".repeat(40).trim();
    const text = `# Long\n\nshort line\n${long}\nafter`;
    const cap = 120;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expectInvariants(text, document, cap);
    const pieces = document.chunks.filter((chunk) => chunk.start_line === 4);
    expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(long.length / cap));
    expect(pieces.map((piece) => piece.text).join("")).toBe(long);
    // Cut after a space when one is near the cap, so words stay whole.
    for (const piece of pieces.slice(0, -1)) expect(piece.text.endsWith(" ")).toBe(true);
    expect(document.chunks.at(-1)).toMatchObject({ text: "after", start_line: 5 });
  });

  test("a long CJK line splits without breaking a surrogate pair or separating a combining mark", () => {
    // 𠀀 (U+20000) is two UTF-16 code units; e + U+0301 is one character in two code points.
    const long = "漢字かな𠀀".repeat(60) + "e\u0301".repeat(30);
    const cap = 33;
    const document = chunkMarkdown(long, { maxChunkCharacters: cap });
    expectInvariants(long, document, cap);
    expect(document.chunks.map((chunk) => chunk.text).join("")).toBe(long);
    for (const chunk of document.chunks) {
      expect(chunk.start_line).toBe(1);
      expect(LONE_SURROGATE.test(chunk.text)).toBe(false);
      expect(/^\p{M}/u.test(chunk.text)).toBe(false);
    }
  });

  test("empty and blank documents have no chunks", () => {
    for (const text of ["", "\n", "\n\n\n", "   \n\t\n", "\uFEFF", "\r\n\r\n"]) {
      expect(chunkMarkdown(text)).toEqual({ chunks: [], front_matter: "" });
    }
  });

  test("a document with only headings gives one chunk per childless heading", () => {
    const { chunks } = chunkMarkdown("# A\n## B\n## C");
    expect(chunks.map((chunk) => [chunk.text, chunk.heading_trail])).toEqual([
      ["# A\n## B", ["A", "B"]],
      ["## C", ["A", "C"]],
    ]);
  });
});

describe("chunkMarkdown — packing", () => {
  test("whole paragraphs are packed up to the cap, a paragraph that does not fit starts the next chunk", () => {
    const paragraph = (seed: number) => `paragraph ${seed} ${"filler words ".repeat(45).trim()}`;
    const text = ["# Section", "", paragraph(1), "", paragraph(2), "", paragraph(3)].join("\n");
    const document = chunkMarkdown(text);
    expectInvariants(text, document, DEFAULT_MAX_CHUNK_CHARACTERS);
    expect(document.chunks.map((chunk) => [chunk.start_line, chunk.end_line])).toEqual([
      [1, 5],
      [7, 7],
    ]);
    expect(document.chunks[1]?.heading_trail).toEqual(["Section"]);
  });

  test("a paragraph bigger than the cap splits between its lines", () => {
    const lines = Array.from(
      { length: 30 },
      (_, index) => `sentence number ${index} of one paragraph.`,
    );
    const text = lines.join("\n");
    const cap = 150;
    const document = chunkMarkdown(text, { maxChunkCharacters: cap });
    expectInvariants(text, document, cap);
    expect(document.chunks.map((chunk) => chunk.text).join("\n")).toBe(text);
  });

  test("random documents keep every invariant at several caps (seeded, reproducible)", () => {
    let state = 12345;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const blocks: Array<() => string[]> = [
      () => [`${"#".repeat(1 + Math.floor(random() * 4))} Heading ${Math.floor(random() * 100)}`],
      () => ["Setext title", pick(["===", "---"])],
      () =>
        Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
          "text ".repeat(1 + Math.floor(random() * 30)),
        ),
      () => [
        "```",
        ...Array.from({ length: Math.floor(random() * 12) }, () => pick(["# hash", "code();", ""])),
        "```",
      ],
      () => [
        "| a | b |",
        "|---|---|",
        ...Array.from({ length: Math.floor(random() * 15) }, () => "| x | y |"),
      ],
      () => ["- item", "- item two", pick(["---", "more"])],
      () => ["x".repeat(Math.floor(random() * 400))],
      () => ["東京都の中心部にある".repeat(1 + Math.floor(random() * 20))],
      () => [""],
    ];
    for (let documentNumber = 0; documentNumber < 60; documentNumber += 1) {
      const parts: string[] = [];
      if (random() < 0.3) parts.push("---", "title: random", "---");
      const count = Math.floor(random() * 25);
      for (let index = 0; index < count; index += 1) parts.push(...pick(blocks)(), "");
      const text = parts.join(random() < 0.3 ? "\r\n" : "\n");
      for (const cap of [MIN_MAX_CHUNK_CHARACTERS, 64, 300, DEFAULT_MAX_CHUNK_CHARACTERS]) {
        expectInvariants(text, chunkMarkdown(text, { maxChunkCharacters: cap }), cap);
      }
    }
  });

  test("maxChunkCharacters must be an integer of at least 16", () => {
    for (const bad of [0, -1, 15, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => chunkMarkdown("text", { maxChunkCharacters: bad })).toThrow(RangeError);
    }
    expect(chunkMarkdown("text", { maxChunkCharacters: 16 }).chunks).toHaveLength(1);
  });
});

describe("isBinaryContent", () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  test("UTF-8 text (with CJK and emoji) is not binary; an empty file is not binary", () => {
    expect(isBinaryContent(encode("# Notes\n\n東京 — café 🎉\n"))).toBe(false);
    expect(isBinaryContent(new Uint8Array(0))).toBe(false);
  });

  test("a NUL byte or invalid UTF-8 in the first 8 KB is binary", () => {
    expect(
      isBinaryContent(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])),
    ).toBe(true);
    expect(isBinaryContent(new Uint8Array([0x61, 0x62, 0xff, 0x63]))).toBe(true);
    expect(isBinaryContent(new Uint8Array([0x61, 0xc3, 0x28]))).toBe(true);
    expect(isBinaryContent(encode("\uFEFFtext").slice(0))).toBe(false);
    // UTF-16 text carries NUL bytes.
    expect(isBinaryContent(new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x62, 0x00]))).toBe(true);
  });

  test("only the first 8 KB count, and a character cut by the 8 KB boundary is not invalid", () => {
    const prefix = "a".repeat(BINARY_SNIFF_BYTES - 1);
    const cut = encode(`${prefix}é and more`); // é's two bytes straddle the boundary
    expect(cut[BINARY_SNIFF_BYTES - 1]).toBe(0xc3);
    expect(isBinaryContent(cut)).toBe(false);
    const late = new Uint8Array(BINARY_SNIFF_BYTES + 10).fill(0x61);
    late[BINARY_SNIFF_BYTES + 5] = 0;
    expect(isBinaryContent(late)).toBe(false);
  });
});

describe("chunkMarkdown — hostile input stays linear", () => {
  // Each input made a backtracking regular expression quadratic in an earlier draft (seconds at
  // 20 KB, minutes at 1 MB); here they finish like any other megabyte.
  const megabyte = 1 << 20;

  test("a giant heading of `[` and `<` characters gives a bounded trail", () => {
    const { chunks } = chunkMarkdown(
      `# ${"[".repeat(megabyte)}\n## ${"<a".repeat(megabyte / 2)}\nbody`,
    );
    for (const chunk of chunks) {
      for (const heading of chunk.heading_trail) expect(heading.length).toBeLessThanOrEqual(300);
    }
    expect(chunks.at(-1)?.text).toContain("body");
  });

  test("a delimiter-like row with a megabyte of spaces is not a table and does not stall", () => {
    const text = `| a | b |\n|-${" ".repeat(megabyte)}x\nmore`;
    const document = chunkMarkdown(text);
    expect(document.chunks.length).toBeGreaterThan(1);
  });

  test("a Setext heading over a huge paragraph keeps a bounded title", () => {
    const paragraph = Array.from({ length: 20_000 }, (_, index) => `line ${index} of text`).join(
      "\n",
    );
    const { chunks } = chunkMarkdown(`${paragraph}\n===\nbody`);
    expect(chunks.at(-1)?.heading_trail[0]?.length).toBeLessThanOrEqual(300);
  });
});
