// node-html-markdown's list item, block quote and table cell translators post-process their
// content with expressions that retry a run from each of its characters: a 100 KB word in an
// `<li>` took 13 s, a long run of line breaks in a `<pre>` inside a `<td>` or `<blockquote>`
// seconds; a 1 MB link target was built a character at a time. These functions give the same
// strings in linear time, and `useLinearTranslators` swaps them into one converter's own
// translator tables (nothing global is changed).
import type { NodeHtmlMarkdown } from "node-html-markdown";
import { PostProcessResult } from "node-html-markdown";
import { isWhitespaceCode } from "./markdown-buffer.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * node-html-markdown's line-start escape (a backslash before `+ `, `=`, `>`, `-`, `# ` starting a line
 * after spaces, and before `1. ` anywhere), with the same matches in linear time: the spaces
 * before a marker stay within one line (upstream's `\s*?` ran on across line breaks from every
 * line start of a blank run: 40 K line breaks in a `<pre>` in a `<td>` took 2 s; the backslash
 * lands before the same marker), and a digit run is tried from its first digit only (64 K digits
 * took 4 s).
 */
export const LINE_START_ESCAPE: [RegExp, string] = [
  /^([^\S\r\n\u2028\u2029]*?)((?:\+\s)|(?:[=>-])|(?:#{1,6}\s))|(?:(?<!\d)(\d+)(\.\s))/gm,
  "$1$3\\$2$4",
];

/** True for the characters JavaScript's multiline `$` stops before. */
function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/**
 * `text.replace(/^\n+|\n+$/g, "")` (node-html-markdown's `trimNewLines`) in linear time.
 *
 * @param text - any text
 * @returns the text without leading and trailing `\n`
 */
export function trimNewLines(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === NEWLINE) start += 1;
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === NEWLINE) end -= 1;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * `text.replace(/([^\r\n])(?:\r?\n)+(?!\s*[-*+]|\s*\d+\.|\s*\|)/g, "$1  \n" + indent)`: line
 * breaks inside a list item become Markdown hard breaks, unless the next line starts a list or
 * table. Linear: the first non-space character after a break is found once per run of spaces.
 *
 * @param text - the item's content
 * @param indent - what follows each hard break
 * @returns the content with hard breaks
 */
export function hardBreakListLines(text: string, indent: string): string {
  const out: string[] = [];
  let copied = 0;
  // the first non-whitespace position at or after any position in [scanFrom, scanTo]
  let scanFrom = -1;
  let scanTo = -1;
  let startsBlock = false;
  const breaks = /(?:\r?\n)+/g;
  const nonSpace = /\S/g;
  for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
    const before = match.index - 1;
    if (before < 0) continue;
    const code = text.charCodeAt(before);
    if (code === NEWLINE || code === CARRIAGE_RETURN) continue;
    const runEnd = breaks.lastIndex;
    if (runEnd < scanFrom || runEnd > scanTo) {
      scanFrom = runEnd;
      nonSpace.lastIndex = runEnd;
      scanTo = nonSpace.exec(text)?.index ?? text.length;
      startsBlock = startsListOrTable(text, scanTo);
    }
    if (startsBlock) continue;
    out.push(text.slice(copied, match.index), `  \n${indent}`);
    copied = runEnd;
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join("");
}

/** True when `-`, `*`, `+`, `|` or digits and a `.` start at `at`. */
function startsListOrTable(text: string, at: number): boolean {
  const character = text[at];
  if (character === "-" || character === "*" || character === "+" || character === "|") {
    return true;
  }
  let end = at;
  while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) {
    end += 1;
  }
  return end > at && text[end] === ".";
}

/**
 * `text.replace(/(\S+?)[^\S\r\n]+$/gm, "$1  ")`: trailing spaces after a word become the two
 * spaces of a Markdown hard break. Linear: each run of spaces is looked at once.
 *
 * @param text - the item's content
 * @returns the content with its line ends marked
 */
