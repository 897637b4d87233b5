import MiniSearch from "minisearch";
import { describe, expect, test, vi } from "vitest";
import { chunkMarkdown } from "./chunk-markdown.js";
import { createLexicalScorer } from "./internal/lexical-scorer.js";
import {
  createLexicalIndex,
  LEXICAL_INDEX_FORMAT,
  LEXICAL_INDEX_VERSION,
  LEXICAL_MINISEARCH_OPTIONS,
  type LexicalDocument,
  type LexicalIndex,
  LexicalIndexLoadError,
  loadLexicalIndex,
  MAX_QUERY_TERMS,
  VACUUM_BATCH_TERMS,
  VACUUM_MIN_DIRT_COUNT,
} from "./lexical-index.js";
import { loadRelevanceCorpus } from "./test-support/relevance/evaluate.js";
import { RELEVANCE_QUERIES } from "./test-support/relevance/queries.js";

function document(id: string, text: string, heading = "", frontMatter = ""): LexicalDocument {
  return { id, heading, text, front_matter: frontMatter };
}

const sample: LexicalDocument[] = [
  document("docker#0", "Containers talk over a bridge network by default.", "Docker > Networking"),
  document("docker#1", "Volumes keep data when a container is removed.", "Docker > Volumes"),
  document(
    "postgres#0",
    "A B-tree index speeds up equality and range queries.",
    "PostgreSQL > Indexes",
  ),
  document("postgres#1", "VACUUM reclaims the space of dead rows.", "PostgreSQL > Maintenance"),
  document(
    "http#0",
    "Responses are cached when Cache-Control allows it.",
    "HTTP > Caching",
    "title: HTTP caching guide tags: web",
  ),
  document("cafe#0", "Le café est fermé le lundi.", "Horaires"),
  document("tokyo#0", "東京都の天気は晴れです。", "天気"),
  document("seoul#0", "서울은 오늘 맑습니다.", "날씨"),
];

function ids(results: Array<{ id: string }>): string[] {
  return results.map((result) => result.id);
}

