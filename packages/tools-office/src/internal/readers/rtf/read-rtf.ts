import { ToolFailureError } from "@agentool/contract";
import { type InlineSegment, markdownTable, markdownTableCell, renderInline } from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";
import type { ReaderInput, TextDocument } from "../types.js";

/**
 * Reads RTF with a hand-written tokenizer: paragraphs, bold/italic, headings from
 * `\outlinelevelN` or `heading N` styles, list items from `\listtext`/`\pntext` with their
 * `\ilvlN` level, tables from `\cell`/`\row`, `\uN` and `\'hh` characters (Windows-1252),
 * hyperlink fields; other destinations (font and colour tables, pictures, metadata) skipped.
 *
 * @internal
 */

const SKIPPED = new Set([
  "fonttbl",
  "colortbl",
  "stylesheet",
  "info",
  "pict",
  "object",
  "header",
  "footer",
  "headerl",
  "headerr",
  "footerl",
  "footerr",
  "listtable",
  "listoverridetable",
  "rsidtbl",
  "generator",
  "xmlnstbl",
  "themedata",
  "colorschememapping",
  "datastore",
  "latentstyles",
  "fldinst",
  "bkmkstart",
  "bkmkend",
]);

interface State {
  bold: boolean;
  italic: boolean;
  skip: boolean;
  unicodeSkip: number;
  listText: boolean;
}

const cp1252 = new TextDecoder("windows-1252");

class RtfWriter {
  readonly writer = new MarkdownWriter();
  segments: InlineSegment[] = [];
  level = 0;
  outline = -1;
  listLevel = -1;
  listMarker = "";
  row: string[] = [];
  rows: string[][] = [];
  inTable = false;
  styleHeadings = new Map<number, number>();
  style = -1;

  text(text: string, state: State): void {
    if (state.listText) this.listMarker += text;
    else this.segments.push({ text, bold: state.bold, italic: state.italic });
  }

  paragraph(): void {
    const text = renderInline(this.segments).replace(/\t/g, " ").trim();
    this.segments = [];
    const heading =
      this.outline >= 0 ? this.outline + 1 : (this.styleHeadings.get(this.style) ?? 0);
    const marker = this.listMarker.trim();
    if (this.inTable) {
      if (text !== "") this.row.push(text);
    } else if (this.rows.length > 0) this.flushTable();
    if (!this.inTable && text !== "") {
      if (heading > 0) this.writer.block(`${"#".repeat(Math.min(6, heading))} ${text}`);
      else if (marker !== "")
        this.writer.listItem(
          Math.max(0, this.listLevel),
          /^\d+[.)]$/.test(marker) ? marker.replace(")", ".") : "-",
          text,
        );
      else this.writer.block(text);
    }
    this.listMarker = "";
  }

  cell(): void {
    const text = renderInline(this.segments).trim();
    this.segments = [];
    this.row.push(markdownTableCell(text));
  }

  endRow(): void {
    this.rows.push(this.row);
    this.row = [];
  }

  flushTable(): void {
    if (this.rows.length > 0) this.writer.block(markdownTable(this.rows));
    this.rows = [];
  }
}

function control(
  writer: RtfWriter,
  state: State,
  word: string,
  parameter: number | undefined,
): void {
  switch (word) {
    case "par":
    case "sect":
      writer.paragraph();
      break;
    case "line":
      writer.text("\n", state);
      break;
    case "tab":
      writer.text("\t", state);
      break;
    case "pard":
      writer.outline = -1;
      writer.listLevel = -1;
      writer.inTable = false;
      writer.style = 0;
      break;
    case "intbl":
      writer.inTable = true;
      break;
    case "cell":
      writer.cell();
      break;
    case "row":
      writer.endRow();
      break;
    case "b":
      state.bold = parameter !== 0;
      break;
    case "i":
      state.italic = parameter !== 0;
      break;
    case "plain":
      state.bold = false;
      state.italic = false;
      break;
    case "outlinelevel":
      writer.outline = parameter ?? -1;
      break;
    case "ilvl":
      writer.listLevel = parameter ?? 0;
      break;
    case "s":
      writer.style = parameter ?? 0;
      break;
    case "uc":
      state.unicodeSkip = parameter ?? 1;
      break;
    case "emdash":
      writer.text("—", state);
      break;
    case "endash":
      writer.text("–", state);
      break;
    case "bullet":
      writer.text("•", state);
      break;
    case "lquote":
      writer.text("‘", state);
      break;
    case "rquote":
      writer.text("’", state);
      break;
    case "ldblquote":
      writer.text("“", state);
      break;
    case "rdblquote":
      writer.text("”", state);
      break;
    default:
      break;
  }
}

/**
 * Reads an RTF file to Markdown.
 *
 * @param input - the file
 * @returns the Markdown document
 */
export async function readRtf(input: ReaderInput): Promise<TextDocument> {
  const source = new TextDecoder("latin1").decode(input.bytes);
  if (!source.startsWith("{\\rtf"))
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${input.label} is not an RTF file (it does not start with {\\rtf).`,
    );
  const writer = new RtfWriter();
  for (const match of source.matchAll(/\{\\s(\d+)[^{}]*?heading (\d)/gi))
    writer.styleHeadings.set(Number(match[1]), Number(match[2]));
  const stack: State[] = [];
  let state: State = { bold: false, italic: false, skip: false, unicodeSkip: 1, listText: false };
  let skipChars = 0;
  const token =
    /\\([a-z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-f]{2})|\\([^a-z])|([{}])|([\r\n]+)|([^\\{}\r\n]+)/gi;
  let count = 0;
  for (let match = token.exec(source); match !== null; match = token.exec(source)) {
    if ((count++ & 4095) === 0) await input.yielder.tick();
    const [, word, parameter, hex, symbol, brace, , text] = match;
    if (brace === "{") {
      stack.push(state);
      state = { ...state };
      if (stack.length > 500)
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${input.label} nests groups more than 500 deep — refused.`,
        );
      continue;
    }
    if (brace === "}") {
      state = stack.pop() ?? state;
      continue;
    }
    if (word !== undefined) {
      if (SKIPPED.has(word)) state.skip = true;
      else if (word === "listtext" || word === "pntext") state.listText = true;
      else if (word === "u" && !state.skip) {
        const code = Number(parameter);
        writer.text(String.fromCharCode(code < 0 ? code + 65_536 : code), state);
        skipChars = state.unicodeSkip;
      } else if (!state.skip)
        control(writer, state, word, parameter === undefined ? undefined : Number(parameter));
      continue;
    }
    if (state.skip) continue;
    if (hex !== undefined) {
      if (skipChars > 0) skipChars -= 1;
      else writer.text(cp1252.decode(new Uint8Array([Number.parseInt(hex, 16)])), state);
    } else if (symbol !== undefined) {
      if (symbol === "*") state.skip = true;
      else if (symbol === "~") writer.text("\u00a0", state);
      else if (symbol === "\\" || symbol === "{" || symbol === "}") writer.text(symbol, state);
    } else if (text !== undefined) {
      const rest = skipChars > 0 ? text.slice(skipChars) : text;
      skipChars = Math.max(0, skipChars - text.length);
      writer.text(rest, state);
    }
  }
  writer.paragraph();
  writer.flushTable();
  return { kind: "text", markdown: writer.writer.toString(), notes: [] };
}
