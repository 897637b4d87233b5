// The structure of a document as pandoc's JSON AST holds it, and how two structures are scored.
// One extractor for the ground truth (the SOURCE parsed by pandoc: Markdown, reStructuredText, a
// manual page — the source's own structure, not a reader's output) and for every reader's output
// (its Markdown parsed by the same `pandoc -f gfm -t json`), so no reader is judged by a parser
// of its own. Pandoc's AST 1.22 (pandoc 2.17, Debian bookworm): { blocks: [{ t, c }] }.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A document's structure.
 *
 * @typedef {object} Structure
 * @property {string[]} headings - "level|words" per heading
 * @property {string[]} listItems - "depth|words" per list item (its own text, nested lists apart;
 *   depth 1 for a top-level item)
 * @property {string[]} cells - "words" per non-empty table cell (header cells too)
 * @property {string[]} links - each link's target (images apart)
 * @property {string[]} words - every word of the text, in order (lowercased letters and digits)
 */

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a text: lowercased runs of letters and digits.
 *
 * @param {string} text - any text
 * @returns {string[]} its words in order
 */
export function wordsOf(text) {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The key of a text in a structure: its words joined by one space, at most 24 words. */
const keyOf = (text) => wordsOf(text).slice(0, 24).join(" ");

/** Plain text of inlines (pandoc AST), links' and notes' text included, raw HTML left out. */
function inlineText(inlines, links) {
  let text = "";
  for (const inline of inlines ?? []) {
    const content = inline.c;
    switch (inline.t) {
      case "Str":
        text += content;
        break;
      case "Space":
      case "SoftBreak":
      case "LineBreak":
        text += " ";
        break;
      case "Code":
      case "Math":
        text += content[1];
        break;
      case "Emph":
      case "Strong":
      case "Strikeout":
      case "Superscript":
      case "Subscript":
      case "SmallCaps":
      case "Underline":
        text += inlineText(content, links);
        break;
      case "Quoted":
      case "Cite":
      case "Span":
        text += inlineText(content[1], links);
        break;
      case "Link":
        links?.push(content[2][0]);
        text += inlineText(content[1], links);
        break;
      case "Image":
        // alt text is a reader's choice of placeholder; not the document's text
        break;
      case "Note":
        text += ` ${blocksText(content, links)} `;
        break;
      default:
        // RawInline (HTML comments and tags) and anything newer: not text a reader must show
        break;
    }
  }
  return text;
}

/** Plain text of blocks (used for cells, notes and list items' own text). */
function blocksText(blocks, links) {
  const visitor = new StructureVisitor();
  visitor.links = links ?? visitor.links;
  visitor.blocks(blocks, 0, { collect: false });
  return visitor.text.join(" ");
}

/** Walks blocks, collecting headings, list items with depth, cells, links and the text. */
class StructureVisitor {
  headings = [];
  listItems = [];
  cells = [];
  links = [];
  text = [];

  /**
   * @param {unknown[]} blocks - pandoc blocks
   * @param {number} depth - list depth of these blocks (0 outside lists)
   * @param {{ collect: boolean }} mode - collect: record structure; otherwise text only
   */
  blocks(blocks, depth, mode) {
    for (const block of blocks ?? []) this.block(block, depth, mode);
  }

  block(block, depth, mode) {
    const content = block.c;
    switch (block.t) {
      case "Plain":
      case "Para":
        this.text.push(inlineText(content, this.links));
        break;
      case "LineBlock":
        for (const line of content) this.text.push(inlineText(line, this.links));
        break;
      case "CodeBlock":
        this.text.push(content[1]);
        break;
      case "Header": {
        const text = inlineText(content[2], this.links);
        this.text.push(text);
        if (mode.collect && keyOf(text)) this.headings.push(`${content[0]}|${keyOf(text)}`);
        break;
      }
      case "BlockQuote":
        this.blocks(content, depth, mode);
        break;
      case "Div":
        this.blocks(content[1], depth, mode);
        break;
      case "BulletList":
        this.list(content, depth, mode);
        break;
      case "OrderedList":
        this.list(content[1], depth, mode);
        break;
      case "DefinitionList":
        for (const [term, definitions] of content) {
          this.text.push(inlineText(term, this.links));
          for (const definition of definitions) this.blocks(definition, depth, mode);
        }
        break;
      case "Table":
        this.table(content, mode);
        break;
      default:
        // RawBlock, HorizontalRule, Null
        break;
    }
  }

  list(items, depth, mode) {
    for (const item of items) {
      const own = item.filter((block) => block.t !== "BulletList" && block.t !== "OrderedList");
      const nested = item.filter((block) => block.t === "BulletList" || block.t === "OrderedList");
      const before = this.text.length;
      this.blocks(own, depth + 1, mode);
      const text = this.text.slice(before).join(" ");
      if (mode.collect && keyOf(text)) this.listItems.push(`${depth + 1}|${keyOf(text)}`);
      this.blocks(nested, depth + 1, mode);
    }
  }

  table(content, mode) {
    // [attr, caption, colspecs, head, bodies, foot]; head/foot: [attr, rows];
    // body: [attr, rowHeadColumns, headRows, rows]; row: [attr, cells];
    // cell: [attr, alignment, rowSpan, colSpan, blocks]
    const [, caption, , head, bodies, foot] = content;
    this.blocks(caption?.[1], 0, { collect: false });
    const rows = [
      ...(head?.[1] ?? []),
      ...bodies.flatMap((body) => [...(body[2] ?? []), ...(body[3] ?? [])]),
      ...(foot?.[1] ?? []),
    ];
    const texts = rows.map((row) => row[1].map((cell) => blocksText(cell[4], this.links)));
    const labelled = hasSheetCoordinates(texts);
    for (const [index, row] of texts.entries()) {
      if (labelled && index === 0) continue;
      for (const [column, text] of row.entries()) {
        if (labelled && column === 0) continue;
        this.text.push(text);
        if (mode.collect && keyOf(text)) this.cells.push(keyOf(text));
      }
    }
  }
}

/** Spreadsheet column letters of a zero-based index: A … Z, AA … */
function columnLetters(index) {
  let letters = "";
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/** The zero-based index of column letters (`A` 0, `AA` 26), or -1 when they are not letters. */
function columnIndex(letters) {
  if (!/^[A-Z]{1,3}$/.test(letters)) return -1;
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/**
 * Whether a table carries a sheet's coordinates: a first row of an empty corner and consecutive
 * column letters (A, B, C … or from a range's first column) AND a first column of row numbers
 * counting up. Such labels are a reader's (the issue asks read_document for them); no source
 * cell holds them, so they are scored neither as cells nor as text — for every reader alike.
 *
 * @param {string[][]} rows - the table's cell texts, row by row
 * @returns {boolean}
 */
export function hasSheetCoordinates(rows) {
  if (rows.length < 2) return false;
  const [header, ...body] = rows;
  if (header.length < 2 || header[0].trim() !== "") return false;
  const start = columnIndex(header[1].trim());
  if (start < 0) return false;
  const lettersInOrder = header
    .slice(1)
    .every((text, index) => text.trim() === columnLetters(start + index));
  if (!lettersInOrder) return false;
  let previous = 0;
  for (const row of body) {
    const label = row[0]?.trim() ?? "";
    if (!/^[1-9]\d*$/.test(label) || Number(label) <= previous) return false;
    previous = Number(label);
  }
  return true;
}

/**
 * The structure of a pandoc JSON AST.
 *
 * @param {{ blocks: unknown[] }} ast - `pandoc -t json` output, parsed
 * @returns {Structure}
 */
export function structureOfAst(ast) {
  const visitor = new StructureVisitor();
  visitor.blocks(ast.blocks, 0, { collect: true });
  return {
    headings: visitor.headings,
    listItems: visitor.listItems,
    cells: visitor.cells,
    links: visitor.links.map((target) => target.trim()).filter((target) => target.length > 0),
    words: wordsOf(visitor.text.join(" ")),
  };
}

/**
 * Parses a file or a text with pandoc into its structure.
 *
 * @param {{ file?: string, text?: string, from: string }} input - a file path, or a text on stdin,
 *   and pandoc's input format (`gfm`, `rst`, `man`, …)
 * @returns {Promise<Structure>}
 */
export async function structureWithPandoc({ file, text, from }) {
  const args = ["--sandbox", "-f", from, "-t", "json"];
  if (file !== undefined) args.push("--", file);
  const child = run("pandoc", args, { maxBuffer: 1 << 28, encoding: "utf8" });
  if (text !== undefined) {
    child.child.stdin.end(text);
  }
  const { stdout } = await child;
  return structureOfAst(JSON.parse(stdout));
}

/** Multiset intersection size of two lists. */
function common(found, expected) {
  const counts = new Map();
  for (const item of expected) counts.set(item, (counts.get(item) ?? 0) + 1);
  let shared = 0;
  for (const item of found) {
    const left = counts.get(item) ?? 0;
    if (left > 0) {
      shared += 1;
      counts.set(item, left - 1);
    }
  }
  return shared;
}

/**
 * Precision and recall of a found list against an expected one, as multisets (a heading found
 * twice counts once unless the source has it twice). Undefined where the source has none
 * (recall) or the reader gave none (precision).
 *
 * @param {string[]} found - the reader's items
 * @param {string[]} expected - the source's items
 * @returns {{ precision: number | undefined, recall: number | undefined, shared: number, found: number, expected: number }}
 */
export function precisionRecall(found, expected) {
  const shared = common(found, expected);
  return {
    precision: found.length === 0 ? undefined : shared / found.length,
    recall: expected.length === 0 ? undefined : shared / expected.length,
    shared,
    found: found.length,
    expected: expected.length,
  };
}

/**
 * Text similarity: token-level F1 — the words of the reader's text and of the source as
 * multisets (bag of words), F1 = 2·|common| / (|reader| + |source|). 1 when the same words come
 * out as many times; order and Markdown syntax are not counted (the syntax is gone after
 * parsing, the order is the structure scores' job).
 *
 * @param {string[]} found - the reader's words
 * @param {string[]} expected - the source's words
 * @returns {number} between 0 and 1
 */
export function tokenF1(found, expected) {
  if (found.length + expected.length === 0) return 1;
  return (2 * common(found, expected)) / (found.length + expected.length);
}

/**
 * Every score of a reader's structure against the source's.
 *
 * @param {Structure} found - the reader's
 * @param {Structure} expected - the source's
 */
export function scoreStructure(found, expected) {
  return {
    headings: precisionRecall(found.headings, expected.headings),
    // a list item scores with its depth: "2|text" matches only a second-level item
    listItems: precisionRecall(found.listItems, expected.listItems),
    cells: precisionRecall(found.cells, expected.cells),
    links: precisionRecall(found.links, expected.links),
    text: tokenF1(found.words, expected.words),
  };
}
