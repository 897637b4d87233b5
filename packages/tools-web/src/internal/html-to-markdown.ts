import { NodeHtmlMarkdown } from "node-html-markdown";
import { decodeEntities } from "./text.js";

const converter = new NodeHtmlMarkdown({
  codeFence: "```",
  codeBlockStyle: "fenced",
  bulletMarker: "-",
  maxConsecutiveNewlines: 2,
  ignore: ["script", "style", "noscript", "template", "iframe", "svg", "canvas", "form", "button"],
  useInlineLinks: true,
});

/** What node-html-markdown reads of `process`: `process.env.LOG_PERF` (undefined: no timings). */
const PROCESS_STAND_IN = Object.freeze({ env: Object.freeze({}) });

/**
 * Runs node-html-markdown's `translate`. It reads `process.env.LOG_PERF` on every call, which
 * throws `ReferenceError: process is not defined` in browsers and workers; where `process` is
 * absent, a frozen `{ env: {} }` stands in for the synchronous call only and is removed before
 * returning (nothing else can run in between), so no global is left behind.
 */
function translate(html: string): string {
  const scope = globalThis as { process?: unknown };
  if (scope.process !== undefined) return converter.translate(html);
  Object.defineProperty(globalThis, "process", {
    value: PROCESS_STAND_IN,
    configurable: true,
    enumerable: false,
    writable: false,
  });
  try {
    return converter.translate(html);
  } finally {
    delete scope.process;
  }
}

const REMOVED_BLOCKS = /<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi;
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
  const baseTag = /<base\s[^>]*href\s*=\s*["']([^"']+)["']/i.exec(html)?.[1];
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
    /<title[^>]*>([\s\S]*?)<\/title>/i.exec(head)?.[1],
    /<meta\s[^>]*property\s*=\s*["']og:title["'][^>]*content\s*=\s*["']([^"']*)["']/i.exec(
      head,
    )?.[1],
    /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(head)?.[1],
  ];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    const text = decodeEntities(candidate.replace(/<[^>]*>/g, ""))
      .replace(/\s+/g, " ")
      .trim();
    if (text.length > 0) return text.length > 300 ? `${text.slice(0, 299)}…` : text;
  }
  return undefined;
}

/** Documents above this size are converted in pieces (node-html-markdown slows down super-linearly). */
const SPLIT_THRESHOLD = 128 * 1024;
/** Target size of one piece. */
const PIECE_SIZE = 32 * 1024;
const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "!doctype",
]);
/** Containers whose children can be converted apart without changing the Markdown. */
const NEUTRAL_CONTAINERS = new Set([
  "html",
  "body",
  "main",
  "article",
  "section",
  "div",
  "span",
  "center",
  "font",
]);
/** Elements HTML lets authors leave unclosed: their depth cannot be trusted. */
const OPTIONAL_END = new Set([
  "p",
  "li",
  "dt",
  "dd",
  "tr",
  "td",
  "th",
  "option",
  "thead",
  "tbody",
  "tfoot",
  "colgroup",
]);

/**
 * Cuts a large document into sibling pieces at one nesting level whose container is neutral
 * (body, main, article, section, div), so each piece converts alone to the same Markdown.
 * Gives the whole document back when no safe level is found.
 */
function splitLargeHtml(html: string): string[] {
  if (html.length <= SPLIT_THRESHOLD) return [html];
  const tag = /<(\/?)([a-zA-Z!][\w:-]*)[^>]*?(\/?)>/g;
  const stack: string[] = [];
  const boundaries = new Map<number, number[]>();
  let trusted = true;
  for (const match of html.matchAll(tag)) {
    const name = (match[2] ?? "").toLowerCase();
    if (VOID_ELEMENTS.has(name) || match[3] === "/" || name.startsWith("!")) continue;
    if (OPTIONAL_END.has(name)) continue;
    if (name === "pre" || name === "textarea") {
      // content is raw-ish; tags inside are still balanced in practice
    }
    if (match[1] === "/") {
      if (stack.at(-1) !== name) {
        trusted = false;
        break;
      }
      stack.pop();
      const container = stack.at(-1);
      if (container !== undefined && NEUTRAL_CONTAINERS.has(container)) {
        const end = (match.index ?? 0) + match[0].length;
        const list = boundaries.get(stack.length) ?? [];
        list.push(end);
        boundaries.set(stack.length, list);
      }
    } else stack.push(name);
  }
  if (!trusted) return [html];
  let best: number[] = [];
  for (const list of boundaries.values()) if (list.length > best.length) best = list;
  if (best.length < 2) return [html];
  const pieces: string[] = [];
  let start = 0;
  for (const end of best) {
    if (end - start >= PIECE_SIZE) {
      pieces.push(html.slice(start, end));
      start = end;
    }
  }
  pieces.push(html.slice(start));
  return pieces;
}

