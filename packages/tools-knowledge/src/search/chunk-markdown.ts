import type { Chunk, ChunkedDocument } from "../engine/types.js";

/**
 * Default cap on a chunk's length: 1,500 characters. About 300–400 English tokens — inside the
 * 256–512-token window where embedding models are most precise, short enough that a BM25 hit
 * points at a passage a model can read whole (and an excerpt shows most of it), long enough that a
 * typical Markdown section (a heading and a few paragraphs, a short code sample) stays one chunk.
 */
export const DEFAULT_MAX_CHUNK_CHARACTERS = 1500;

/** The smallest `maxChunkCharacters` accepted (16). */
export const MIN_MAX_CHUNK_CHARACTERS = 16;

/** Options of {@link chunkMarkdown}. */
export interface ChunkMarkdownOptions {
  /**
   * Largest chunk, in characters as `String#length` counts them (UTF-16 code units), at least
   * {@link MIN_MAX_CHUNK_CHARACTERS}. Default {@link DEFAULT_MAX_CHUNK_CHARACTERS} (1,500).
   */
  maxChunkCharacters?: number;
}

type BlockKind = "heading" | "paragraph" | "fence" | "table" | "code" | "comment";

interface Block {
  kind: BlockKind;
  /** 0-based first line. */
  start: number;
  /** 0-based last line, inclusive. */
  end: number;
  /** Heading level 1–6 (headings only). */
  level: number;
  /** Heading text (headings only). */
  title: string;
}

interface Section {
  /** Headings above and including this section's own, outermost first. */
  trail: string[];
  heading: Block | undefined;
  body: Block[];
}

const BLANK = /^[ \t]*$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const INDENTED_CODE = /^(?: {4}|\t| {1,3}\t)/;
const COMMENT_OPEN = /^ {0,3}<!--/;
const LIST_OR_QUOTE = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|^ {0,3}>/;
const TABLE_DELIMITER_CELL = /^:?-+:?$/;
/** Longest heading text kept for a trail; the rest of a (hostile) giant heading is not cleaned. */
const MAX_TITLE_CHARACTERS = 300;
const COMBINING = /\p{M}/u;
const WHITESPACE = /\s/;

/**
 * Splits a Markdown (or plain-text) document into heading-aware chunks with true line spans.
 *
 * - Each ATX (`## Title`) or Setext (`Title` over `===` / `---`) heading starts a new chunk; every
 *   chunk carries the trail of headings above it. A heading with no text of its own before a
 *   deeper heading joins the first chunk of that child section (so no chunk is a bare heading unless
 *   the document has nothing under it).
 * - Within a section, whole blocks (paragraphs, lists, tables, code fences) are packed into chunks
 *   of at most `maxChunkCharacters`; a block too big for the space left starts the next chunk, and a
 *   block too big for any chunk is split on line boundaries (a table between rows). A code fence
 *   (``` or ~~~) is never split unless the fence alone exceeds the cap — then it is split on line
 *   boundaries like any other block; a `#` line inside a fence, an indented code block or an HTML
 *   comment is never a heading.
 * - A single line longer than the cap is split at character boundaries (never inside a surrogate
 *   pair, before a combining mark, or — when one is near — a word); each piece is a chunk whose span
 *   is that one line and whose text is the piece, not the whole line.
 * - Front matter (a YAML `---` … `---`/`...` or TOML `+++` … `+++` block starting on line 1) is
 *   returned flattened in `front_matter` and is part of no chunk; line numbers stay true.
 * - Lines are split on `\n` (a `\r` before it is dropped, so CRLF files chunk like LF files, and
 *   line numbers match `read_file`'s); a leading byte-order mark is ignored. An empty or blank
 *   document has no chunks.
 *
 * A chunk's `text` is exactly its source lines `start_line`…`end_line` joined with `\n` (except the
 * pieces of an over-long line), and never starts or ends with a blank line.
 *
 * @param text - the document text
 * @param options - `maxChunkCharacters` (default 1,500)
 * @returns the chunks in document order (dense `chunk_index` from 0) and the front matter text
 * @throws {RangeError} when `maxChunkCharacters` is not an integer ≥ {@link MIN_MAX_CHUNK_CHARACTERS}
 * @example
 * const { chunks } = chunkMarkdown("# Power\n\n## Limits\n\nThe regulator caps at 5V.\n");
 * // [{ text: "# Power\n\n## Limits\n\nThe regulator caps at 5V.", start_line: 1, end_line: 5,
 * //    heading_trail: ["Power", "Limits"], chunk_index: 0 }]
 */
