import { describe, expect, it } from "vitest";
import { htmlToMarkdown, trimLineEnds } from "./html-to-markdown.js";

function table(rows: number): string {
  const body = Array.from(
    { length: rows },
    (_, index) =>
      `<tr><td>${index}</td><td>Name ${index}</td><td><a href="/items/${index}">item</a></td></tr>`,
  ).join("");
  return `<table><thead><tr><th>#</th><th>Name</th><th>Link</th></tr></thead><tbody>${body}</tbody></table>`;
}

describe("htmlToMarkdown", () => {
  it("converts headings, links against the base URL and code fences with their language", () => {
    const markdown = htmlToMarkdown(
      '<h1>Title</h1><p>See <a href="/docs">the docs</a>.</p><pre><code class="language-ts">const a = 1;</code></pre>',
      "https://example.com/page",
    );
    expect(markdown).toContain("# Title");
    expect(markdown).toContain("[the docs](https://example.com/docs)");
    expect(markdown).toMatch(/```ts\nconst a = 1;/);
  });

  it("converts a large table in chunks into one GFM table: one header, every row, in order", () => {
    const rows = 2_000;
    const markdown = htmlToMarkdown(
      `<h2>Data</h2>${table(rows)}<p>After the table.</p>`,
      "https://example.com/",
    );
    const lines = markdown.split("\n").filter((line) => line.startsWith("|"));
    expect(lines).toHaveLength(rows + 2);
    expect(lines[0]).toMatch(/^\|\s*#\s*\|\s*Name\s*\|\s*Link\s*\|$/);
    expect(lines[1]).toMatch(/^\|[\s-|]+\|$/);
    expect(lines.filter((line) => /^\|\s*#\s*\|/.test(line))).toHaveLength(1);
    expect(lines[2]).toContain("[item](https://example.com/items/0)");
    expect(lines.at(-1)).toContain(`Name ${rows - 1}`);
    expect(markdown.indexOf("## Data")).toBeLessThan(markdown.indexOf("| #"));
    expect(markdown.trim().endsWith("After the table.")).toBe(true);
    expect(markdown).not.toMatch(/agentooltable/);
  });

  it("leaves a small table and a nested table to the converter as they are", () => {
    const small = htmlToMarkdown(table(3));
    expect(small.split("\n").filter((line) => line.startsWith("|"))).toHaveLength(5);
    const nested = htmlToMarkdown(
      `<table><tr><td><table><tr><td>inner</td></tr></table></td></tr>${"<tr><td>row</td></tr>".repeat(3000)}</table>`,
    );
    expect(nested).toContain("inner");
  });
});

describe("htmlToMarkdown without a global process (browsers, workers)", () => {
  /** Runs `action` with `globalThis.process` removed, as in a browser, and puts it back. */
  function withoutProcess<Result>(action: () => Result): Result {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
    if (descriptor === undefined) throw new Error("expected Node's global process");
    delete (globalThis as { process?: unknown }).process;
    try {
      return action();
    } finally {
      Object.defineProperty(globalThis, "process", descriptor);
    }
  }

  it("converts (node-html-markdown reads process.env.LOG_PERF) and leaves no process behind", () => {
    const outcome = withoutProcess(() => {
      const markdown = htmlToMarkdown(
        '<h1>Title</h1><p>See <a href="/docs">the docs</a>.</p>',
        "https://example.com/page",
      );
      return { markdown, processLeft: "process" in globalThis };
    });
    expect(outcome.markdown).toBe("# Title\n\nSee [the docs](https://example.com/docs).");
    expect(outcome.processLeft).toBe(false);
  });
});

describe("htmlToMarkdown on hostile pages (outputs checked at two sizes, no timing)", () => {
  it("keeps a long run of digits, spaces in <pre>, unclosed comments and a huge attribute", () => {
    for (const size of [100_000, 200_000]) {
      expect(htmlToMarkdown(`<p>${"1".repeat(size)}</p>`)).toBe("1".repeat(size));
      expect(htmlToMarkdown(`<p>${"1".repeat(size)}. not a list</p>`)).toBe(
        `${"1".repeat(size)}\\. not a list`,
      );
      expect(htmlToMarkdown(`<pre>x${" ".repeat(size)}y  </pre>`)).toBe(`x${" ".repeat(size)}y`);
      const comments = htmlToMarkdown(`<p>${"<!-- x ".repeat(size / 10)}</p>`);
      expect(comments).toBe("<!-- x ".repeat(size / 10).trim());
      const link = htmlToMarkdown(
        `<p><a href="/${"x".repeat(size)}">link</a></p>`,
        "https://e.com/",
      );
      expect(link).toBe(`[link](https://e.com/${"x".repeat(size)})`);
    }
  });

  it("converts deep nesting and runs of openers to their text", () => {
    for (const depth of [20_000, 40_000]) {
      expect(htmlToMarkdown(`${"<div>".repeat(depth)}deep${"</div>".repeat(depth)}`)).toBe("deep");
      const lists = htmlToMarkdown(`${"<ul><li>item".repeat(depth)}${"</li></ul>".repeat(depth)}`);
      const indents = lists.split("\n").map((line) => line.length - line.trimStart().length);
      expect(Math.max(...indents)).toBeLessThanOrEqual(2 * 48);
      expect(lists.split("item")).toHaveLength(depth + 1);
      expect(htmlToMarkdown(`<p>${"<".repeat(depth)}</p>`)).toBe("<".repeat(depth));
      // the parser reads the run as one tag up to the end: the same text at every length
      const openers = (count: number) => `<p>${"<script<table<base ".repeat(count)}</p>`;
      expect(htmlToMarkdown(openers(depth / 10))).toBe(htmlToMarkdown(openers(3)));
    }
  });
});

describe("trimLineEnds", () => {
  it('gives what text.replace(/[ \\t]+$/gm, "") gives', () => {
    const pieces = [" ", "\t", "a", "\n", "\r", "\u2028", "\u00a0", "b "];
    let seed = 7;
    for (let sample = 0; sample < 5_000; sample += 1) {
      let text = "";
      const length = sample % 17;
      for (let index = 0; index < length; index += 1) {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        text += pieces[(seed >>> 16) % pieces.length];
      }
      expect(trimLineEnds(text)).toBe(text.replace(/[ \t]+$/gm, ""));
    }
  });
});
