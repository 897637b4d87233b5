/**
 * A small, line-based Markdown block parser for `extract_toc` and `count_words`: ATX and Setext
 * headings, paragraphs, fenced (``` and ~~~, any longer length, with info strings) and indented
 * code blocks, thematic breaks, HTML comments and YAML/TOML front matter. It follows CommonMark
 * where it matters for headings (a `#` line inside a code block or comment is not a heading;
 * `---` under a paragraph is a Setext heading, under a list item a thematic break) and ignores
 * the rest (inline markup is stripped only for counting).
 *
 * @internal
 */

/** One heading of a Markdown document. */
export interface MarkdownHeading {
  /** 1–6 (`#` … `######`; Setext `===` is 1, `---` is 2). */
  level: number;
  /** The heading text, trimmed, closing `#`s removed. */
  title: string;
  /** The 1-based line where the heading starts. */
  line: number;
}

/** What kind of block a {@link MarkdownBlock} is. */
export type MarkdownBlockKind =
  | "heading"
  | "paragraph"
  | "code"
  | "thematic-break"
  | "html-comment"
  | "front-matter";

/** One block of a Markdown document. */
export interface MarkdownBlock {
  /** The kind of block. */
  kind: MarkdownBlockKind;
  /** 1-based first line. */
  startLine: number;
  /** 1-based last line. */
  endLine: number;
  /** The block's text content (heading title, paragraph lines, code lines without fences). */
  text: string;
}

/** A parsed Markdown document. */
export interface MarkdownDocument {
  /** Lines in the text (a final line ending does not start another line). */
  lines: number;
  /** Headings in document order. */
  headings: MarkdownHeading[];
  /** Blocks in document order (blank lines belong to none). */
  blocks: MarkdownBlock[];
}

/** Options of {@link parseMarkdown}. */
export interface ParseMarkdownOptions {
  /**
   * `false` parses plain text: every run of non-blank lines is a paragraph, nothing is a heading
   * or code. Default `true`.
   */
  markdown?: boolean;
}

/**
 * Splits text into lines on `\n`, `\r\n` or `\r`; a final line ending does not start another line.
 *
 * @internal
 */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

const BLANK = /^[ \t]*$/;
const INDENTED_CODE = /^(?: {4}|\t| {1,3}\t)/;
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const HTML_COMMENT_OPEN = /^ {0,3}<!--/;
const LIST_OR_QUOTE = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|^ {0,3}>/;

/** The text of an ATX heading line after its `#`s: trimmed, optional closing sequence removed. */
function atxTitle(rest: string): string {
  const trimmed = rest.trim();
  if (/^#+$/.test(trimmed)) return "";
  // Linear, not /[ \t]+#+$/ (quadratic on a long run of spaces inside the heading).
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === "#") end -= 1;
  if (end === trimmed.length || (trimmed[end - 1] !== " " && trimmed[end - 1] !== "\t")) {
    return trimmed;
  }
  return trimmed.slice(0, end).trim();
}

/**
 * Parses Markdown into blocks and headings.
 *
 * @param text - the document
 * @param options - `markdown: false` for plain text
 * @returns lines, headings and blocks
 * @internal
 * @example
 * parseMarkdown("# Title\n\nText\n```\n# not a heading\n```\n").headings; // [{ level: 1, title: "Title", line: 1 }]
 */
