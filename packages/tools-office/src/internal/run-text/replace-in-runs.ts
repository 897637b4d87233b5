import {
  encodeXmlText,
  type RunDialect,
  type ScannedParagraph,
  scanParagraphs,
  type TextPiece,
  WORD_DIALECT,
} from "./scan-paragraphs.js";

/**
 * Finding text in a part's paragraphs and replacing it across run boundaries: the new text goes
 * into the run where the match starts (so it takes that run's formatting), the rest of the match
 * is cut out of the runs it covers, a run left with no text is removed, and every run the match
 * does not touch keeps its bytes.
 *
 * @internal
 */

/** One part of a document, scanned. */
export interface ScannedPart {
  /** The zip entry (`word/document.xml`). */
  name: string;
  /** How a model is told where a paragraph is (`body`, `header 1`, `slide 3`). */
  label: string;
  /** The part's XML as read. */
  xml: string;
  /** Its vocabulary. */
  dialect: RunDialect;
  /** Its paragraphs. */
  paragraphs: ScannedParagraph[];
}

/** Where `old_text` occurs. */
export interface Occurrence {
  /** The part. */
  part: ScannedPart;
  /** Index of the paragraph in the part (0-based). */
  paragraph: number;
  /** Start in the paragraph's text. */
  start: number;
  /** End in the paragraph's text. */
  end: number;
}

/**
 * Scans one part.
 *
 * @param name - the entry name
 * @param label - the label for messages
 * @param xml - its text
 * @param dialect - its vocabulary
 * @returns the scanned part
 */
export function scanPart(
  name: string,
  label: string,
  xml: string,
  dialect: RunDialect,
): ScannedPart {
  return { name, label, xml, dialect, paragraphs: scanParagraphs(xml, dialect) };
}

/**
 * Every non-overlapping occurrence of `text` in the parts' paragraphs, in document order.
 *
 * @param parts - the scanned parts
 * @param text - the text to find (never spans two paragraphs)
 * @returns the occurrences
 */
export function findOccurrences(parts: readonly ScannedPart[], text: string): Occurrence[] {
  const found: Occurrence[] = [];
  if (text.length === 0) return found;
  for (const part of parts) {
    part.paragraphs.forEach((paragraph, index) => {
      let from = 0;
      for (;;) {
        const at = paragraph.text.indexOf(text, from);
        if (at === -1) break;
        found.push({ part, paragraph: index, start: at, end: at + text.length });
        from = at + text.length;
      }
    });
  }
  return found;
}

interface Cut {
  from: number;
  to: number;
  insert: string;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/** The pieces an occurrence covers, with the home piece (where the new text goes). */
function cutsOf(paragraph: ScannedParagraph, occurrence: Occurrence, newText: string) {
  const cuts = new Map<TextPiece, Cut>();
  let offset = 0;
  let home: TextPiece | undefined;
  for (const piece of paragraph.pieces) {
    const pieceStart = offset;
    offset += piece.text.length;
    const from = Math.max(occurrence.start, pieceStart) - pieceStart;
    const to = Math.min(occurrence.end, offset) - pieceStart;
    if (from >= to) continue;
    const isHome = home === undefined && piece.kind === "text";
    if (isHome) home = piece;
    cuts.set(piece, { from, to, insert: isHome ? newText : "" });
  }
  return { cuts, home };
}

function pieceContent(piece: TextPiece, cuts: readonly Cut[]): string {
  let text = "";
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a.from - b.from)) {
    text += piece.text.slice(at, cut.from) + cut.insert;
    at = cut.to;
  }
  return text + piece.text.slice(at);
}

function atomReplacement(piece: TextPiece, cuts: readonly Cut[], xml: string): string {
  const covered = cuts.reduce((sum, cut) => sum + (cut.to - cut.from), 0);
  const left = piece.text.length - covered;
  if (left <= 0) return "";
  const tag = xml.slice(piece.start, piece.end);
  return tag.startsWith("<text:s") ? `<text:s text:c="${left}"/>` : tag;
}