export function chunkMarkdown(text: string, options: ChunkMarkdownOptions = {}): ChunkedDocument {
  const cap = options.maxChunkCharacters ?? DEFAULT_MAX_CHUNK_CHARACTERS;
  if (!Number.isInteger(cap) || cap < MIN_MAX_CHUNK_CHARACTERS) {
    throw new RangeError(
      `maxChunkCharacters must be an integer of at least ${MIN_MAX_CHUNK_CHARACTERS} (got ${String(cap)}).`,
    );
  }
  const lines = splitDocumentLines(text);
  const { frontMatter, bodyStart } = readFrontMatter(lines);
  const blocks = parseBlocks(lines, bodyStart);
  const sections = groupSections(blocks);
  const chunker = new Chunker(lines, cap);
  for (let index = 0; index < sections.length; index += 1) {
    const section = sections[index] as Section;
    const next = sections[index + 1];
    if (
      section.heading !== undefined &&
      section.body.length === 0 &&
      next?.heading !== undefined &&
      next.heading.level > section.heading.level
    ) {
      chunker.carry(section.heading);
      continue;
    }
    chunker.addSection(section);
  }
  return { chunks: chunker.chunks, front_matter: frontMatter };
}

/**
 * Whether bytes look like a binary file rather than text: a NUL byte, or bytes that are not valid
 * UTF-8, within the first 8 KB (a multi-byte character cut by the 8 KB boundary is not counted
 * against it). UTF-16 text contains NUL bytes and so counts as binary.
 *
 * @param bytes - the file's first bytes (or all of them)
 * @returns `true` when the corpus walk should skip the file
 * @example
 * isBinaryContent(new TextEncoder().encode("# Notes\n")); // false
 * isBinaryContent(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00])); // true
 */
export function isBinaryContent(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** How many leading bytes {@link isBinaryContent} looks at: 8 KB. */
export const BINARY_SNIFF_BYTES = 8192;

function splitDocumentLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.length === 0) return [];
  const lines = body.split("\n");
  if (body.endsWith("\n")) lines.pop();
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (line.endsWith("\r")) lines[index] = line.slice(0, -1);
  }
  return lines;
}

function readFrontMatter(lines: readonly string[]): { frontMatter: string; bodyStart: number } {
  const opener = lines[0]?.trimEnd();
  if (opener !== "---" && opener !== "+++") return { frontMatter: "", bodyStart: 0 };
  for (let close = 1; close < lines.length; close += 1) {
    const candidate = (lines[close] as string).trimEnd();
    if (candidate === opener || (opener === "---" && candidate === "...")) {
      return { frontMatter: flattenFrontMatter(lines.slice(1, close)), bodyStart: close + 1 };
    }
  }
  return { frontMatter: "", bodyStart: 0 };
}