export function markLineEndBreaks(text: string): string {
  const out: string[] = [];
  let copied = 0;
  let done = 0;
  const lineEnds = /[\n\r\u2028\u2029]/g;
  for (let end = 0; end !== text.length; ) {
    const match = lineEnds.exec(text);
    end = match === null ? text.length : match.index;
    if (end < done) continue;
    // the whole run of spaces (line breaks other than \r \n count as spaces) around this line end
    let runStart = end;
    while (runStart > done && isSpace(text.charCodeAt(runStart - 1))) runStart -= 1;
    let runEnd = end;
    while (runEnd < text.length && isSpace(text.charCodeAt(runEnd))) runEnd += 1;
    done = runEnd;
    if (runStart === runEnd || runStart === 0) continue;
    if (isWhitespaceCode(text.charCodeAt(runStart - 1))) continue;
    const cut = lineEndCut(text, runStart, runEnd);
    if (cut === -1) continue;
    out.push(text.slice(copied, runStart), "  ");
    copied = cut;
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join("");
}

/** Whitespace other than `\r` and `\n` (`[^\S\r\n]`). */
function isSpace(code: number): boolean {
  return code !== NEWLINE && code !== CARRIAGE_RETURN && isWhitespaceCode(code);
}

/**
 * Where the longest part of a run of spaces that a line end follows stops: the run's end when
 * `\r`, `\n` or the end of the text follows it, else its last U+2028 / U+2029 (which `$` also
 * stops before), else -1.
 */
function lineEndCut(text: string, runStart: number, runEnd: number): number {
  if (runEnd === text.length) return runEnd;
  const next = text.charCodeAt(runEnd);
  if (next === NEWLINE || next === CARRIAGE_RETURN) return runEnd;
  for (let at = runEnd - 1; at > runStart; at -= 1) {
    if (isLineTerminator(text.charCodeAt(at))) return at;
  }
  return -1;
}

type Context = Record<string, unknown> & { content: string };
type Config = Record<string, unknown>;
type Factory = ((context: Context) => Config) & { base?: Config };
interface Collection {
  get(key: string): unknown;
  set(keys: string, config: unknown): void;
}

/** Keeps a factory's translator, with another `postprocess`, and its base. */
function withPostprocess(
  factory: Factory,
  postprocess: (context: Context, config: Config) => unknown,
): Factory {
  const wrapped = (context: Context): Config => {
    const config = factory(context);
    return { ...config, postprocess: (post: Context) => postprocess(post, context) };
  };
  return Object.assign(wrapped, factory.base === undefined ? {} : { base: factory.base });
}

/** The table cell post-processing, linear. */
function tableCell({ content }: Context): string {
  return trimNewLines(content)
    .replace("|", "\\|")
    .replace(/(?:\r?\n)+/g, " ")
    .trim();
}

/** What node-html-markdown writes for the characters that can break a Markdown link target. */
const LINK_ESCAPES: Record<string, string> = { "(": "%28", ")": "%29", _: "%5F", "*": "%2A" };

/** A link's node, as the link translator reads it. */
interface LinkNode {
  getAttribute(name: string): string | undefined | null;
  textContent: string;
}

/**
 * node-html-markdown's link translator, with the target escaped by one `replace` instead of a
 * string built a character at a time (a 1 MB `href` left a million-piece rope to the collector).
 */
function linkTranslator({ node, options, visitor }: Context): Config {
  const link = node as LinkNode;
  const href = link.getAttribute("href");
  if (!href) return {};
  const encodedHref = href.replace(/[()_*]/g, (character) => LINK_ESCAPES[character] as string);
  const title = link.getAttribute("title");
  const settings = options as { useInlineLinks?: boolean; useLinkReferenceDefinitions?: boolean };
  if (link.textContent === href && settings.useInlineLinks) return { content: `<${encodedHref}>` };
  const walker = visitor as {
    instance: NodeHtmlMarkdown;
    addOrGetUrlDefinition(url: string): number;
  };
  return {
    postprocess: ({ content }: Context) => content.replace(/(?:\r?\n)+/g, " "),
    childTranslators: walker.instance.aTagTranslators,
    prefix: "[",
    postfix: `]${
      !settings.useLinkReferenceDefinitions
        ? `(${encodedHref}${title ? ` "${title}"` : ""})`
        : `[${walker.addOrGetUrlDefinition(encodedHref)}]`
    }`,
  };
}

/**
 * Puts the linear list item, block quote and table cell post-processing and the link translator
 * into one converter's translator tables (the same Markdown as node-html-markdown's own).
 *
 * @param converter - the converter to change
 */
export function useLinearTranslators(converter: NodeHtmlMarkdown): void {
  const translators = converter.translators as unknown as Collection;
  const item = translators.get("LI") as Factory;
  translators.set(
    "LI",
    withPostprocess(item, ({ content, options }, context) => {
      if (!/\S/.test(content)) return PostProcessResult.RemoveNode;
      const indent = (options as { indent: string }).indent;
      const level = +((context.indentLevel as number | undefined) || 0);
      return markLineEndBreaks(hardBreakListLines(content.trim(), indent.repeat(level)));
    }),
  );
  translators.set("A", linkTranslator);
  (converter.tableCellTranslators as unknown as Collection).set("A", linkTranslator);
  const quote = translators.get("BLOCKQUOTE") as Config;
  translators.set("BLOCKQUOTE", {
    ...quote,
    postprocess: ({ content }: Context) =>
      trimNewLines(content).replace(/^(>*)[^\S\r\n]?/gm, ">$1 "),
  });
  for (const collection of [converter.tableTranslators, converter.tableRowTranslators]) {
    const table = collection as unknown as Collection;
    for (const tag of ["TD", "TH"]) {
      const cell = table.get(tag) as Factory | undefined;
      if (cell !== undefined) table.set(tag, withPostprocess(cell, tableCell));
    }
  }
}