describe("createLexicalIndex — search", () => {
  test("finds documents by their words, best first, with positive scores", () => {
    const index = createLexicalIndex();
    index.add(sample);
    expect(index.size).toBe(sample.length);
    const results = index.search("dead rows vacuum");
    expect(results[0]?.id).toBe("postgres#1");
    for (const result of results) expect(result.score).toBeGreaterThan(0);
    for (let position = 1; position < results.length; position += 1) {
      expect((results[position - 1] as { score: number }).score).toBeGreaterThanOrEqual(
        (results[position] as { score: number }).score,
      );
    }
  });

  test("a match in the heading outranks the same match in the body", () => {
    const index = createLexicalIndex();
    index.add([
      document("body", "Some notes that mention replication once among other words here.", "Notes"),
      document(
        "heading",
        "Some notes that mention nothing special among other words here.",
        "Replication",
      ),
    ]);
    expect(ids(index.search("replication"))).toEqual(["heading", "body"]);
  });

  test("front matter is searchable", () => {
    const index = createLexicalIndex();
    index.add(sample);
    expect(index.search("guide")[0]?.id).toBe("http#0");
  });

  test("stemming and prefix matching: inflections and longer forms of a word match", () => {
    const index = createLexicalIndex();
    index.add(sample);
    expect(index.search("caching")[0]?.id).toBe("http#0");
    expect(index.search("containers")[0]?.id).toMatch(/^docker#/);
    expect(index.search("querying")[0]?.id).toBe("postgres#0");
    const prefix = createLexicalIndex();
    prefix.add([document("a", "Configuration of the server."), document("b", "Unrelated text.")]);
    expect(ids(prefix.search("configur"))).toEqual(["a"]);
  });

  test("diacritics fold: cafe finds café, and CJK and Hangul queries match by bigrams", () => {
    const index = createLexicalIndex();
    index.add(sample);
    expect(index.search("cafe ferme")[0]?.id).toBe("cafe#0");
    expect(index.search("東京")[0]?.id).toBe("tokyo#0");
    expect(index.search("天気")[0]?.id).toBe("tokyo#0");
    expect(index.search("晴")[0]?.id).toBe("tokyo#0");
    expect(index.search("서울")[0]?.id).toBe("seoul#0");
    expect(index.search("大阪")).toEqual([]);
  });

  test("an empty, blank or stop-word-only query matches nothing", () => {
    const index = createLexicalIndex();
    index.add(sample);
    expect(index.search("")).toEqual([]);
    expect(index.search("   ")).toEqual([]);
    expect(index.search("the of and")).toEqual([]);
  });

  test("limit caps the results and filter applies before it", () => {
    const index = createLexicalIndex();
    index.add(sample);
    const all = index.search("docker postgresql http index network");
    expect(all.length).toBeGreaterThan(3);
    expect(index.search("docker postgresql http index network", { limit: 2 })).toEqual(
      all.slice(0, 2),
    );
    expect(index.search("docker", { limit: 0 })).toEqual([]);
    const filtered = index.search("docker postgresql http index network", {
      filter: (id) => id.startsWith("postgres"),
      limit: 1,
    });
    expect(ids(filtered)).toEqual(["postgres#0"]);
  });

  test("only a query's first 256 terms are searched", () => {
    const index = createLexicalIndex();
    index.add([document("early", "alpha"), document("late", "omega")]);
    const filler = Array.from(
      { length: MAX_QUERY_TERMS - 1 },
      (_, position) => `filler${position}x`,
    ).join(" ");
    expect(ids(index.search(`${filler} alpha omega`))).toEqual(["early"]);
  });

  test("the same index and query give the same results", () => {
    const first = createLexicalIndex();
    const second = createLexicalIndex();
    first.add(sample);
    second.add(sample);
    expect(first.search("container data index")).toEqual(second.search("container data index"));
  });
});

describe("createLexicalIndex — bulk-add fast path", () => {
  test("the index it builds is the very index MiniSearch builds on its own, before and after updates", () => {
    const ours = createLexicalIndex();
    const reference = new MiniSearch<LexicalDocument>(LEXICAL_MINISEARCH_OPTIONS);
    const batches = [
      sample,
      [document("docker#0", "replaced text about bridges"), document("extra", "more words")],
    ];
    for (const batch of batches) {
      ours.add(batch);
      for (const item of batch) {
        if (reference.has(item.id)) reference.discard(item.id);
        reference.add(item);
      }
      expect(JSON.parse(JSON.stringify(engineOf(ours)))).toEqual(
        JSON.parse(JSON.stringify(reference)),
      );
    }
    for (const query of ["container", "bridges", "東京", "words"]) {
      expect(ours.search(query)).toEqual(
        reference.search(query).map((result) => ({ id: result.id, score: result.score })),
      );
    }
  });

  test("a document without a string id refuses the whole batch before anything is added", () => {
    const index = createLexicalIndex();
    expect(() => index.add([document("fine", "text"), document("", "text")])).toThrow(TypeError);
    expect(index.size).toBe(0);
  });
});

describe("createLexicalIndex — fast scorer", () => {
  const corpus = loadRelevanceCorpus();
  const documents: LexicalDocument[] = corpus.flatMap(({ file, text }) => {
    const { chunks, front_matter } = chunkMarkdown(text);
    return chunks.map((chunk) => ({
      id: `${file}#${chunk.chunk_index}`,
      heading: chunk.heading_trail.join(" > "),
      text: chunk.text,
      front_matter,
    }));
  });
  const words = [...new Set(documents.flatMap((item) => item.text.split(/\s+/)))].filter(
    (word) => word.length > 0,
  );
  let state = 99;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = () => words[Math.floor(random() * words.length)] as string;
  const queries = [
    ...RELEVANCE_QUERIES.map((labelled) => labelled.query),
    "configur", // prefix matches only
    "cache cache cache", // repeated terms
    "東京 東京 データ",
    ...Array.from({ length: 150 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 6) }, pick).join(" "),
    ),
  ];

  test("gives MiniSearch's own results — same ids, same order, same scores — on every query", () => {
    const index = createLexicalIndex();
    index.add(documents);
    const engine = engineOf(index);
    for (const query of queries) {
      const expected = engine
        .search(query)
        .map((result) => ({ id: result.id, score: result.score }));
      expect(index.search(query), query).toEqual(expected);
      expect(index.search(query, { limit: 3 }), query).toEqual(expected.slice(0, 3));
      const filter = (id: string) => id.startsWith("d");
      expect(index.search(query, { filter }), query).toEqual(
        expected.filter((result) => filter(result.id)),
      );
    }
  });

  test("an engine without MiniSearch 7.2's internals gets no fast scorer (search falls back to MiniSearch's)", () => {
    const scoring = {
      fieldBoosts: [1],
      bm25: { k: 1.2, b: 0.7, d: 0.5 },
      prefixWeight: 0.375,
      prefix: () => false,
      tokenize: () => [],
    };
    expect(createLexicalScorer({} as MiniSearch<unknown>, scoring)).toBeUndefined();
    const engine = new MiniSearch<LexicalDocument>(LEXICAL_MINISEARCH_OPTIONS);
    expect(createLexicalScorer(engine as MiniSearch<unknown>, scoring)).toBeDefined();
  });

  test("with removed documents not yet vacuumed, scores are those of an index of the live documents", () => {
    const index = createLexicalIndex();
    index.add(documents);
    const removed = new Set(
      documents.filter((_, position) => position % 9 === 0).map((item) => item.id),
    );
    index.remove([...removed].slice(0, VACUUM_MIN_DIRT_COUNT - 1));
    expect(engineOf(index).dirtCount).toBeGreaterThan(0);
    const reference = new MiniSearch<LexicalDocument>(LEXICAL_MINISEARCH_OPTIONS);
    const gone = new Set([...removed].slice(0, VACUUM_MIN_DIRT_COUNT - 1));
    reference.addAll(documents.filter((item) => !gone.has(item.id)));
    for (const query of queries.slice(0, 80)) {
      const ours = new Map(index.search(query).map((result) => [result.id, result.score]));
      const theirs = reference.search(query);
      expect(ours.size, query).toBe(theirs.length);
      for (const result of theirs) expect(ours.get(result.id), query).toBeCloseTo(result.score, 6);
    }
  });
});

