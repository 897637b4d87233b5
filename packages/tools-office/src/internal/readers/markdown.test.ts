import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { markdownLink, markdownTableCell, renderInline, tableCell } from "./markdown.js";
import { MarkdownWriter } from "./markdown-writer.js";

const HAS_PANDOC = existsSync("/usr/bin/pandoc");

/** The items of the first list pandoc's GFM reader finds, with their depth ("2|text"). */
function pandocListItems(markdown: string): string[] {
  const ast = JSON.parse(
    execFileSync("pandoc", ["-f", "gfm", "-t", "json"], { input: markdown, encoding: "utf8" }),
  ) as { blocks: { t: string; c: unknown }[] };
  const out: string[] = [];
  const walk = (items: { t: string; c: unknown }[][], depth: number) => {
    for (const item of items) {
      for (const block of item) {
        if (block.t === "Plain" || block.t === "Para") {
          const words = JSON.stringify(block.c).match(/"c":"[^"]*"/g) ?? [];
          out.push(`${depth}|${words.map((word) => word.slice(5, -1)).join(" ")}`);
        }
        if (block.t === "BulletList") walk(block.c as { t: string; c: unknown }[][], depth + 1);
      }
    }
  };
  const list = ast.blocks.find((block) => block.t === "BulletList");
  walk((list?.c ?? []) as { t: string; c: unknown }[][], 1);
  return out;
}

describe("renderInline", () => {
  it("escapes a pipe in text, so a list item holding one keeps its nested siblings at one depth", () => {
    const writer = new MarkdownWriter();
    writer.listItem(0, "-", renderInline([{ text: "options {integer | Object}" }]));
    writer.listItem(1, "-", renderInline([{ text: "family" }]));
    writer.listItem(1, "-", renderInline([{ text: "hints" }]));
    const markdown = writer.toString();
    expect(markdown).toBe("- options {integer \\| Object}\n    - family\n    - hints");
    // pandoc's GFM reader nests "hints" under "family" when the pipe is bare
    if (HAS_PANDOC) {
      expect(pandocListItems(markdown)).toEqual([
        "1|options {integer | Object}",
        "2|family",
        "2|hints",
      ]);
    }
  });

  it("leaves a pipe in a code span as it is", () => {
    expect(renderInline([{ text: "a|b", code: true }])).toBe("`a|b`");
  });
});

describe("markdownTableCell", () => {
  it("escapes the pipes still bare once, and keeps those escaped already", () => {
    const cell = markdownTableCell(
      renderInline([{ text: "a | b " }, { text: "x|y", code: true }, { text: " back\\" }]),
    );
    expect(cell).toBe("a \\| b `x\\|y` back\\\\");
    expect(markdownTableCell(renderInline([{ text: "one\ntwo|" }]))).toBe("one<br>two\\|");
  });

  it("plain text still goes through tableCell, every pipe escaped", () => {
    expect(tableCell("a\\|b")).toBe("a\\\\|b");
  });
});

describe("markdownLink", () => {
  it("writes a link whose text is its address as an autolink, whatever the scheme", () => {
    expect(
      markdownLink("URL:http://sourceware.org/libffi/", "URL:http://sourceware.org/libffi/"),
    ).toBe("<URL:http://sourceware.org/libffi/>");
    expect(markdownLink("xmpp:fred@example.org", "xmpp:fred@example.org")).toBe(
      "<xmpp:fred@example.org>",
    );
    expect(markdownLink("", "https://example.com/a")).toBe("<https://example.com/a>");
  });

  it("an e-mail address linked to its mailto: is the e-mail autolink", () => {
    expect(markdownLink("green@moxielogic.com", "mailto:green@moxielogic.com")).toBe(
      "<green@moxielogic.com>",
    );
  });

  it("text that is the address with its escapes decoded is the autolink of the address", () => {
    expect(
      markdownLink(
        "http://www.apple.com/store?delivery=\\[slow\\]#horse+cart",
        "http://www.apple.com/store?delivery=%5Bslow%5D#horse+cart",
      ),
    ).toBe("<http://www.apple.com/store?delivery=%5Bslow%5D#horse+cart>");
  });

  it("other links keep their text; relative targets and spaces stay a normal link", () => {
    expect(markdownLink("the plan", "https://example.org/plan")).toBe(
      "[the plan](https://example.org/plan)",
    );
    expect(markdownLink("cli.md", "cli.md")).toBe("[cli.md](cli.md)");
    expect(markdownLink("Ada", "mailto:ada@example.org")).toBe("[Ada](mailto:ada@example.org)");
    expect(markdownLink("a b", "a b")).toBe("[a b](a%20b)");
  });
});
