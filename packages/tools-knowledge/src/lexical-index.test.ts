import MiniSearch from "minisearch";
import { describe, expect, test } from "vitest";
import {
  createLexicalIndex,
  LEXICAL_INDEX_FORMAT,
  LEXICAL_INDEX_VERSION,
  LEXICAL_MINISEARCH_OPTIONS,
  type LexicalDocument,
  LexicalIndexLoadError,
  loadLexicalIndex,
  MAX_QUERY_TERMS,
  VACUUM_MIN_DIRT_COUNT,
} from "./lexical-index.js";

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
      const snapshot = JSON.parse(JSON.stringify(ours.toJSON())) as { index: unknown };
      expect(snapshot.index).toEqual(JSON.parse(JSON.stringify(reference)));
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

  test("many removals trigger a vacuum that drops their terms from the snapshot", () => {
    const index = createLexicalIndex();
    const count = VACUUM_MIN_DIRT_COUNT * 4;
    index.add(
      Array.from({ length: count }, (_, position) =>
        document(`d${position}`, `common unique${position}x`),
      ),
    );
    const termsBefore = (loadSnapshot(index.toJSON()).index as unknown[]).length;
    index.remove(Array.from({ length: count / 2 }, (_, position) => `d${position}`));
    const snapshot = loadSnapshot(index.toJSON());
    expect(snapshot.dirtCount).toBe(0);
    expect((snapshot.index as unknown[]).length).toBe(termsBefore - count / 2);
    expect(index.search("common").length).toBe(count / 2);
  });

  test("a few removals leave the discarded postings for a later vacuum but never return them", () => {
    const index = createLexicalIndex();
    index.add(
      Array.from({ length: 100 }, (_, position) =>
        document(`d${position}`, `shared word${position}x`),
      ),
    );
    index.remove(["d1", "d2"]);
    expect(loadSnapshot(index.toJSON()).dirtCount).toBe(2);
    expect(ids(index.search("shared"))).not.toContain("d1");
    expect(index.search("shared")).toHaveLength(98);
  });
});

function loadSnapshot(snapshot: unknown): Record<string, unknown> {
  const outer = JSON.parse(JSON.stringify(snapshot)) as Record<string, unknown>;
  return outer.index as Record<string, unknown>;
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
    const good = JSON.parse(JSON.stringify(index.toJSON())) as Record<string, unknown>;
    const inner = good.index as Record<string, unknown>;
    const damaged = (change: (copy: Record<string, unknown>) => void) => {
      const copy = structuredClone(good);
      change(copy.index as Record<string, unknown>);
      return copy;
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
      { ...good, index: null },
      { ...good, index: { ...inner, serializationVersion: 1 } },
      damaged((copy) => {
        copy.documentCount = 3;
      }),
      damaged((copy) => {
        copy.fieldIds = { title: 0, text: 1 };
      }),
      damaged((copy) => {
        copy.averageFieldLength = [1];
      }),
      damaged((copy) => {
        copy.fieldLength = {};
      }),
      damaged((copy) => {
        copy.index = [["term"]];
      }),
      damaged((copy) => {
        copy.index = [["term", { 9: { 1: 1 } }]];
      }),
      damaged((copy) => {
        copy.index = "terms";
      }),
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

  test("a snapshot with a damaged frequency loads, and the damaged match is left out, never NaN", () => {
    const index = createLexicalIndex();
    index.add([document("a", "zebra"), document("b", "zebra zebra")]);
    const snapshot = JSON.parse(JSON.stringify(index.toJSON())) as {
      index: { index: [string, Record<string, Record<string, unknown>>][] };
    };
    const entry = snapshot.index.index.find(([term]) => term === "zebra");
    const postings = entry?.[1]["1"] as Record<string, unknown>;
    postings[Object.keys(postings)[0] as string] = "many";
    const results = loadLexicalIndex(snapshot).search("zebra");
    expect(results.length).toBeGreaterThanOrEqual(1);
    for (const result of results) expect(Number.isFinite(result.score)).toBe(true);
  });
});