export function parseMarkdown(text: string, options: ParseMarkdownOptions = {}): MarkdownDocument {
  const lines = splitLines(text);
  const markdown = options.markdown ?? true;
  const blocks: MarkdownBlock[] = [];
  const headings: MarkdownHeading[] = [];
  let paragraphStart = -1;
  let paragraphLines: string[] = [];

  const flushParagraph = (endIndex: number) => {
    if (paragraphStart === -1) return;
    blocks.push({
      kind: "paragraph",
      startLine: paragraphStart + 1,
      endLine: endIndex + 1,
      text: paragraphLines.join("\n"),
    });
    paragraphStart = -1;
    paragraphLines = [];
  };
  const addHeading = (level: number, title: string, startIndex: number, endIndex: number) => {
    blocks.push({ kind: "heading", startLine: startIndex + 1, endLine: endIndex + 1, text: title });
    if (title.length > 0) headings.push({ level, title, line: startIndex + 1 });
  };

  let index = 0;
  const frontMatter = markdown ? readFrontMatter(lines) : undefined;
  if (frontMatter !== undefined) {
    blocks.push(frontMatter);
    index = frontMatter.endLine;
  }

  while (index < lines.length) {
    const line = lines[index] as string;
    if (BLANK.test(line)) {
      flushParagraph(index - 1);
      index += 1;
      continue;
    }
    if (!markdown) {
      if (paragraphStart === -1) paragraphStart = index;
      paragraphLines.push(line);
      index += 1;
      continue;
    }
    if (paragraphStart === -1 && INDENTED_CODE.test(line)) {
      const block = readIndentedCode(lines, index);
      blocks.push(block);
      index = block.endLine;
      continue;
    }
    const fence = FENCE_OPEN.exec(line);
    if (fence !== null && !(fence[2]?.startsWith("`") && fence[3]?.includes("`"))) {
      flushParagraph(index - 1);
      const block = readFencedCode(lines, index, fence[2] as string);
      blocks.push(block);
      index = block.endLine;
      continue;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx !== null) {
      flushParagraph(index - 1);
      addHeading((atx[1] as string).length, atxTitle(atx[2] ?? ""), index, index);
      index += 1;
      continue;
    }
    if (
      paragraphStart !== -1 &&
      SETEXT_UNDERLINE.test(line) &&
      !LIST_OR_QUOTE.test(paragraphLines[0] ?? "")
    ) {
      const level = line.trim().startsWith("=") ? 1 : 2;
      const title = paragraphLines
        .map((part) => part.trim())
        .join(" ")
        .trim();
      const start = paragraphStart;
      paragraphStart = -1;
      paragraphLines = [];
      addHeading(level, title, start, index);
      index += 1;
      continue;
    }
    if (THEMATIC_BREAK.test(line)) {
      flushParagraph(index - 1);
      blocks.push({ kind: "thematic-break", startLine: index + 1, endLine: index + 1, text: "" });
      index += 1;
      continue;
    }
    if (HTML_COMMENT_OPEN.test(line)) {
      flushParagraph(index - 1);
      const block = readHtmlComment(lines, index);
      blocks.push(block);
      index = block.endLine;
      continue;
    }
    if (paragraphStart === -1) paragraphStart = index;
    paragraphLines.push(line);
    index += 1;
  }
  flushParagraph(lines.length - 1);
  return { lines: lines.length, headings, blocks };
}

/** A front-matter block (`---` … `---`/`...`, or `+++` … `+++`) at the top, if there is one. */
function readFrontMatter(lines: readonly string[]): MarkdownBlock | undefined {
  if (lines.length === 0) return undefined;
  const opener = lines[0]?.trimEnd();
  if (opener !== "---" && opener !== "+++") return undefined;
  for (let close = 1; close < lines.length; close += 1) {
    const candidate = lines[close]?.trimEnd();
    if (candidate === opener || (opener === "---" && candidate === "...")) {
      return {
        kind: "front-matter",
        startLine: 1,
        endLine: close + 1,
        text: lines.slice(1, close).join("\n"),
      };
    }
  }
  return undefined;
}

/** An indented code block from line index `start` (blank lines inside it kept, trailing ones not). */
function readIndentedCode(lines: readonly string[], start: number): MarkdownBlock {
  let index = start;
  let end = start;
  const content: string[] = [];
  while (index < lines.length) {
    const current = lines[index] as string;
    if (INDENTED_CODE.test(current)) {
      end = index;
      content.push(current.replace(INDENTED_CODE, ""));
    } else if (!BLANK.test(current)) break;
    index += 1;
  }
  return { kind: "code", startLine: start + 1, endLine: end + 1, text: content.join("\n") };
}

/** A fenced code block opened by `marker` at line index `start`, to its closing fence or the end. */
function readFencedCode(lines: readonly string[], start: number, marker: string): MarkdownBlock {
  const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*$`);
  const content: string[] = [];
  let index = start + 1;
  let closed = false;
  while (index < lines.length) {
    const current = lines[index] as string;
    if (closing.test(current)) {
      closed = true;
      break;
    }
    content.push(current);
    index += 1;
  }
  const end = closed ? index : lines.length - 1;
  return { kind: "code", startLine: start + 1, endLine: end + 1, text: content.join("\n") };
}

/** An HTML comment from line index `start` to the line that closes it (or the end). */
function readHtmlComment(lines: readonly string[], start: number): MarkdownBlock {
  const line = lines[start] as string;
  let index = start;
  const afterOpen = line.slice(line.indexOf("<!--") + 4);
  if (!afterOpen.includes("-->")) {
    index += 1;
    while (index < lines.length && !(lines[index] as string).includes("-->")) index += 1;
  }
  const end = Math.min(index, lines.length - 1);
  return {
    kind: "html-comment",
    startLine: start + 1,
    endLine: end + 1,
    text: lines.slice(start, end + 1).join("\n"),
  };
}

/**
 * Strips inline Markdown so only readable text is counted: images keep their alt text, links
 * their text (not the URL), HTML tags and emphasis / code markers go, and leading list and quote
 * markers go.
 *
 * @internal
 */
export function stripInlineMarkdown(text: string): string {
  const withoutMarkers = text
    .split("\n")
    .map((line) => {
      // Linear: one greedy run of blanks and quote markers, then an optional list marker.
      const lead = /^[ \t>]*/.exec(line)?.[0].length ?? 0;
      const marker = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/.exec(line.slice(lead))?.[0].length ?? 0;
      return line.slice(lead + marker);
    })
    .join("\n");
  return stripTagsLinear(
    replaceBracketed(
      replaceBracketed(replaceBracketed(withoutMarkers, "![", "(", ")"), "[", "(", ")"),
      "[",
      "[",
      "]",
    ),
  )
    .replace(/[*`]+|~~/g, "")
    .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, "$1");
}

