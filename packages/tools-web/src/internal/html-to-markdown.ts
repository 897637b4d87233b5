import { NodeHtmlMarkdown } from "node-html-markdown";
import { convertLargeTables, splitLargeHtml } from "./html-pieces.js";
import {
  capNesting,
  escapeUnclosedComments,
  findBaseHref,
  findOpenGraphTitle,
  firstElementInner,
  removeHiddenBlocks,
  removeTags,
} from "./html-scan.js";
import { LINE_START_ESCAPE, useLinearTranslators } from "./linear-translators.js";
import { translateHtml } from "./markdown-visitor.js";
import { decodeEntities } from "./text.js";

const converter = new NodeHtmlMarkdown({
  lineStartEscape: LINE_START_ESCAPE,
  codeFence: "```",
  codeBlockStyle: "fenced",
  bulletMarker: "-",
  maxConsecutiveNewlines: 2,
  ignore: ["script", "style", "noscript", "template", "iframe", "svg", "canvas", "form", "button"],
  useInlineLinks: true,
});
useLinearTranslators(converter);

/**
 * The characters the converter's escapes act on: backslash, backtick, `*`, `_`, `~`, `[`, `]`
 * (global escape), `+`, `=`, `>`, `-`, `#`, `.` (line-start escape) and `<` (the `<!DOCTYPE`
 * cleanup). The escapes leave a text with none of them as it is, so they are skipped for it.
 */
export const ESCAPE_TRIGGER = /[\\`*_~[\]+=>#.<-]/;

/** What node-html-markdown reads of `process`: `process.env.LOG_PERF` (undefined: no timings). */
const PROCESS_STAND_IN = Object.freeze({ env: Object.freeze({}) });

/**
 * Runs node-html-markdown's parser and translators through our linear walk ({@link translateHtml}).
 * node-html-markdown reads `process.env.LOG_PERF` on every call, which
 * throws `ReferenceError: process is not defined` in browsers and workers; where `process` is
 * absent, a frozen `{ env: {} }` stands in for the synchronous call only and is removed before
 * returning (nothing else can run in between), so no global is left behind.
 */
function translate(piece: string): string {
  const html = escapeUnclosedComments(piece);
  const scope = globalThis as { process?: unknown };
  if (scope.process !== undefined) return translateHtml(converter, html, ESCAPE_TRIGGER);
  Object.defineProperty(globalThis, "process", {
    value: PROCESS_STAND_IN,
    configurable: true,
    enumerable: false,
    writable: false,
  });
  try {
    return translateHtml(converter, html, ESCAPE_TRIGGER);
  } finally {
    delete scope.process;
  }
}

const URL_ATTRIBUTE = /(\s(?:href|src)\s*=\s*)(?:"([^"]*)"|'([^']*)')/gi;

/**
 * Makes every `href` / `src` of an HTML document absolute against a base URL, so links in the
 * Markdown can be followed. `javascript:` links are dropped; `data:` ones left alone.
 *
 * @param html - the document
 * @param baseUrl - the page's final URL (a `<base href>` in the page wins)
 * @returns the document with absolute links
 */
export function absolutizeLinks(html: string, baseUrl: string): string {
  let base = baseUrl;
  const baseTag = findBaseHref(html);
  if (baseTag !== undefined) {
    try {
      base = new URL(decodeEntities(baseTag), baseUrl).href;
    } catch {
      // keep the page URL
    }
  }
  return html.replace(URL_ATTRIBUTE, (whole, prefix: string, doubleQuoted, singleQuoted) => {
    const raw = decodeEntities(((doubleQuoted ?? singleQuoted) as string).trim());
    if (raw.length === 0 || /^(data|mailto|tel):/i.test(raw)) return whole;
    if (/^\s*javascript:/i.test(raw)) return `${prefix}""`;
    try {
      const absolute = new URL(raw, base).href;
      return `${prefix}"${absolute.replace(/&/g, "&amp;").replace(/"/g, "%22")}"`;
    } catch {
      return whole;
    }
  });
}

/**
 * Finds a document's title: `<title>`, else `og:title`, else the first `<h1>`.
 *
 * @param html - the document
 * @returns the title or `undefined`
 */
export function extractHtmlTitle(html: string): string | undefined {
  const head = html.length > 200_000 ? html.slice(0, 200_000) : html;
  const candidates = [
    firstElementInner(head, "title"),
    findOpenGraphTitle(head),
    firstElementInner(head, "h1"),
  ];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    const text = decodeEntities(removeTags(candidate)).replace(/\s+/g, " ").trim();
    if (text.length > 0) return text.length > 300 ? `${text.slice(0, 299)}…` : text;
  }
  return undefined;
}

/** Most characters of HTML handed to the converter (a body is capped before, this is the last guard). */
export const MAX_CONVERTED_CHARACTERS = 8 * 1_048_576;

/**
 * `text.replace(/[ \t]+$/gm, "")` in linear time (the expression retried a long run of spaces
 * from each of its characters: 64 K spaces in a `<pre>` took 9 s).
 *
 * @param text - Markdown
 * @returns the text without spaces and tabs before line ends
 */
export function trimLineEnds(text: string): string {
  const out: string[] = [];
  let copied = 0;
  const lineEnd = /[\n\r\u2028\u2029]/g;
  for (let end = 0; end !== text.length; ) {
    const match = lineEnd.exec(text);
    end = match === null ? text.length : match.index;
    let start = end;
    while (start > copied) {
      const code = text.charCodeAt(start - 1);
      if (code !== 0x20 && code !== 0x09) break;
      start -= 1;
    }
    if (start !== end) {
      out.push(text.slice(copied, start));
      copied = end;
    }
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join("");
}

/**
 * Converts HTML to Markdown (node-html-markdown): headings, lists, tables, code fences with the
 * `language-x` class as the fence's language, links made absolute against `baseUrl`; scripts,
 * styles, forms and the `<head>` dropped.
 *
 * @param html - the document or fragment
 * @param baseUrl - the URL links resolve against (the page's final URL)
 * @returns Markdown
 * @example
 * htmlToMarkdown('<h1>Hi</h1><a href="/a">A</a>', "https://example.com/x"); // "# Hi\n\n[A](https://example.com/a)"
 */
export function htmlToMarkdown(html: string, baseUrl?: string): string {
  let prepared = removeHiddenBlocks(
    capNesting(
      html.length > MAX_CONVERTED_CHARACTERS ? html.slice(0, MAX_CONVERTED_CHARACTERS) : html,
    ),
  );
  if (baseUrl !== undefined) prepared = absolutizeLinks(prepared, baseUrl);
  const { html: withoutLargeTables, tables } = convertLargeTables(prepared, (piece) =>
    translate(piece),
  );
  const pieces = splitLargeHtml(withoutLargeTables);
  let markdown = pieces
    .map((piece) => translate(piece).trim())
    .filter((piece) => piece.length > 0)
    .join("\n\n");
  for (const [key, table] of tables) markdown = markdown.replace(key, () => table);
  return trimLineEnds(markdown)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
