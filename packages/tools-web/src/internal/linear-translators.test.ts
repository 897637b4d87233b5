import { NodeHtmlMarkdown } from "node-html-markdown";
import { describe, expect, it } from "vitest";
import {
  hardBreakListLines,
  LINE_START_ESCAPE,
  markLineEndBreaks,
  trimNewLines,
  useLinearTranslators,
} from "./linear-translators.js";
import { translateHtml } from "./markdown-visitor.js";

/** node-html-markdown 2.0.0's own expressions, the reference. */
const UPSTREAM_LINE_START = /^(\s*?)((?:\+\s)|(?:[=>-])|(?:#{1,6}\s))|(?:(\d+)(\.\s))/gm;
const UPSTREAM_HARD_BREAKS = /([^\r\n])(?:\r?\n)+(?!\s*[-*+]|\s*\d+\.|\s*\|)/g;
const UPSTREAM_LINE_ENDS = /(\S+?)[^\S\r\n]+$/gm;

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  " ",
  " ",
  "\n",
  "\n",
  "\r",
  "\t",
  "\u2028",
  "\u00a0",
  "-",
  "+",
  "*",
  "|",
  "#",
  "=",
  ">",
  "1",
  "2",
  ".",
  "x",
  "y",
];

/** Random short strings over the characters these expressions care about. */
function samples(count: number): string[] {
  const next = random(29);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 24);
    let text = "";
    for (let index = 0; index < length; index += 1) {
      text += ALPHABET[Math.floor(next() * ALPHABET.length)];
    }
    return text;
  });
}

describe("linear translator helpers give upstream's strings", () => {
  const texts = samples(20_000);

  it("trimNewLines", () => {
    for (const text of texts) expect(trimNewLines(text)).toBe(text.replace(/^\n+|\n+$/g, ""));
  });

  it("hardBreakListLines", () => {
    for (const text of texts) {
      expect(hardBreakListLines(text, "    ")).toBe(
        text.replace(UPSTREAM_HARD_BREAKS, "$1  \n    "),
      );
    }
  });

  it("markLineEndBreaks", () => {
    for (const text of texts)
      expect(markLineEndBreaks(text)).toBe(text.replace(UPSTREAM_LINE_ENDS, "$1  "));
  });

  it("LINE_START_ESCAPE", () => {
    const [pattern, replacement] = LINE_START_ESCAPE;
    for (const text of texts) {
      expect(text.replace(pattern, replacement)).toBe(
        text.replace(UPSTREAM_LINE_START, "$1$3\\$2$4"),
      );
    }
  });
});

describe("useLinearTranslators", () => {
  it("converts lists, quotes, tables and links to upstream's Markdown", () => {
    for (const options of [
      { bulletMarker: "-" },
      { useLinkReferenceDefinitions: true, useInlineLinks: false },
    ]) {
      const plain = new NodeHtmlMarkdown(options);
      const linear = new NodeHtmlMarkdown(options);
      useLinearTranslators(linear);
      const pages = [
        "<ul><li>one  \n two<br>three</li><li>a<ul><li>b\n- c</li></ul></li><li> </li><li>x<pre>p\n\n1. q\n|t</pre></li></ul>",
        "<ol><li>first</li><li><p>para</p><p>two</p></li></ol><blockquote>\n\n<p>q</p><blockquote>deep\n</blockquote>\n</blockquote>",
        '<p><a href="/a_(b)*c" title="T">x<br>y</a> <a href="https://e.com/">https://e.com/</a> <a href="">e</a> <a>n</a></p>',
        '<table><tr><td><a href="/t_1">cell <b>link</b></a></td></tr></table><a href="/\u{1F600}_x">emoji</a>',
        "<table><caption>c</caption><tr><th>a|b</th><th>\n\nx\n</th></tr><tr><td><pre>\n1\n\n2\n</pre></td><td>| y |</td></tr></table>",
      ];
      for (const html of pages) expect(translateHtml(linear, html)).toBe(plain.translate(html));
    }
  });

  it("keeps a 200 KB word in a list item and line breaks in cells (outputs checked at two sizes)", () => {
    const linear = new NodeHtmlMarkdown({ bulletMarker: "-", lineStartEscape: LINE_START_ESCAPE });
    useLinearTranslators(linear);
    for (const size of [100_000, 200_000]) {
      expect(translateHtml(linear, `<ul><li>${"x".repeat(size)}  </li></ul>`)).toBe(
        `- ${"x".repeat(size)}`,
      );
      const cell = translateHtml(
        linear,
        `<table><tr><td><pre>a${"\n".repeat(size)}b</pre></td></tr></table>`,
      );
      expect(cell.split("\n")[0]).toBe("| a b |");
      const item = translateHtml(linear, `<ul><li>a<pre>x${"\n".repeat(size)}- y</pre></li></ul>`);
      expect(item.split("\n").filter((line) => line.trim() !== "")).toHaveLength(3);
    }
  });
});
