import { describe, expect, it } from "vitest";
import {
  capNesting,
  escapeUnclosedComments,
  findBaseHref,
  findOpenGraphTitle,
  firstElementInner,
  MAX_NESTING_DEPTH,
  removeHiddenBlocks,
  removeTags,
} from "./html-scan.js";

const HIDDEN_BLOCKS = /<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi;
const BASE_HREF = /<base\s[^>]*href\s*=\s*["']([^"']+)["']/i;

/** Small documents where the expressions these scans replace are still fast. */
const DOCUMENTS = [
  "<html><head><title>t</title></head><body><p>a</p><script>x<y</script>b<STYLE>s</style >c</body></html>",
  "<script>one<script>two</script>three</script><svg><path/></svg><svgx>kept</svgx><header>kept</header>",
  "<script>never closed <style>a</style> <noscript>n</NOSCRIPT> <template>t</template >",
  "<head>h</head><head>unclosed <script src=x></script> tail",
  '<base href="/root/"><base href="/second/"><p>x</p>',
  "<base target=_blank><base\nhref='/b/'>",
  "<base <base <base href='late'>",
  "<base target=x>text href='not-in-base'",
  "<p>no base here</p>",
  "<!-- a --><!-- b <!-- c --> <!-- open <!-- open2",
  "<!--> <!---> <!----> x",
  "<p>plain</p>",
  "<TITLE lang=en>A &amp; <b>B</b></Title><title>second</title>",
  "<titles>x</title><h1 class=a>Head <i>line</i></H1><h1>two</h1>",
  "<title>no end <h1>open",
  "<title <h1>x</h1>",
  '<meta name="x"><meta property="og:title" content="OG &amp; title"><meta property=og:title content=bare>',
  "<meta <meta property='og:title' x content='deep'>",
  "<meta property='og:title'> content='after the end'",
  "<p>a < b > c <<i>>d</p>",
];

describe("linear HTML scans", () => {
  it("removeHiddenBlocks gives what the expression gives", () => {
    for (const html of DOCUMENTS) {
      expect(removeHiddenBlocks(html)).toBe(html.replace(HIDDEN_BLOCKS, ""));
    }
  });

  it("findBaseHref finds what the expression captures", () => {
    for (const html of DOCUMENTS) expect(findBaseHref(html)).toBe(BASE_HREF.exec(html)?.[1]);
  });

  it("firstElementInner, findOpenGraphTitle and removeTags give what their expressions give", () => {
    const og = /<meta\s[^>]*property\s*=\s*["']og:title["'][^>]*content\s*=\s*["']([^"']*)["']/i;
    for (const html of DOCUMENTS) {
      expect(firstElementInner(html, "title")).toBe(
        /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1],
      );
      expect(firstElementInner(html, "h1")).toBe(/<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1]);
      expect(findOpenGraphTitle(html)).toBe(og.exec(html)?.[1]);
      expect(removeTags(html)).toBe(html.replace(/<[^>]*>/g, ""));
    }
  });

  it("escapeUnclosedComments escapes exactly the openers no --> follows", () => {
    expect(escapeUnclosedComments("<!-- a --><!-- b <!-- c --> <!-- open <!-- open2")).toBe(
      "<!-- a --><!-- b <!-- c --> &lt;!-- open &lt;!-- open2",
    );
    expect(escapeUnclosedComments("<!-->")).toBe("&lt;!-->");
    expect(escapeUnclosedComments("<!---->")).toBe("<!---->");
    expect(escapeUnclosedComments("<p>none</p>")).toBe("<p>none</p>");
  });

  it("capNesting keeps the text and drops only the tags past the depth cap", () => {
    const depth = 10_000;
    const capped = capNesting(`${"<div>".repeat(depth)}deep${"</div>".repeat(depth)}`);
    expect(capped).toBe(
      `${"<div>".repeat(MAX_NESTING_DEPTH)}deep${"</div>".repeat(MAX_NESTING_DEPTH)}`,
    );
  });

  it("stays linear on hostile runs (outputs checked at two sizes, no timing)", () => {
    for (const count of [100_000, 200_000]) {
      const lessThans = `<p>${"<".repeat(count)}</p>`;
      expect(capNesting(lessThans)).toBe(lessThans);
      const openers = `<p>${"<script<table<base ".repeat(count / 10)}</p>`;
      expect(removeHiddenBlocks(openers)).toBe(openers);
      expect(findBaseHref(openers)).toBeUndefined();
      const scripts = `${"<script>x".repeat(count / 10)}</script>`;
      expect(removeHiddenBlocks(scripts)).toBe("");
      expect(firstElementInner("<title>".repeat(count / 7), "title")).toBeUndefined();
      expect(findOpenGraphTitle("<meta ".repeat(count / 6))).toBeUndefined();
      expect(removeTags(`a${"<".repeat(count)}`)).toBe(`a${"<".repeat(count)}`);
      const comments = "<!-- x ".repeat(count / 10);
      expect(escapeUnclosedComments(comments)).toBe("&lt;!-- x ".repeat(count / 10));
    }
  });
});
