import { describe, expect, it } from "vitest";
import { createLexicalIndex } from "../../../engine/lexical-index.js";
import type { ChunkReference, FileEntry } from "./corpus-state.js";
import { fileEvidence, OPENING_LINES } from "./file-evidence.js";

/** A corpus of files, each a list of chunks (text and lines), indexed as the corpus source does. */
function corpus(files: Record<string, Array<{ text: string; start: number; end: number }>>) {
  const index = createLexicalIndex();
  const chunks = new Map<number, ChunkReference>();
  const entries: FileEntry[] = [];
  let next = 0;
  for (const [path, parts] of Object.entries(files)) {
    const file: FileEntry = {
      path,
      size: 0,
      mtime_ms: 0,
      sha256: "",
      id_base: next,
      chunks: parts.map((part) => ({
        start_line: part.start,
        end_line: part.end,
        heading_trail: [],
      })),
      missing: new Set(),
      vectors: undefined,
    };
    entries.push(file);
    parts.forEach((part, position) => {
      chunks.set(next + position, { file, index: position });
      index.add([{ id: String(next + position), heading: "", text: part.text, front_matter: "" }]);
    });
    next += parts.length;
  }
  return { index, chunks, entries };
}

/** Textbook BM25 (k1 1.2, b 0.75) of one term, the length in lines. */
function bm25(
  frequency: number,
  containing: number,
  count: number,
  length: number,
  average: number,
) {
  const rarity = Math.log(1 + (count - containing + 0.5) / (containing + 0.5));
  return (rarity * frequency * 2.2) / (frequency + 1.2 * (0.25 + (0.75 * length) / average));
}

describe("fileEvidence", () => {
  it("scores each file as one text (frequencies summed over its chunks, length in lines) and its opening apart", () => {
    const { index, chunks, entries } = corpus({
      "a.md": [
        { text: "The heron hunts.", start: 1, end: 10 },
        { text: "A heron waits in the marsh.", start: OPENING_LINES + 1, end: 90 },
      ],
      "b.md": [{ text: "Otters and a river.", start: 1, end: 20 }],
      "c.md": [{ text: "The marsh meets the river.", start: 1, end: 30 }],
    });
    const evidence = fileEvidence(index, chunks, entries, "heron marsh", () => true);
    const [a, , c] = entries as [FileEntry, FileEntry, FileEntry];
    const average = (90 + 20 + 30) / 3;
    // heron: 2 in a (1 file holds it); marsh: 1 in a, 1 in c (2 files).
    expect(evidence.get(a)?.whole).toBeCloseTo(
      bm25(2, 1, 3, 90, average) + bm25(1, 2, 3, 90, average),
      10,
    );
    expect(evidence.get(c)?.whole).toBeCloseTo(bm25(1, 2, 3, 30, average), 10);
    expect(evidence.has(entries[1] as FileEntry)).toBe(false);
    // Openings: a's is its first chunk (lines 1–10), holding "heron" once; c's holds "marsh".
    const openingAverage = (10 + 20 + 30) / 3;
    expect(evidence.get(a)?.opening).toBeCloseTo(bm25(1, 1, 3, 10, openingAverage), 10);
    expect(evidence.get(c)?.opening).toBeCloseTo(bm25(1, 1, 3, 30, openingAverage), 10);
  });

  it("leaves out files the search may not return, and answers nothing to a stop-word query", () => {
    const { index, chunks, entries } = corpus({
      "docs/a.md": [{ text: "heron", start: 1, end: 1 }],
      "notes/b.md": [{ text: "heron", start: 1, end: 1 }],
    });
    const evidence = fileEvidence(index, chunks, entries, "heron", (file) =>
      file.path.startsWith("docs/"),
    );
    expect([...evidence.keys()].map((file) => file.path)).toEqual(["docs/a.md"]);
    expect(fileEvidence(index, chunks, entries, "the", () => true).size).toBe(0);
  });
});
