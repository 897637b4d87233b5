import { realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import type { KnowledgeHit } from "../../../engine/types.js";
import { chunkMarkdown, DEFAULT_MAX_CHUNK_CHARACTERS } from "../../chunk-markdown.js";
import type { StoredChunk } from "../internal/index-file.js";
import { readRegularFile } from "../internal/read-regular-file.js";
import type { CorpusSettings } from "./corpus-settings.js";
import type { FileEntry } from "./corpus-state.js";
import { decodeText, sha256 } from "./decode-text.js";

/** Lines as the chunker and `read_file` number them: split on `\n`, a `\r` before it dropped. */
function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

function excerptOf(lines: readonly string[] | undefined, start: number, end: number): string {
  if (lines === undefined) return "";
  return lines.slice(start - 1, end).join("\n");
}

/**
 * Reads a file's lines for its excerpts: the path resolved to its real path (which must be inside
 * the root), that opened without following a link and never blocking, and its bytes used only
 * when they are exactly the bytes indexed (same size and SHA-256). A file swapped since it was
 * indexed — for a link to `.env`, a FIFO or other text — shows no excerpt until the next refresh
 * judges it again.
 *
 * @param root - the corpus root, real path
 * @param file - the file as indexed
 * @returns its lines, or `undefined` when it cannot be read or is not what was indexed
 */
export async function readLines(root: string, file: FileEntry): Promise<string[] | undefined> {
  const real = await realpath(join(root, ...file.path.split("/"))).catch(() => undefined);
  if (real === undefined || !isInside(real, root)) return undefined;
  const read = await readRegularFile(real, file.size).catch(() => undefined);
  if (read?.kind !== "read" || read.bytes.length !== file.size) return undefined;
  if (sha256(read.bytes) !== file.sha256) return undefined;
  return splitLines(decodeText(read.bytes));
}

function isInside(path: string, root: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/**
 * The text of chunk `index` when it is one piece of a line longer than the chunk cap (the
 * chunker cut that line into pieces sharing its one-line span); `undefined` for any other chunk.
 * The line alone is cut again the same way: its pieces do not depend on the lines around it.
 */
function pieceOf(
  settings: Pick<CorpusSettings, "maxChunkCharacters" | "chunkOptions">,
  lines: readonly string[] | undefined,
  file: FileEntry,
  index: number,
): string | undefined {
  const chunk = file.chunks[index] as StoredChunk;
  if (lines === undefined || chunk.start_line !== chunk.end_line) return undefined;
  const line = lines[chunk.start_line - 1];
  const cap = settings.maxChunkCharacters ?? DEFAULT_MAX_CHUNK_CHARACTERS;
  if (line === undefined || line.length <= cap) return undefined;
  let first = index;
  while (first > 0) {
    const before = file.chunks[first - 1] as StoredChunk;
    if (before.start_line !== chunk.start_line || before.end_line !== chunk.end_line) break;
    first -= 1;
  }
  return chunkMarkdown(line, settings.chunkOptions).chunks[index - first]?.text;
}

/**
 * The hit for chunk `index` of `file`: its lines with `window` neighbouring chunks on each side,
 * within `maxPassageCharacters` (the window shrinks around the hit until it fits, then the text
 * is cut); a piece of an over-long line shows that piece.
 *
 * @param settings - window, caps, chunk options
 * @param file - the file
 * @param index - the chunk
 * @param lines - the file's lines (`undefined`: it could not be read, the excerpt is empty)
 * @param score - the hit's score
 * @returns the hit
 */
export function corpusHit(
  settings: Pick<
    CorpusSettings,
    "windowSize" | "maxPassageCharacters" | "maxChunkCharacters" | "chunkOptions"
  >,
  file: FileEntry,
  index: number,
  lines: readonly string[] | undefined,
  score: number,
): KnowledgeHit {
  const { windowSize, maxPassageCharacters } = settings;
  const first = windowSize > 0 ? Math.max(0, index - windowSize) : index;
  const last = windowSize > 0 ? Math.min(file.chunks.length - 1, index + windowSize) : index;
  const chunk = file.chunks[index] as StoredChunk;
  let startLine = (file.chunks[first] as StoredChunk).start_line;
  let endLine = (file.chunks[last] as StoredChunk).end_line;
  let excerpt = excerptOf(lines, startLine, endLine);
  const piece = pieceOf(settings, lines, file, index);
  if (piece !== undefined && (windowSize === 0 || excerpt.length > maxPassageCharacters)) {
    // One piece of an over-long line: show that piece, not the line's start.
    startLine = chunk.start_line;
    endLine = chunk.end_line;
    excerpt = windowSize === 0 ? piece : piece.slice(0, maxPassageCharacters);
  } else if (windowSize > 0 && excerpt.length > maxPassageCharacters) {
    // Hard cap: shrink the window around the hit until it fits, then cut.
    startLine = chunk.start_line;
    endLine = chunk.end_line;
    for (let step = 1; step <= windowSize; step += 1) {
      const widerStart = file.chunks[index - step]?.start_line ?? startLine;
      const widerEnd = file.chunks[index + step]?.end_line ?? endLine;
      if (excerptOf(lines, widerStart, widerEnd).length > maxPassageCharacters) break;
      startLine = widerStart;
      endLine = widerEnd;
    }
    excerpt = excerptOf(lines, startLine, endLine).slice(0, maxPassageCharacters);
  }
  return {
    file: file.path,
    start_line: startLine,
    end_line: endLine,
    heading_trail: [...chunk.heading_trail],
    score,
    excerpt,
    reference: `${file.path}:${startLine}-${endLine}`,
  };
}
