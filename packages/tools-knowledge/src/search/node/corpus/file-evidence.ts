import type { LexicalIndex } from "../../../engine/lexical-index.js";
import type { ChunkReference, FileEntry } from "./corpus-state.js";

/** BM25's parameters over whole files (textbook values). */
const K1 = 1.2;
const B = 0.75;

/** Lines counted as a file's opening (the chunks that start within them). */
export const OPENING_LINES = 40;

/** What {@link fileEvidence} finds for one file: BM25 of the whole file and of its opening. */
export interface FileBm25 {
  whole: number;
  opening: number;
}

/** A file's length in lines (its last chunk's last line). */
function linesOf(file: FileEntry): number {
  return file.chunks[file.chunks.length - 1]?.end_line ?? 0;
}

/** Its opening's length in lines: up to the end of the last chunk that starts within it. */
function openingLinesOf(file: FileEntry): number {
  let end = 0;
  for (const chunk of file.chunks) {
    if (chunk.start_line > OPENING_LINES) break;
    end = chunk.end_line;
  }
  return end;
}

/**
 * BM25 (k1 1.2, b 0.75) of each matching file as one text, and of its opening (the chunks that
 * start within its first {@link OPENING_LINES} lines) as another, computed in one pass over the
 * chunk index's postings of the query's terms: a file's frequency of a term is the sum over its
 * chunks, its length its lines, a term's rarity counted in files. No second index to build,
 * store or refresh; the cost is that of reading the postings once more (exact terms only, no
 * prefix matches).
 *
 * @param lexical - the chunk index
 * @param chunks - chunk id → its file and index
 * @param files - every indexed file (for the file count and the average lengths)
 * @param query - the query text
 * @param allowed - files the search may return
 * @returns each matching file's evidence
 */
export function fileEvidence(
  lexical: LexicalIndex,
  chunks: ReadonlyMap<number, ChunkReference>,
  files: Iterable<FileEntry>,
  query: string,
  allowed: (file: FileEntry) => boolean,
): Map<FileEntry, FileBm25> {
  const evidence = new Map<FileEntry, FileBm25>();
  const terms = lexical.queryTerms(query);
  if (terms.length === 0) return evidence;
  let count = 0;
  let totalLines = 0;
  let totalOpening = 0;
  for (const file of files) {
    count += 1;
    totalLines += linesOf(file);
    totalOpening += openingLinesOf(file);
  }
  if (count === 0) return evidence;
  const averageLines = totalLines / count || 1;
  const averageOpening = totalOpening / count || 1;
  const bm25 = (frequency: number, containing: number, length: number, average: number) =>
    (Math.log(1 + (count - containing + 0.5) / (containing + 0.5)) * frequency * (K1 + 1)) /
    (frequency + K1 * (1 - B + (B * length) / average));
  for (const term of terms) {
    const whole = new Map<FileEntry, number>();
    const opening = new Map<FileEntry, number>();
    lexical.forEachPosting(term, (id, frequency) => {
      const reference = chunks.get(Number(id));
      if (reference === undefined || !allowed(reference.file)) return;
      const file = reference.file;
      whole.set(file, (whole.get(file) ?? 0) + frequency);
      if ((file.chunks[reference.index]?.start_line ?? Infinity) <= OPENING_LINES)
        opening.set(file, (opening.get(file) ?? 0) + frequency);
    });
    for (const [file, frequency] of whole) {
      let entry = evidence.get(file);
      if (entry === undefined) {
        entry = { whole: 0, opening: 0 };
        evidence.set(file, entry);
      }
      entry.whole += bm25(frequency, whole.size, linesOf(file), averageLines);
      const inOpening = opening.get(file);
      if (inOpening !== undefined)
        entry.opening += bm25(inOpening, opening.size, openingLinesOf(file), averageOpening);
    }
  }
  return evidence;
}