/** Tables above this size are converted in row chunks (node-html-markdown is super-linear on them). */
const LARGE_TABLE_THRESHOLD = 32 * 1024;
/** Rows per chunk of a large table. */
const TABLE_CHUNK_ROWS = 100;

/**
 * Converts each large, non-nested `<table>` chunk by chunk (the header row repeated for every
 * chunk, then dropped from all but the first chunk's Markdown) and leaves a unique placeholder
 * paragraph in its place. Tables whose rows cannot be told apart safely are left alone.
 */
function convertLargeTables(
  html: string,
  translate: (piece: string) => string,
): { html: string; tables: Map<string, string> } {
  const tables = new Map<string, string>();
  if (html.length <= LARGE_TABLE_THRESHOLD) return { html, tables };
  const token = `agentooltable${Math.random().toString(36).slice(2)}x`;
  const rewritten = html.replace(/<table\b[^>]*>([\s\S]*?)<\/table>/gi, (whole, inner: string) => {
    if (whole.length <= LARGE_TABLE_THRESHOLD || /<table\b/i.test(inner)) return whole;
    const rows = inner.match(/<tr\b[^>]*>[\s\S]*?<\/tr>/gi);
    if (rows === null || rows.length < TABLE_CHUNK_ROWS * 2) return whole;
    const openRows = inner.match(/<tr\b/gi)?.length ?? 0;
    if (openRows !== rows.length) return whole;
    const [header, ...body] = rows as [string, ...string[]];
    const parts: string[] = [];
    for (let start = 0; start < body.length; start += TABLE_CHUNK_ROWS) {
      const chunk = body.slice(start, start + TABLE_CHUNK_ROWS).join("");
      const markdown = translate(
        `<table><thead>${header}</thead><tbody>${chunk}</tbody></table>`,
      ).trim();
      const lines = markdown.split("\n");
      parts.push((start === 0 ? lines : lines.slice(2)).join("\n"));
    }
    const key = `${token}${tables.size}`;
    tables.set(key, parts.join("\n"));
    return `<p>${key}</p>`;
  });
  return { html: rewritten, tables };
}

/** Most characters of HTML handed to the converter (a body is capped before, this is the last guard). */
export const MAX_CONVERTED_CHARACTERS = 8 * 1_048_576;
/** Deepest element nesting kept: node-html-markdown is quadratic in depth (12 KB of nested `<b>` took 8 s). */
export const MAX_NESTING_DEPTH = 48;
/** Optional-end elements closed by a sibling of the same name near the top of the stack. */
const SIBLING_WINDOW = 3;

/**
 * Drops the tags (not their text) of elements nested deeper than {@link MAX_NESTING_DEPTH}, in
 * one linear pass over the tags (indexOf-based: an unclosed `<` ends the scan). `<p>`, `<li>`,
 * `<td>`… left open are closed by the next sibling of the same name, as browsers do.
 */
function capNesting(html: string): string {
  const stack: string[] = [];
  const dropped = new Map<string, number>();
  const out: string[] = [];
  let copied = 0;
  let index = html.indexOf("<");
  const namePattern = /^[a-zA-Z][\w:-]*/;
  while (index !== -1) {
    const close = html.indexOf(">", index + 1);
    if (close === -1) break;
    const closing = html[index + 1] === "/";
    const start = closing ? index + 2 : index + 1;
    const name = namePattern.exec(html.slice(start, start + 40))?.[0]?.toLowerCase();
    if (name === undefined || VOID_ELEMENTS.has(name) || html[close - 1] === "/") {
      index = html.indexOf("<", index + 1);
      continue;
    }
    let drop = false;
    if (!closing) {
      if (OPTIONAL_END.has(name)) {
        for (
          let depth = stack.length - 1;
          depth >= Math.max(0, stack.length - SIBLING_WINDOW);
          depth -= 1
        ) {
          const open = stack[depth] as string;
          if (open === name) {
            stack.length = depth;
            break;
          }
          if (!OPTIONAL_END.has(open)) break; // a <table> or <ul> between: real nesting
        }
      }
      if (stack.length >= MAX_NESTING_DEPTH) {
        drop = true;
        dropped.set(name, (dropped.get(name) ?? 0) + 1);
      } else stack.push(name);
    } else {
      const pending = dropped.get(name) ?? 0;
      if (pending > 0) {
        drop = true;
        dropped.set(name, pending - 1);
      } else {
        const at = stack.lastIndexOf(name);
        if (at !== -1) stack.length = at;
      }
    }
    if (drop) {
      out.push(html.slice(copied, index));
      copied = close + 1;
    }
    index = html.indexOf("<", close + 1);
  }
  if (copied === 0) return html;
  out.push(html.slice(copied));
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
  let prepared = capNesting(
    html.length > MAX_CONVERTED_CHARACTERS ? html.slice(0, MAX_CONVERTED_CHARACTERS) : html,
  ).replace(REMOVED_BLOCKS, "");
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
  return markdown
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