/** For each index, the index of the next `target` character at or after it (`-1` when none). */
function nextIndexes(text: string, isTarget: (character: string) => boolean): Int32Array {
  const next = new Int32Array(text.length + 1).fill(-1);
  for (let index = text.length - 1; index >= 0; index -= 1) {
    next[index] = isTarget(text[index] as string) ? index : (next[index + 1] as number);
  }
  return next;
}

/**
 * Replaces `open…](…close` with the text between the brackets — what
 * `/!\[([^\]]*)\]\([^)]*\)/g` → `"$1"` does, in one linear pass (the regular expression is
 * quadratic on many unclosed `![a](`).
 */
function replaceBracketed(text: string, open: string, second: string, close: string): string {
  if (!text.includes(open)) return text;
  const nextBracket = nextIndexes(text, (character) => character === "]");
  const nextClose = nextIndexes(text, (character) => character === close);
  let out = "";
  let copied = 0;
  let index = text.indexOf(open);
  while (index !== -1) {
    const textStart = index + open.length;
    const bracket = nextBracket[textStart] ?? -1;
    if (bracket !== -1 && text[bracket + 1] === second) {
      const end = nextClose[bracket + 2] ?? -1;
      if (end !== -1) {
        out += text.slice(copied, index) + text.slice(textStart, bracket);
        copied = end + 1;
        index = text.indexOf(open, copied);
        continue;
      }
    }
    index = text.indexOf(open, index + 1);
  }
  return out + text.slice(copied);
}

/** `/<\/?[A-Za-z][^>\n]*>/g` → `" "` in one linear pass. */
function stripTagsLinear(text: string): string {
  if (!text.includes("<")) return text;
  const nextStop = nextIndexes(text, (character) => character === ">" || character === "\n");
  let out = "";
  let copied = 0;
  let index = text.indexOf("<");
  while (index !== -1) {
    const nameStart = text[index + 1] === "/" ? index + 2 : index + 1;
    if (/[A-Za-z]/.test(text[nameStart] ?? "")) {
      const stop = nextStop[nameStart + 1] ?? -1;
      if (stop !== -1 && text[stop] === ">") {
        out += `${text.slice(copied, index)} `;
        copied = stop + 1;
        index = text.indexOf("<", copied);
        continue;
      }
    }
    index = text.indexOf("<", index + 1);
  }
  return out + text.slice(copied);
}

const CJK_CLASS = "[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}]";
/** One CJK letter (punctuation such as 。 shares the scripts but is not a word). */
const CJK_LETTER = `(?=[\\p{L}\\p{Nl}])${CJK_CLASS}`;
const NON_CJK_WORD_CHARACTER = `(?!${CJK_CLASS})[\\p{L}\\p{N}\\p{M}]`;

const WORD = new RegExp(
  `${CJK_LETTER}|${NON_CJK_WORD_CHARACTER}+(?:['’.\\-]${NON_CJK_WORD_CHARACTER}+)*`,
  "gu",
);

const CJK = new RegExp(CJK_LETTER, "gu");

/** Word and character counts of a text. */
export interface TextCounts {
  /** Characters that are not whitespace (code points). */
  characters: number;
  /** Words: runs of letters/digits (joined by `'`, `’`, `-`, `.`), plus each CJK character. */
  words: number;
  /** How many of the words are single CJK characters (Han, Hiragana, Katakana, Hangul). */
  cjkCharacters: number;
}

/**
 * Counts words and non-whitespace characters. Each CJK character (Han, Hiragana, Katakana,
 * Hangul) is one word; other words are runs of letters and digits, split by whitespace and
 * punctuation (`don't`, `e-mail` and `3.14` are one word each).
 *
 * @internal
 * @example
 * countText("Hello, 世界!"); // { characters: 9, words: 3, cjkCharacters: 2 }
 */
export function countText(text: string): TextCounts {
  const visible = text.replace(/\s+/gu, "");
  const characters =
    visible.length - (visible.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  const words = text.match(WORD)?.length ?? 0;
  const cjkCharacters = text.match(CJK)?.length ?? 0;
  return { characters, words, cjkCharacters };
}
