import { describe, expect, it } from "vitest";
import { createLexicalIndex } from "./lexical-index.js";
import { tokenize } from "./tokenize.js";

/** Textbook BM25 (k1 1.2, b 0.75) over whole texts, for comparison. */
function bm25(texts: Record<string, string>, query: string): Map<string, number> {
  const documents = Object.entries(texts).map(([name, text]) => ({
    name,
    terms: tokenize(text),
  }));
  const average =
    documents.reduce((sum, document) => sum + document.terms.length, 0) / documents.length;
  const scores = new Map<string, number>();
  for (const term of new Set(tokenize(query, { mode: "query" }))) {
    const containing = documents.filter((document) => document.terms.includes(term)).length;
    if (containing === 0) continue;
    const rarity = Math.log(1 + (documents.length - containing + 0.5) / (containing + 0.5));
    for (const document of documents) {
      const frequency = document.terms.filter((candidate) => candidate === term).length;
      if (frequency === 0) continue;
      const norm = 1.2 * (1 - 0.75 + (0.75 * document.terms.length) / average);
      scores.set(
        document.name,
        (scores.get(document.name) ?? 0) + (rarity * frequency * 2.2) / (frequency + norm),
      );
    }
  }
  return scores;
}

describe("LexicalIndex.groupScores", () => {
  it("scores groups of documents as whole texts: frequencies summed, rarity counted in groups", () => {
    const index = createLexicalIndex();
    const chunk = (id: string, text: string) => ({ id, heading: "", text, front_matter: "" });
    index.add([
      chunk("a#0", "The heron fishes in the shallow marsh."),
      chunk("a#1", "A heron waits; the marsh is quiet at dawn."),
      chunk("b#0", "Otters swim in the river and fish at night."),
      chunk("c#0", "The marsh drains into the river delta."),
    ]);
    const scores = index.groupScores("heron marsh river", (id) => id.split("#")[0]);
    // Lengths here are distinct terms per chunk (the engine's field length), so compare with
    // chunk texts whose terms do not repeat within a chunk.
    const expected = bm25(
      {
        a: "The heron fishes in the shallow marsh. A heron waits; the marsh is quiet at dawn.",
        b: "Otters swim in the river and fish at night.",
        c: "The marsh drains into the river delta.",
      },
      "heron marsh river",
    );
    expect([...scores.keys()].sort()).toEqual(["a", "b", "c"]);
    for (const [group, score] of expected) expect(scores.get(group)).toBeCloseTo(score, 10);
  });

  it("leaves out removed documents and those mapped to no group", () => {
    const index = createLexicalIndex();
    const chunk = (id: string, text: string) => ({ id, heading: "", text, front_matter: "" });
    index.add([chunk("a#0", "heron"), chunk("b#0", "heron"), chunk("c#0", "heron")]);
    index.remove(["b#0"]);
    const scores = index.groupScores("heron", (id) => (id.startsWith("c") ? undefined : id));
    expect([...scores.keys()]).toEqual(["a#0"]);
    expect(index.groupScores("the", (id) => id).size).toBe(0); // a stop word only
  });
});