describe("createLexicalIndex — updates", () => {
  test("remove drops documents, ignores unknown ids, and has/size follow", () => {
    const index = createLexicalIndex();
    index.add(sample);
    index.remove(["docker#0", "missing", "docker#0"]);
    expect(index.has("docker#0")).toBe(false);
    expect(index.has("docker#1")).toBe(true);
    expect(index.size).toBe(sample.length - 1);
    expect(ids(index.search("bridge network"))).not.toContain("docker#0");
    index.remove([]);
    expect(index.size).toBe(sample.length - 1);
  });

  test("add with an id already present replaces the document (and so does a later duplicate in one call)", () => {
    const index = createLexicalIndex();
    index.add([document("a", "apples and pears")]);
    index.add([document("a", "bananas")]);
    expect(index.size).toBe(1);
    expect(index.search("apples")).toEqual([]);
    expect(ids(index.search("bananas"))).toEqual(["a"]);
    index.add([document("b", "cherries"), document("b", "plums")]);
    expect(index.size).toBe(2);
    expect(index.search("cherries")).toEqual([]);
    expect(ids(index.search("plums"))).toEqual(["b"]);
  });

  test("a document without a string id is refused", () => {
    const index = createLexicalIndex();
    expect(() => index.add([document("", "text")])).toThrow(TypeError);
    expect(() => index.add([{ ...document("x", "text"), id: 7 as unknown as string }])).toThrow(
      TypeError,
    );
  });

  test("many removals start a background vacuum that drops their terms; the index stays usable meanwhile", async () => {
    const index = createLexicalIndex();
    const count = VACUUM_BATCH_TERMS * 8;
    index.add(
      Array.from({ length: count }, (_, position) =>
        document(`d${position}`, `common unique${position}x`),
      ),
    );
    const termsBefore = engineOf(index).termCount;
    index.remove(Array.from({ length: count / 2 }, (_, position) => `d${position}`));
    expect(engineOf(index).isVacuuming).toBe(true);
    // Between steps: searches skip the removed, updates and snapshots work.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(index.search("common")).toHaveLength(count / 2);
    index.add([document("late", "common latecomer")]);
    index.remove([`d${count - 1}`]);
    expect(packed(index).ids).toHaveLength(count / 2);
    await vi.waitFor(() => expect(engineOf(index).isVacuuming).toBe(false), { timeout: 10_000 });
    expect(engineOf(index).dirtCount).toBe(0);
    expect(engineOf(index).termCount).toBe(termsBefore - count / 2 - 1 + 1);
    expect(index.search("common")).toHaveLength(count / 2);
    expect(index.search("latecomer")[0]?.id).toBe("late");
  });

  test("removals made while a vacuum runs are cleaned by the pass queued after it", async () => {
    const index = createLexicalIndex();
    const count = VACUUM_BATCH_TERMS * 8;
    index.add(
      Array.from({ length: count }, (_, position) => document(`d${position}`, `word${position}x`)),
    );
    index.remove(Array.from({ length: count / 4 }, (_, position) => `d${position}`));
    expect(engineOf(index).isVacuuming).toBe(true);
    index.remove(Array.from({ length: count / 4 }, (_, position) => `d${count / 4 + position}`));
    await vi.waitFor(() => expect(engineOf(index).isVacuuming).toBe(false), { timeout: 10_000 });
    expect(engineOf(index).dirtCount).toBe(0);
    expect(engineOf(index).termCount).toBe(count / 2);
  });

  test("a few removals wait for a later vacuum, never return the removed, and never reach a snapshot", () => {
    const index = createLexicalIndex();
    index.add(
      Array.from({ length: 100 }, (_, position) =>
        document(`d${position}`, `shared word${position}x`),
      ),
    );
    index.remove(["d1", "d2"]);
    expect(engineOf(index).dirtCount).toBe(2);
    expect(ids(index.search("shared"))).not.toContain("d1");
    expect(index.search("shared")).toHaveLength(98);
    const snapshot = packed(index);
    expect(snapshot.ids).toHaveLength(98);
    expect(snapshot.ids).not.toContain("d1");
    expect(snapshot.terms).not.toContain("word1x");
  });
});

