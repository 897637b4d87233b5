import { NodeHtmlMarkdown } from "node-html-markdown";
import { describe, expect, it } from "vitest";
import { ARTICLE_HTML } from "../test-support/fixtures.js";
import { ESCAPE_TRIGGER } from "./html-to-markdown.js";
import { LINE_START_ESCAPE } from "./linear-translators.js";
import { translateHtml } from "./markdown-visitor.js";

/** Real-looking HTML: every element kind node-html-markdown translates, and its odd corners. */
const SAMPLES = [
  ARTICLE_HTML,
  '<h1>Title</h1><p>See <a href="/docs">the docs</a>.</p><pre><code class="language-ts">const a = 1;</code></pre>',
  "<ul><li>a<ul><li>b</li><li>c<ol><li>d</li><li>e</li></ol></li></ul></li><li>f</li></ul>",
  "<blockquote><p>q1</p><blockquote><p>q2 *star* _under_</p></blockquote></blockquote>",
  "<p>text with <b> bold </b>and<i>it</i> <code>a`b</code> <del>gone</del> 1. not list</p><p># not heading</p>",
  "<table><caption>Cap</caption><tr><th>a</th><th>b|c</th></tr><tr><td>1</td><td><p>x</p><p>y</p></td></tr><tr></tr></table>",
  "<pre>  indented\n\n  code   </pre><p>a<br>b<br/><br>c</p><hr><img src='x.png' alt='al\"t' title='t'>",
  "<div><p>a</p>   <p>b</p>\n\n\n<span> c </span> <strong></strong><em> </em></div>",
  "<a href='javascript:alert(1)'>js</a> <a href='mailto:x@y.z'>m</a> <a href='#f'>f</a> <a>none</a> <a href='/x' title='T'>t</a>",
  "<p>&amp; &lt;tag&gt; &nbsp; &copy; &#x41; &#65; &bogus;</p><dl><dt>term</dt><dd>def</dd></dl>",
  "<p>unclosed <b>bold <i>ital</p><p>next<table><tr><td><table><tr><td>inner</td></tr></table></td></tr></table>",
  "<pre><code>line1\n  line2\n</code></pre><code>inline\nnewline</code><p>a\n  b\t\tc</p><p>  lead</p>",
  "<ol start='3'><li>x</li><li><p>para li</p></li></ol><ul><li>- dash</li><li>+ plus</li><li>1. num</li></ul>",
  "<script>var a=1</script><style>p{}</style><form><input></form><svg><text>s</text></svg>text",
  "<a href='/x'><img src='/i.png' alt='img'></a><a href='/y'>\n\nmulti\n\nline\n</a><h1>a</h1>b<h2></h2><p></p>c",
  `<html><body>${"<section><h2>Part</h2><p>Some <strong>strong</strong> and <em>em</em> text.</p><ul><li>one</li><li>two <a href='/t'>link</a></li></ul></section>".repeat(40)}</body></html>`,
  `<table><thead><tr><th>#</th><th>Name</th></tr></thead><tbody>${Array.from({ length: 60 }, (_, index) => `<tr><td>${index}</td><td>Item <a href="/i/${index}">${index}</a></td></tr>`).join("")}</tbody></table>`,
];

const OPTION_SETS = [
  {},
  {
    codeFence: "```",
    codeBlockStyle: "fenced" as const,
    bulletMarker: "-",
    maxConsecutiveNewlines: 2,
    ignore: [
      "script",
      "style",
      "noscript",
      "template",
      "iframe",
      "svg",
      "canvas",
      "form",
      "button",
    ],
    useInlineLinks: true,
  },
  { codeBlockStyle: "indented" as const, useLinkReferenceDefinitions: true, useInlineLinks: false },
];

describe("translateHtml (node-html-markdown's walk over a MarkdownBuffer)", () => {
  it("gives node-html-markdown's own output for every sample and option set", () => {
    for (const options of OPTION_SETS) {
      const converter = new NodeHtmlMarkdown(options);
      for (const html of SAMPLES) {
        expect(translateHtml(converter, html)).toBe(converter.translate(html));
      }
    }
  });

  it("converts a long run of siblings in one piece with every item, in order", () => {
    const converter = new NodeHtmlMarkdown({ bulletMarker: "-" });
    const items = 20_000;
    const markdown = translateHtml(
      converter,
      `<ul>${Array.from({ length: items }, (_, index) => `<li>item ${index}</li>`).join("")}</ul>`,
    );
    const lines = markdown.split("\n");
    expect(lines).toHaveLength(items);
    expect(lines[0]).toBe("- item 0");
    expect(lines.at(-1)).toBe(`- item ${items - 1}`);
  });
});

describe("the escape trigger", () => {
  it("skips escapes only where they change nothing", () => {
    const characters = [
      "a",
      " ",
      "\\",
      "`",
      "*",
      "_",
      "~",
      "[",
      "]",
      "+",
      "=",
      ">",
      "-",
      "#",
      ".",
      "<",
      "1",
      "!",
      "\n",
    ];
    const texts: string[] = [];
    for (const first of characters) {
      for (const second of characters) {
        for (const third of characters) texts.push(`${first}${second}${third}`);
      }
    }
    for (const options of [{}, { lineStartEscape: LINE_START_ESCAPE }]) {
      const converter = new NodeHtmlMarkdown(options);
      for (const text of [...texts, ...SAMPLES]) {
        const html =
          text.includes("<") && text.length > 3 ? text : `<p>${text.replaceAll("<", "&lt;")}</p>`;
        expect(translateHtml(converter, html, ESCAPE_TRIGGER)).toBe(translateHtml(converter, html));
      }
    }
  });
});