/** `title: "A B"` / `tags:` / `  - x` lines → `title: A B tags: x` (searchable text, not YAML). */
function flattenFrontMatter(lines: readonly string[]): string {
  const parts: string[] = [];
  for (const raw of lines) {
    let line = raw.trim();
    if (line.length === 0 || line.startsWith("#")) continue;
    if (line.startsWith("- ")) line = line.slice(2).trim();
    line = line.replace(/(^|[:=\s[,])["']|["'](?=$|[\s,\]])/g, "$1");
    if (line.length > 0) parts.push(line);
  }
  return parts.join(" ");
}

/** The text of an ATX heading after its `#`s: trimmed, the optional closing `#` run removed. */
function atxTitle(rest: string): string {
  const trimmed = rest.trim();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === "#") end -= 1;
  if (end === 0) return "";
  if (end === trimmed.length || (trimmed[end - 1] !== " " && trimmed[end - 1] !== "\t")) {
    return trimmed;
  }
  return trimmed.slice(0, end).trim();
}

/**
 * Inline markup removed from a heading for its trail: code ticks, bold, links and images. Only the
 * first {@link MAX_TITLE_CHARACTERS} characters are kept, which also bounds the regular expressions'
 * work on a hostile line such as a megabyte of `[`.
 */
function cleanTitle(title: string): string {
  return title
    .slice(0, MAX_TITLE_CHARACTERS)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+/g, "")
    .replace(/\*\*|__/g, "")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function isFenceOpen(line: string): RegExpExecArray | null {
  const fence = FENCE_OPEN.exec(line);
  if (fence === null) return null;
  // A backtick fence's info string may not contain a backtick (that is inline code).
  if ((fence[1] as string).startsWith("`") && (fence[2] as string).includes("`")) return null;
  return fence;
}

function isTableStart(lines: readonly string[], index: number): boolean {
  const header = lines[index] as string;
  const delimiter = lines[index + 1];
  return delimiter !== undefined && header.includes("|") && isTableDelimiter(delimiter);
}

/** A GFM delimiter row (`|:---|---:|`), checked cell by cell in linear time. */
function isTableDelimiter(line: string): boolean {
  if (!line.includes("|") || !line.includes("-") || /^ {4}/.test(line)) return false;
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|")) row = row.slice(0, -1);
  return row.split("|").every((cell) => TABLE_DELIMITER_CELL.test(cell.trim()));
}

function parseBlocks(lines: readonly string[], from: number): Block[] {
  const blocks: Block[] = [];
  const block = (kind: BlockKind, start: number, end: number, level = 0, title = ""): void => {
    blocks.push({ kind, start, end, level, title });
  };
  let paragraphStart = -1;
  let paragraphListLike = false;
  const flush = (end: number): void => {
    if (paragraphStart !== -1) block("paragraph", paragraphStart, end);
    paragraphStart = -1;
    paragraphListLike = false;
  };

  let index = from;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (BLANK.test(line)) {
      flush(index - 1);
      index += 1;
      continue;
    }
    if (paragraphStart === -1 && INDENTED_CODE.test(line)) {
      const start = index;
      let end = index;
      while (index < lines.length) {
        const current = lines[index] as string;
        if (INDENTED_CODE.test(current)) end = index;
        else if (!BLANK.test(current)) break;
        index += 1;
      }
      block("code", start, end);
      index = end + 1;
      continue;
    }
    const fence = isFenceOpen(line);
    if (fence !== null) {
      flush(index - 1);
      const marker = fence[1] as string;
      const closing = new RegExp(
        `^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*$`,
      );
      const start = index;
      index += 1;
      // An unclosed fence runs to the end of the document (CommonMark).
      while (index < lines.length && !closing.test(lines[index] as string)) index += 1;
      const end = Math.min(index, lines.length - 1);
      block("fence", start, end);
      index = end + 1;
      continue;
    }
    if (COMMENT_OPEN.test(line)) {
      flush(index - 1);
      const start = index;
      while (
        index < lines.length &&
        !(lines[index] as string).includes("-->", index === start ? line.indexOf("<!--") + 4 : 0)
      ) {
        index += 1;
      }
      const end = Math.min(index, lines.length - 1);
      block("comment", start, end);
      index = end + 1;
      continue;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx !== null) {
      flush(index - 1);
      block(
        "heading",
        index,
        index,
        (atx[1] as string).length,
        cleanTitle(atxTitle(atx[2] as string)),
      );
      index += 1;
      continue;
    }
    if (paragraphStart !== -1 && !paragraphListLike) {
      const underline = SETEXT_UNDERLINE.exec(line);
      if (underline !== null) {
        let title = "";
        for (
          let part = paragraphStart;
          part < index && title.length < MAX_TITLE_CHARACTERS;
          part += 1
        ) {
          title += `${title.length > 0 ? " " : ""}${(lines[part] as string).slice(0, MAX_TITLE_CHARACTERS).trim()}`;
        }
        block(
          "heading",
          paragraphStart,
          index,
          (underline[1] as string)[0] === "=" ? 1 : 2,
          cleanTitle(title),
        );
        paragraphStart = -1;
        index += 1;
        continue;
      }
    }
    if (isTableStart(lines, index)) {
      flush(index - 1);
      const start = index;
      index += 2;
      while (index < lines.length) {
        const row = lines[index] as string;
        if (
          BLANK.test(row) ||
          !row.includes("|") ||
          ATX_HEADING.test(row) ||
          isFenceOpen(row) !== null
        )
          break;
        index += 1;
      }
      block("table", start, index - 1);
      continue;
    }
    if (paragraphStart === -1) paragraphStart = index;
    if (LIST_OR_QUOTE.test(line)) paragraphListLike = true;
    index += 1;
  }
  flush(lines.length - 1);
  return blocks;
}

function groupSections(blocks: readonly Block[]): Section[] {
  const sections: Section[] = [];
  const stack: Block[] = [];
  let current: Section = { trail: [], heading: undefined, body: [] };
  for (const block of blocks) {
    if (block.kind !== "heading") {
      current.body.push(block);
      continue;
    }
    if (current.heading !== undefined || current.body.length > 0) sections.push(current);
    while (stack.length > 0 && (stack[stack.length - 1] as Block).level >= block.level) stack.pop();
    stack.push(block);
    current = {
      trail: stack.map((heading) => heading.title).filter((title) => title.length > 0),
      heading: block,
      body: [],
    };
  }
  if (current.heading !== undefined || current.body.length > 0) sections.push(current);
  return sections;
}

/** Packs sections into chunks: one instance per document. */
class Chunker {
  readonly chunks: Chunk[] = [];
  private readonly prefix: number[];
  private carried: Block[] = [];
  private trail: string[] = [];
  private chunkStart = -1;
  private chunkEnd = -1;
  private hasBody = false;

  constructor(
    private readonly lines: readonly string[],
    private readonly cap: number,
  ) {
    this.prefix = new Array<number>(lines.length + 1);
    this.prefix[0] = 0;
    for (let index = 0; index < lines.length; index += 1) {
      this.prefix[index + 1] = (this.prefix[index] as number) + (lines[index] as string).length;
    }
  }

  /** A body-less heading that joins the next (deeper) section's first chunk. */
  carry(heading: Block): void {
    this.carried.push(heading);
  }

  addSection(section: Section): void {
    this.trail = section.trail;
    const heads = section.heading === undefined ? this.carried : [...this.carried, section.heading];
    this.carried = [];
    for (const heading of heads) this.placeBlock(heading, false);
    for (const block of section.body) this.placeBlock(block, true);
    this.close();
  }

  /** Length of lines `start`…`end` joined with `\n`. */
  private length(start: number, end: number): number {
    return (this.prefix[end + 1] as number) - (this.prefix[start] as number) + (end - start);
  }

  private placeBlock(block: Block, isBody: boolean): void {
    const blockLength = this.length(block.start, block.end);
    if (
      this.chunkStart === -1
        ? blockLength <= this.cap
        : this.length(this.chunkStart, block.end) <= this.cap
    ) {
      this.extend(block.start, block.end, isBody);
      return;
    }
    if (this.hasBody && blockLength <= this.cap) {
      this.close();
      this.extend(block.start, block.end, isBody);
      return;
    }
    // Too big for the space left beside only headings, or for any chunk: line by line (a table row
    // is one line, so tables split between rows).
    for (let line = block.start; line <= block.end; line += 1) {
      if (BLANK.test(this.lines[line] as string)) continue;
      this.placeLine(line, isBody);
    }
  }

  private placeLine(line: number, isBody: boolean): void {
    if (
      this.chunkStart === -1
        ? this.length(line, line) <= this.cap
        : this.length(this.chunkStart, line) <= this.cap
    ) {
      this.extend(line, line, isBody);
      return;
    }
    this.close();
    if (this.length(line, line) <= this.cap) {
      this.extend(line, line, isBody);
      return;
    }
    for (const piece of splitLongLine(this.lines[line] as string, this.cap)) {
      this.push(piece, line, line);
    }
  }

  private extend(start: number, end: number, isBody: boolean): void {
    if (this.chunkStart === -1) this.chunkStart = start;
    this.chunkEnd = end;
    if (isBody) this.hasBody = true;
  }

  private close(): void {
    if (this.chunkStart === -1) return;
    this.push(
      this.lines.slice(this.chunkStart, this.chunkEnd + 1).join("\n"),
      this.chunkStart,
      this.chunkEnd,
    );
    this.chunkStart = -1;
    this.chunkEnd = -1;
    this.hasBody = false;
  }

  private push(text: string, start: number, end: number): void {
    this.chunks.push({
      text,
      start_line: start + 1,
      end_line: end + 1,
      heading_trail: [...this.trail],
      chunk_index: this.chunks.length,
    });
  }
}

/**
 * Cuts one over-long line into pieces of at most `cap` code units: never inside a surrogate pair or
 * before a combining mark, and after whitespace when there is some in the last quarter of a piece.
 * Pieces that are only whitespace are dropped.
 */
function splitLongLine(line: string, cap: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < line.length) {
    let end = Math.min(start + cap, line.length);
    if (end < line.length) {
      let cut = end;
      while (cut > start + 1 && !isCharacterBoundary(line, cut)) cut -= 1;
      if (!isCharacterBoundary(line, cut)) {
        // Only marks as far back as the piece goes: cut before a mark, never inside a pair.
        cut = end;
        if (isLowSurrogate(line.charCodeAt(cut))) cut -= 1;
      }
      const floor = start + Math.floor((cap * 3) / 4);
      for (let candidate = cut; candidate > floor; candidate -= 1) {
        if (WHITESPACE.test(line[candidate - 1] as string)) {
          cut = candidate;
          break;
        }
      }
      end = cut;
    }
    const piece = line.slice(start, end);
    if (!BLANK.test(piece)) pieces.push(piece);
    start = end;
  }
  return pieces;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isCharacterBoundary(text: string, index: number): boolean {
  if (isLowSurrogate(text.charCodeAt(index))) return false;
  const next = text.codePointAt(index);
  return next === undefined || !COMBINING.test(String.fromCodePoint(next));
}
