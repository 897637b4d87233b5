import { describe, expect, it } from "vitest";
import type { FileEntry } from "./corpus-state.js";
import { PAIR_TEXT_CHARACTERS, pairEvidence, queryPairs } from "./pair-evidence.js";

const file = (path: string): FileEntry => ({
  path,
  size: 0,
  mtime_ms: 0,
  sha256: "",
  id_base: 0,
  chunks: [],
  missing: new Set(),
  vectors: undefined,
});

describe("queryPairs", () => {
  it("pairs each query term with the next, stop words dropped and words stemmed as the index does", () => {
    const pairs = queryPairs("Open a file descriptors");
    expect([...pairs].map(([first, next]) => [first, [...next]])).toEqual([
      ["open", ["file"]],
      ["file", ["descriptor"]],
    ]);
    expect(queryPairs("heron").size).toBe(0);
    expect(queryPairs("heron heron").size).toBe(0);
  });
});

describe("pairEvidence", () => {
  const pairs = queryPairs("memory barrier");

  it("scores files that hold the words side by side in the query's order, and only those", () => {
    const together = file("together.md");
    const apart = file("apart.md");
    const reversed = file("reversed.md");
    const evidence = pairEvidence(
      pairs,
      new Map([
        // Four terms each, so every file is of average length.
        [together, ["Memory barrier orders stores."]],
        [apart, ["Memory fenced, strong barrier."]],
        [reversed, ["Barrier memory, strong fence."]],
      ]),
    );
    expect([...evidence.keys()]).toEqual([together]);
    // One pair once, in a file of average length: BM25's (k1 + 1) / (1 + k1) = 1.
    expect(evidence.get(together)).toBeCloseTo(1, 10);
  });

  it("saturates repeats as BM25 does and prefers the shorter of two files with the same count", () => {
    const once = file("once.md");
    const often = file("often.md");
    const long = file("long.md");
    const filler = Array.from({ length: 60 }, () => "unrelated words here").join(" ");
    const evidence = pairEvidence(
      pairs,
      new Map([
        [once, ["memory barrier"]],
        [often, [Array.from({ length: 10 }, () => "memory barrier").join(" ")]],
        [long, [`memory barrier ${filler}`]],
      ]),
    );
    const score = (entry: FileEntry) => evidence.get(entry) as number;
    expect(score(often)).toBeGreaterThan(score(once));
    expect(score(often)).toBeLessThan(2.2); // k1 + 1: the ceiling of one pair
    expect(score(once)).toBeGreaterThan(score(long));
  });

  it("skips files that could not be read and counts pairs in the opening only", () => {
    const unread = file("unread.md");
    const late = file("late.md");
    const early = file("early.md");
    const padding = "x".repeat(PAIR_TEXT_CHARACTERS);
    const evidence = pairEvidence(
      pairs,
      new Map<FileEntry, readonly string[] | undefined>([
        [unread, undefined],
        [late, [padding, "memory barrier"]],
        [early, ["memory barrier", padding]],
      ]),
    );
    expect([...evidence.keys()]).toEqual([early]);
  });

  it("finds nothing for a one-word query", () => {
    expect(pairEvidence(queryPairs("barrier"), new Map([[file("a.md"), ["barrier"]]])).size).toBe(
      0,
    );
  });
});
