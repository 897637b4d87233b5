// Linear scans over raw HTML, run before the parser. Each replaces a regular expression whose
// lazy or greedy part rescanned the rest of the document for every unclosed opener (a page of
// `<script` or `<table` without their ends took seconds per 100 KB).

/** Elements without content. */
export const VOID_ELEMENTS = new Set([
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

/** Elements HTML lets authors leave unclosed: their depth cannot be trusted. */
export const OPTIONAL_END = new Set([
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

/** Deepest element nesting kept: node-html-markdown is quadratic in depth (12 KB of nested `<b>` took 8 s). */
export const MAX_NESTING_DEPTH = 48;
/** Optional-end elements closed by a sibling of the same name near the top of the stack. */
const SIBLING_WINDOW = 3;
/** A tag name, at most 40 characters of it. */
const TAG_NAME = /[a-zA-Z][\w:-]{0,39}/y;

/**
 * Drops the tags (not their text) of elements nested deeper than {@link MAX_NESTING_DEPTH}, in
 * one linear pass over the tags (indexOf-based: an unclosed `<` ends the scan). `<p>`, `<li>`,
 * `<td>`… left open are closed by the next sibling of the same name, as browsers do.
 *
 * @param html - the document
 * @returns the document without the tags nested too deep
 */
export function capNesting(html: string): string {
  const stack: string[] = [];
  const dropped = new Map<string, number>();
  const out: string[] = [];
  let copied = 0;
  let index = html.indexOf("<");
  // the `>` after the current `<`: found once for a run of `<` before it, not once per `<`
  let close = -1;
  while (index !== -1) {
    if (close <= index) close = html.indexOf(">", index + 1);
    if (close === -1) break;
    const closing = html[index + 1] === "/";
    const start = closing ? index + 2 : index + 1;
    TAG_NAME.lastIndex = start;
    const name = TAG_NAME.exec(html)?.[0]?.toLowerCase();
    if (name === undefined || VOID_ELEMENTS.has(name) || html[close - 1] === "/") {
      index = html.indexOf("<", index + 1);
      continue;
    }
    let drop = false;
    if (!closing) {
      if (OPTIONAL_END.has(name)) closeSibling(stack, name);
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

/** Pops an open `<p>`, `<li>`… of the same name within {@link SIBLING_WINDOW} of the top. */
function closeSibling(stack: string[], name: string): void {
  for (
    let depth = stack.length - 1;
    depth >= Math.max(0, stack.length - SIBLING_WINDOW);
    depth -= 1
  ) {
    const open = stack[depth] as string;
    if (open === name) {
      stack.length = depth;
      return;
    }
    if (!OPTIONAL_END.has(open)) return; // a <table> or <ul> between: real nesting
  }
}

const REMOVED_OPENER = /<(script|style|noscript|template|svg|head)\b/gi;
const REMOVED_CLOSERS: Record<string, RegExp> = {
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  noscript: /<\/noscript\s*>/gi,
  template: /<\/template\s*>/gi,
  svg: /<\/svg\s*>/gi,
  head: /<\/head\s*>/gi,
};

/** Where the last match of a global expression starts (-1 when none). */
function lastMatchStart(expression: RegExp, text: string): number {
  expression.lastIndex = 0;
  let last = -1;
  for (let match = expression.exec(text); match !== null; match = expression.exec(text)) {
    last = match.index;
  }
  return last;
}

/**
 * Removes `<script>`, `<style>`, `<noscript>`, `<template>`, `<svg>` and `<head>` elements with
 * their content: the result of `html.replace(/<(script|…|head)\b[\s\S]*?<\/\1\s*>/gi, "")`, in
 * linear time (an opener with no closer after it is left, as the expression leaves it).
 *
 * @param html - the document
 * @returns the document without those elements
 */
export function removeHiddenBlocks(html: string): string {
  const lastCloser = new Map<string, number>();
  const out: string[] = [];
  let copied = 0;
  REMOVED_OPENER.lastIndex = 0;
  for (let match = REMOVED_OPENER.exec(html); match !== null; match = REMOVED_OPENER.exec(html)) {
    const name = (match[1] as string).toLowerCase();
    const closer = REMOVED_CLOSERS[name] as RegExp;
    let last = lastCloser.get(name);
    if (last === undefined) {
      last = lastMatchStart(closer, html);
      lastCloser.set(name, last);
    }
    const contentStart = REMOVED_OPENER.lastIndex;
    if (last < contentStart) {
      REMOVED_OPENER.lastIndex = match.index + 1;
      continue;
    }
    closer.lastIndex = contentStart;
    const end = closer.exec(html) as RegExpExecArray;
    out.push(html.slice(copied, match.index));
    copied = end.index + end[0].length;
    REMOVED_OPENER.lastIndex = copied;
  }
  if (copied === 0) return html;
  out.push(html.slice(copied));
  return out.join("");
}

const BASE_OPENER = /<base\s/gi;
const BASE_HREF = /[^>]*href\s*=\s*["']([^"']+)["']/iy;

/**
 * The `href` of the document's first usable `<base>`: what
 * `/<base\s[^>]*href\s*=\s*["']([^"']+)["']/i` captures, in linear time (after a `<base` with no
 * `href`, the other `<base` before the same `>` are skipped: they cannot have one either).
 *
 * @param html - the document
 * @returns the raw `href` value, or `undefined`
 */
export function findBaseHref(html: string): string | undefined {
  BASE_OPENER.lastIndex = 0;
  for (let match = BASE_OPENER.exec(html); match !== null; match = BASE_OPENER.exec(html)) {
    BASE_HREF.lastIndex = match.index + match[0].length;
    const found = BASE_HREF.exec(html);
    if (found !== null) return found[1];
    const end = html.indexOf(">", match.index);
    if (end === -1) return undefined;
    BASE_OPENER.lastIndex = end;
  }
  return undefined;
}

/**
 * Writes `<!--` openers that no `-->` follows as `&lt;!--`. node-html-parser reads such an
 * opener as text (the same text once decoded), but finds that out by scanning to the end of the
 * document once per opener: quadratic on a page of unclosed comments.
 *
 * @param html - the document or piece the parser will read
 * @returns the same text with unclosed comment openers escaped
 */
export function escapeUnclosedComments(html: string): string {
  const lastEnd = html.lastIndexOf("-->");
  // an opener at `at` is closed when a `-->` starts at `at + 4` or later: the first unclosed one
  // starts at `lastEnd - 3` or later, and every opener after it is unclosed too
  const first = html.indexOf("<!--", Math.max(0, lastEnd - 3));
  if (first === -1) return html;
  return html.slice(0, first) + html.slice(first).replaceAll("<!--", "&lt;!--");
}

/**
 * The inner HTML of the first `<name …>…</name>`: what `/<name[^>]*>([\s\S]*?)<\/name>/i`
 * captures, in linear time (only the first opener can match: a later one sees the same or a
 * later `>` and no closer after it).
 *
 * @param html - the document
 * @param name - a lowercase tag name (letters and digits)
 * @returns the inner HTML, or `undefined`
 */
export function firstElementInner(html: string, name: string): string | undefined {
  const opener = new RegExp(`<${name}`, "i").exec(html);
  if (opener === null) return undefined;
  const openEnd = html.indexOf(">", opener.index + opener[0].length);
  if (openEnd === -1) return undefined;
  const closer = new RegExp(`</${name}>`, "gi");
  closer.lastIndex = openEnd + 1;
  const end = closer.exec(html);
  return end === null ? undefined : html.slice(openEnd + 1, end.index);
}

const META_OPENER = /<meta\s/gi;
const OG_TITLE = /[^>]*property\s*=\s*["']og:title["'][^>]*content\s*=\s*["']([^"']*)["']/iy;

/**
 * The `content` of the first `<meta property="og:title" content="…">`: what
 * `/<meta\s[^>]*property\s*=\s*["']og:title["'][^>]*content\s*=\s*["']([^"']*)["']/i` captures, in
 * linear time (after a `<meta` without it, the other `<meta` before the same `>` are skipped).
 *
 * @param html - the document
 * @returns the title, or `undefined`
 */
export function findOpenGraphTitle(html: string): string | undefined {
  META_OPENER.lastIndex = 0;
  for (let match = META_OPENER.exec(html); match !== null; match = META_OPENER.exec(html)) {
    OG_TITLE.lastIndex = match.index + match[0].length;
    const found = OG_TITLE.exec(html);
    if (found !== null) return found[1];
    const end = html.indexOf(">", match.index);
    if (end === -1) return undefined;
    META_OPENER.lastIndex = end;
  }
  return undefined;
}

/**
 * `text.replace(/<[^>]*>/g, "")` in linear time: no `<` after the last `>` can close, so the
 * expression only runs before it.
 *
 * @param text - a fragment of HTML
 * @returns the text without tags
 */
export function removeTags(text: string): string {
  const lastEnd = text.lastIndexOf(">");
  if (lastEnd === -1) return text;
  return text.slice(0, lastEnd + 1).replace(/<[^>]*>/g, "") + text.slice(lastEnd + 1);
}