/** The MiniSearch engine inside an index (white-box: vacuum state and equivalence checks). */
function engineOf(index: LexicalIndex): MiniSearch<LexicalDocument> {
  return (index as unknown as { engine: MiniSearch<LexicalDocument> }).engine;
}

interface Packed {
  format: string;
  version: number;
  tokenizer_version: number;
  ids: string[];
  average_field_lengths: number[];
  field_lengths: string;
  terms: string[];
  postings: string;
}

function packed(index: LexicalIndex): Packed {
  return JSON.parse(JSON.stringify(index.toJSON())) as Packed;
}

describe("toJSON / loadLexicalIndex", () => {
  test("a snapshot through JSON restores an index that searches and updates the same", () => {
    const index = createLexicalIndex();
    index.add(sample);
    index.remove(["seoul#0"]);
    const text = JSON.stringify(index.toJSON());
    for (const restored of [loadLexicalIndex(JSON.parse(text)), loadLexicalIndex(text)]) {
      expect(restored.size).toBe(index.size);
      expect(restored.has("seoul#0")).toBe(false);
      for (const query of ["container data", "東京", "cache", "guide"]) {
        expect(restored.search(query)).toEqual(index.search(query));
      }
      restored.add([document("new", "a brand new zebra document")]);
      restored.remove(["docker#1"]);
      expect(ids(restored.search("zebra"))).toEqual(["new"]);
      expect(restored.has("docker#1")).toBe(false);
    }
    const snapshot = JSON.parse(text) as Record<string, unknown>;
    expect(snapshot.format).toBe(LEXICAL_INDEX_FORMAT);
    expect(snapshot.version).toBe(LEXICAL_INDEX_VERSION);
  });

  test("a restored engine is the one MiniSearch builds from the live documents (vacuumed, renumbered)", () => {
    const index = createLexicalIndex();
    index.add(sample);
    index.remove(["docker#1"]);
    index.add([document("docker#0", "new text about bridges")]);
    const restored = loadLexicalIndex(JSON.parse(JSON.stringify(index.toJSON())));
    const reference = new MiniSearch<LexicalDocument>(LEXICAL_MINISEARCH_OPTIONS);
    reference.addAll([
      ...sample.filter((item) => item.id !== "docker#0" && item.id !== "docker#1"),
      document("docker#0", "new text about bridges"),
    ]);
    const normalized = (engine: MiniSearch<LexicalDocument>) => {
      const plain = JSON.parse(JSON.stringify(engine)) as Record<string, unknown>;
      const averages = plain.averageFieldLength as number[];
      delete plain.averageFieldLength;
      (plain.index as [string, unknown][]).sort(([left], [right]) => (left < right ? -1 : 1));
      return { plain, averages };
    };
    const ours = normalized(engineOf(restored));
    const theirs = normalized(reference);
    expect(ours.plain).toEqual(theirs.plain);
    ours.averages.forEach((average, field) => {
      expect(average).toBeCloseTo(theirs.averages[field] as number, 9);
    });
    for (const query of ["bridges", "container data", "東京", "guide"]) {
      expect(ids(restored.search(query))).toEqual(ids(reference.search(query)));
    }
  });

  test("an empty index, and one emptied by removals, round-trip and take new documents", () => {
    const emptied = createLexicalIndex();
    emptied.add([document("only", "lonely words")]);
    emptied.remove(["only"]);
    for (const index of [createLexicalIndex(), emptied]) {
      const restored = loadLexicalIndex(JSON.parse(JSON.stringify(index.toJSON())));
      expect(restored.size).toBe(0);
      expect(restored.search("lonely")).toEqual([]);
      restored.add([document("again", "lonely words return")]);
      expect(ids(restored.search("lonely"))).toEqual(["again"]);
      expect(Number.isFinite(restored.search("lonely")[0]?.score)).toBe(true);
    }
  });

  test("bad, old, truncated and damaged snapshots throw LexicalIndexLoadError", () => {
    const index = createLexicalIndex();
    index.add(sample);
    const good = packed(index);
    const lengthsWithout = (removed: number) => {
      // Re-pack the field lengths with `removed` fewer numbers.
      const bytes = Uint8Array.from(atob(good.field_lengths), (character) =>
        character.charCodeAt(0),
      );
      return btoa(String.fromCharCode(...bytes.subarray(0, bytes.length - removed)));
    };
    const bad: unknown[] = [
      null,
      undefined,
      42,
      [],
      {},
      "{not json",
      JSON.stringify(good).slice(0, 200),
      { ...good, format: "something-else" },
      { ...good, version: LEXICAL_INDEX_VERSION - 1 },
      { ...good, version: LEXICAL_INDEX_VERSION + 1 },
      { ...good, tokenizer_version: 0 },
      { ...good, ids: null },
      { ...good, ids: [...good.ids.slice(1), good.ids[0], good.ids[0]] },
      { ...good, ids: good.ids.slice(1) },
      { ...good, ids: [...good.ids, "one-more"] },
      { ...good, average_field_lengths: [1] },
      { ...good, average_field_lengths: [1, -2, 3] },
      { ...good, field_lengths: 17 },
      { ...good, field_lengths: lengthsWithout(1) },
      { ...good, field_lengths: `${good.field_lengths.slice(0, -4)}!!!!` },
      { ...good, terms: "terms" },
      { ...good, terms: good.terms.slice(1) },
      { ...good, terms: [...good.terms, "extra"] },
      { ...good, postings: good.postings.slice(0, -8) },
      { ...good, postings: "" },
      { ...good, postings: "////" },
    ];
    for (const value of bad) {
      let caught: unknown;
      try {
        loadLexicalIndex(value);
      } catch (error) {
        caught = error;
      }
      expect(LexicalIndexLoadError.isInstance(caught), JSON.stringify(value)?.slice(0, 120)).toBe(
        true,
      );
      expect((caught as Error).message.length).toBeGreaterThan(10);
    }
    expect(LexicalIndexLoadError.isInstance(new Error("x"))).toBe(false);
  });

  test("the snapshot is compact: packed numbers, not JSON objects of numbers", () => {
    const index = createLexicalIndex();
    const words = Array.from({ length: 400 }, (_, position) => `word${position}x`);
    index.add(
      Array.from({ length: 2000 }, (_, position) =>
        document(
          `doc-${position}`,
          Array.from({ length: 60 }, (_, offset) => words[(position * 7 + offset * 13) % 400]).join(
            " ",
          ),
        ),
      ),
    );
    const ours = JSON.stringify(index.toJSON()).length;
    const miniSearchOwn = JSON.stringify(engineOf(index)).length;
    expect(ours * 2).toBeLessThan(miniSearchOwn);
  });
});