/** Whether a run holds nothing once its gone pieces and its properties are taken out. */
function runIsEmpty(
  xml: string,
  run: { start: number; end: number },
  gone: readonly TextPiece[],
): boolean {
  let inner = xml.slice(run.start, run.end);
  const ranges = gone
    .map((piece) => piece.element ?? { start: piece.start, end: piece.end })
    .sort((a, b) => b.start - a.start);
  for (const range of ranges) {
    inner = inner.slice(0, range.start - run.start) + inner.slice(range.end - run.start);
  }
  const body = inner
    .replace(/^<[^>]*>/, "")
    .replace(/<\/[^>]*>$/, "")
    .replace(/<(w|a):rPr\b[^>]*\/>|<(w|a):rPr\b[\s\S]*?<\/(w|a):rPr>/, "");
  return body.trim().length === 0;
}

function preserveSpace(openTag: string): string {
  if (/\sxml:space=/.test(openTag)) return openTag;
  return openTag.replace(/^<([^\s/>]+)/, '<$1 xml:space="preserve"');
}

/**
 * Applies occurrences of one part: the new text into each occurrence's first text piece, the
 * rest of each occurrence cut out, emptied runs removed. Untouched bytes stay as they were.
 *
 * @param part - the scanned part
 * @param occurrences - occurrences in this part (non-overlapping)
 * @param newText - the replacement
 * @returns the part's new XML, or the label of an occurrence that holds no editable text
 */
export function replaceInPart(
  part: ScannedPart,
  occurrences: readonly Occurrence[],
  newText: string,
): { xml: string } | { noText: Occurrence } {
  const cutsByPiece = new Map<TextPiece, Cut[]>();
  for (const occurrence of occurrences) {
    const paragraph = part.paragraphs[occurrence.paragraph] as ScannedParagraph;
    const { cuts, home } = cutsOf(paragraph, occurrence, newText);
    if (home === undefined && newText.length > 0) return { noText: occurrence };
    for (const [piece, cut] of cuts) {
      const list = cutsByPiece.get(piece) ?? [];
      list.push(cut);
      cutsByPiece.set(piece, list);
    }
  }
  const splices: Splice[] = [];
  const gone = new Map<string, { run: { start: number; end: number }; pieces: TextPiece[] }>();
  const contents = new Map<TextPiece, string>();
  for (const [piece, cuts] of cutsByPiece) {
    const content =
      piece.kind === "text" ? pieceContent(piece, cuts) : atomReplacement(piece, cuts, part.xml);
    contents.set(piece, content);
    if (content === "" && piece.run !== undefined) {
      const key = `${piece.run.start}`;
      const entry = gone.get(key) ?? { run: piece.run, pieces: [] };
      entry.pieces.push(piece);
      gone.set(key, entry);
    }
  }
  const removedRuns: Array<{ start: number; end: number }> = [];
  for (const { run, pieces } of gone.values()) {
    if (runIsEmpty(part.xml, run, pieces)) {
      removedRuns.push(run);
      splices.push({ start: run.start, end: run.end, text: "" });
    }
  }
  const inRemovedRun = (position: number) =>
    removedRuns.some((run) => position >= run.start && position < run.end);
  for (const [piece, content] of contents) {
    if (inRemovedRun(piece.start)) continue;
    if (piece.kind === "atom") {
      splices.push({ start: piece.start, end: piece.end, text: content });
      continue;
    }
    splices.push({ start: piece.start, end: piece.end, text: encodeXmlText(content) });
    if (part.dialect === WORD_DIALECT && piece.openTag !== undefined && /^\s|\s$/.test(content)) {
      const tag = part.xml.slice(piece.openTag.start, piece.openTag.end);
      const fixed = preserveSpace(tag);
      if (fixed !== tag)
        splices.push({ start: piece.openTag.start, end: piece.openTag.end, text: fixed });
    }
  }
  splices.sort((a, b) => b.start - a.start || b.end - a.end);
  let xml = part.xml;
  for (const splice of splices)
    xml = xml.slice(0, splice.start) + splice.text + xml.slice(splice.end);
  return { xml };
}
