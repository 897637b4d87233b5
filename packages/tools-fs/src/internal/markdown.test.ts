import { describe, expect, it } from "vitest";
import { countText, parseMarkdown, splitLines, stripInlineMarkdown } from "./markdown.js";

describe("splitLines", () => {
  it("splits on LF, CRLF and CR; a final line ending does not start a line", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a")).toEqual(["a"]);
    expect(splitLines("a\n")).toEqual(["a"]);
    expect(splitLines("a\r\nb\rc\n\n")).toEqual(["a", "b", "c", ""]);
  });
});

describe("parseMarkdown headings", () => {
  it("finds ATX headings with optional closing #s", () => {
    const document = parseMarkdown(
      "# One\n## Two ##\n###   Three   ###   \n#### Four#\n####### seven\n#NoSpace\n   ### Indented\n",
    );
    expect(document.headings).toEqual([
      { level: 1, title: "One", line: 1 },
      { level: 2, title: "Two", line: 2 },
      { level: 3, title: "Three", line: 3 },
      { level: 4, title: "Four#", line: 4 },
      { level: 3, title: "Indented", line: 7 },
    ]);
  });

  it("finds Setext headings, multi-line ones at their first line", () => {
    const document = parseMarkdown("Title\n=====\n\nSub\ntitle\n---\n\ntext\n");
    expect(document.headings).toEqual([
      { level: 1, title: "Title", line: 1 },
      { level: 2, title: "Sub title", line: 4 },
    ]);
  });

  it("ignores headings inside ``` and ~~~ fences, longer fences and info strings", () => {
    const text = [
      "# Real",
      "```ts title=x",
      "# not a heading",
      "```",
      "~~~~",
      "# not either",
      "~~~",
      "still code",
      "~~~~",
      "````md",
      "```",
      "# nested fence content",
      "```",
      "````",
      "## After",
    ].join("\n");
    expect(parseMarkdown(text).headings).toEqual([
      { level: 1, title: "Real", line: 1 },
      { level: 2, title: "After", line: 15 },
    ]);
  });

  it("treats an unclosed fence as code to the end", () => {
    expect(parseMarkdown("# A\n```\n# B\n").headings).toEqual([{ level: 1, title: "A", line: 1 }]);
  });

  it("ignores indented code, but an indented line continues a paragraph", () => {
    expect(parseMarkdown("text\n\n    # code\n\n# Yes\n").headings).toEqual([
      { level: 1, title: "Yes", line: 5 },
    ]);
    const document = parseMarkdown("para\n    # continues\n");
    expect(document.headings).toEqual([]);
    expect(document.blocks.map((block) => block.kind)).toEqual(["paragraph"]);
  });

  it("reads --- after a list item or alone as a thematic break, not a heading", () => {
    expect(parseMarkdown("- item\n---\n\n---\n").headings).toEqual([]);
  });

  it("skips front matter and HTML comments", () => {
    const text = "---\ntitle: x\n---\n# Real\n<!--\n# hidden\n-->\n## Two\n";
    expect(parseMarkdown(text).headings).toEqual([
      { level: 1, title: "Real", line: 4 },
      { level: 2, title: "Two", line: 8 },
    ]);
  });

  it("handles CRLF documents", () => {
    expect(parseMarkdown("# A\r\nB\r\n==\r\n").headings).toEqual([
      { level: 1, title: "A", line: 1 },
      { level: 1, title: "B", line: 2 },
    ]);
  });

  it("counts paragraphs as runs of lines between blank lines", () => {
    const document = parseMarkdown("# H\nOne\ntwo\n\nThree\n\n```\ncode\n```\n- a\n- b\n");
    expect(document.blocks.filter((block) => block.kind === "paragraph")).toHaveLength(3);
    expect(document.lines).toBe(11);
  });

  it("parses plain text without headings when markdown is off", () => {
    const document = parseMarkdown("# not\n\ntext\n", { markdown: false });
    expect(document.headings).toEqual([]);
    expect(document.blocks).toHaveLength(2);
  });
});

describe("countText", () => {
  it("counts Latin words by whitespace and punctuation", () => {
    expect(countText("Hello, world! Don't stop: e-mail 3.14 ...").words).toBe(6);
  });

  it("counts each CJK character as a word", () => {
    expect(countText("你好世界").words).toBe(4);
    expect(countText("こんにちは カタカナ コーヒー").words).toBe(5 + 4 + 4);
    expect(countText("안녕 하세요").words).toBe(5);
    expect(countText("我用 TypeScript 写代码").words).toBe(2 + 1 + 3);
  });

  it("counts characters without whitespace, astral characters once", () => {
    expect(countText("a b\tc\n😀").characters).toBe(4);
    expect(countText("Hello, 世界!")).toEqual({ characters: 9, words: 3, cjkCharacters: 2 });
  });
});

describe("stripInlineMarkdown", () => {
  it("keeps link and image text, drops URLs, tags and emphasis markers", () => {
    expect(
      stripInlineMarkdown(
        "- **Bold** [link](https://example.com/a) ![alt](i.png) <b>x</b> `code`",
      ).trim(),
    ).toBe("Bold link alt  x  code");
    expect(stripInlineMarkdown("snake_case _em_")).toBe("snake_case em");
  });
});
