import { describe, expect, test, vi } from "vitest";
import { chunkMarkdown } from "../search/chunk-markdown.js";
import { createReferenceMiniSearch } from "../test-support/minisearch-reference.js";
import { loadRelevanceCorpus } from "../test-support/relevance/evaluate.js";
import { RELEVANCE_QUERIES } from "../test-support/relevance/queries.js";
import { encodeBase64 } from "./base64.js";
import type { LexicalEngine } from "./lexical-engine.js";
import {
  adoptLexicalSnapshot,
  appendLexicalIndex,
  createLexicalIndex,
  LEXICAL_INDEX_FORMAT,
  LEXICAL_INDEX_VERSION,
  type LexicalDocument,
  type LexicalIndex,
  LexicalIndexLoadError,
  type LexicalMatch,
  loadLexicalIndex,
  MAX_QUERY_TERMS,
  VACUUM_MIN_DIRT_COUNT,
} from "./lexical-index.js";
import { TOKENIZER_VERSION } from "./tokenize.js";

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

/** The engine inside an index (white-box: dirt and term counts). */
function engineOf(index: LexicalIndex): LexicalEngine {
  return (index as unknown as { engine: LexicalEngine }).engine;
}

/** What MiniSearch 7.2 answers for the same documents (the live ones, added in order). */
function referenceOf(documents: readonly LexicalDocument[]) {
  const reference = createReferenceMiniSearch();
  reference.addAll(documents);
  return (query: string): LexicalMatch[] =>
    reference.search(query).map((result) => ({ id: String(result.id), score: result.score }));
}

/** Same ids, each score equal to within rounding, and ours best first. */
function expectSameMatches(ours: LexicalMatch[], theirs: LexicalMatch[], label: string): void {
  expect(ours.map((match) => match.id).sort(), label).toEqual(
    theirs.map((match) => match.id).sort(),
  );
  const expected = new Map(theirs.map((match) => [match.id, match.score]));
  for (const match of ours) {
    const score = expected.get(match.id) as number;
    expect(Math.abs(match.score - score), `${label}: ${match.id}`).toBeLessThanOrEqual(
      1e-9 * Math.max(1, Math.abs(score)),
    );
  }
  for (let position = 1; position < ours.length; position += 1)
    expect((ours[position - 1] as LexicalMatch).score).toBeGreaterThanOrEqual(
      (ours[position] as LexicalMatch).score,
    );
}

describe("createLexicalIndex — the same scores as MiniSearch 7.2", () => {
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

  test("on every query: the same documents, the same scores, best first; limit and filter cut that list", () => {
    const index = createLexicalIndex();
    index.add(documents);
    const reference = referenceOf(documents);
    let matched = 0;
    for (const query of queries) {
      const ours = index.search(query);
      expectSameMatches(ours, reference(query), query);
      if (ours.length > 0) matched += 1;
      expect(index.search(query, { limit: 3 }), query).toEqual(ours.slice(0, 3));
      const filter = (id: string) => id.startsWith("d");
      expect(index.search(query, { filter }), query).toEqual(
        ours.filter((result) => filter(result.id)),
      );
    }
    expect(matched).toBeGreaterThan(queries.length * 0.9);
  });

  test("after replacements and removals (before and after compaction), scores are those of an index of the live documents", async () => {
    const index = createLexicalIndex();
    index.add(documents);
    const gone = new Set(
      documents
        .filter((_, position) => position % 9 === 0)
        .slice(0, VACUUM_MIN_DIRT_COUNT - 1)
        .map((item) => item.id),
    );
    index.remove([...gone]);
    const replaced = documents
      .filter((_, position) => position % 13 === 1)
      .map((item) => ({ ...item, text: `${item.text} replacement zebra` }));
    index.add(replaced);
    expect(engineOf(index).dirtCount).toBeGreaterThan(0);
    const replacedIds = new Set(replaced.map((item) => item.id));
    const live = [
      ...documents.filter((item) => !gone.has(item.id) && !replacedIds.has(item.id)),
      ...replaced,
    ];
    const reference = referenceOf(live);
    const check = () => {
      for (const query of [...queries.slice(0, 60), "zebra"]) {
        const ours = new Map(index.search(query).map((result) => [result.id, result.score]));
        const theirs = reference(query);
        expect(ours.size, query).toBe(theirs.length);
        for (const result of theirs)
          expect(ours.get(result.id), query).toBeCloseTo(result.score, 6);
      }
    };
    check();
    engineOf(index).compact();
    expect(engineOf(index).dirtCount).toBe(0);
    check();
  });

  test("appendLexicalIndex joins two indexes (sealed and fresh postings, removals on both sides) into what one index of the live documents scores", () => {
    const half = Math.floor(documents.length / 2);
    const first = documents.slice(0, half);
    const second = documents.slice(half);
    const target = createLexicalIndex();
    target.add(first.slice(0, 200));
    engineOf(target).compact(); // sealed postings
    target.add(first.slice(200)); // and fresh ones
    const goneFirst = first.filter((_, position) => position % 11 === 3).map((item) => item.id);
    target.remove(goneFirst);
    const source = createLexicalIndex();
    source.add(second);
    const goneSecond = second.filter((_, position) => position % 7 === 2).map((item) => item.id);
    source.remove(goneSecond);
    const sourceBefore = source.toBytes();
    const targetBefore = target.toBytes(); // kept: the next snapshot is incremental
    appendLexicalIndex(target, source);
    const joinedBytes = target.toBytes();
    expect(joinedBytes).not.toEqual(targetBefore);
    const scratch = engineOf(loadLexicalIndex(joinedBytes));
    (scratch as unknown as { encoded: undefined }).encoded = undefined;
    expect(scratch.toBytes([LEXICAL_INDEX_VERSION, TOKENIZER_VERSION])).toEqual(joinedBytes);
    expect(source.toBytes()).toEqual(sourceBefore);
    const gone = new Set([...goneFirst, ...goneSecond]);
    const live = documents.filter((item) => !gone.has(item.id));
    expect(target.size).toBe(live.length);
    const reference = referenceOf(live);
    const check = (index: LexicalIndex, label: string) => {
      for (const query of queries.slice(0, 80)) {
        const ours = new Map(index.search(query).map((result) => [result.id, result.score]));
        const theirs = reference(query);
        expect(ours.size, `${label}: ${query}`).toBe(theirs.length);
        for (const result of theirs)
          expect(ours.get(result.id), `${label}: ${query}`).toBeCloseTo(result.score, 6);
      }
    };
    check(target, "joined");
    check(loadLexicalIndex(target.toBytes()), "joined, saved and loaded");
    engineOf(target).compact();
    check(target, "joined, compacted");
    // Still an index like any other: documents come and go.
    target.add([document("after-join", "zebra crossing after the join")]);
    expect(ids(target.search("zebra"))).toContain("after-join");
    target.remove(["after-join"]);
    check(target, "after one more add and remove");
  });

  test("appendLexicalIndex refuses a document id both hold and changes nothing", () => {
    const target = createLexicalIndex();
    target.add([document("same", "alpha beta"), document("other", "gamma")]);
    const source = createLexicalIndex();
    source.add([document("new", "delta"), document("same", "alpha again")]);
    const before = target.toBytes();
    expect(() => appendLexicalIndex(target, source)).toThrow(/duplicate document id same/);
    expect(target.toBytes()).toEqual(before);
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

  test("many removals start a compaction after the call that drops their postings and terms; the index is right before it too", async () => {
    const index = createLexicalIndex();
    const count = 800;
    index.add(
      Array.from({ length: count }, (_, position) =>
        document(`d${position}`, `common unique${position}x`),
      ),
    );
    const termsBefore = engineOf(index).termCount;
    index.remove(Array.from({ length: count / 2 }, (_, position) => `d${position}`));
    // Not yet compacted: the removed are skipped.
    expect(engineOf(index).dirtCount).toBe(count / 2);
    expect(index.search("common")).toHaveLength(count / 2);
    expect(index.search("unique1x")).toEqual([]);
    index.add([document("late", "common latecomer")]);
    await vi.waitFor(() => expect(engineOf(index).dirtCount).toBe(0), { timeout: 5_000 });
    expect(engineOf(index).termCount).toBe(termsBefore - count / 2 + 1);
    expect(index.search("common")).toHaveLength(count / 2 + 1);
    expect(index.search("latecomer")[0]?.id).toBe("late");
    expect(ids(index.search(`unique${count - 1}x`))).toEqual([`d${count - 1}`]);
  });

  test("a few removals wait for a later compaction, never return the removed, and reach a snapshot only as dead documents", async () => {
    const index = createLexicalIndex();
    index.add(
      Array.from({ length: 100 }, (_, position) =>
        document(`d${position}`, `shared word${position}x`),
      ),
    );
    index.remove(["d1", "d2"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(engineOf(index).dirtCount).toBe(2);
    expect(ids(index.search("shared"))).not.toContain("d1");
    expect(index.search("shared")).toHaveLength(98);
    const restored = loadLexicalIndex(index.toBytes());
    expect(restored.size).toBe(98);
    expect(restored.has("d1")).toBe(false);
    expect(engineOf(restored).dirtCount).toBe(2);
    expect(engineOf(restored).termCount).toBe(1 + 100);
    expect(restored.search("word1x")).toEqual([]);
    expect(restored.search("shared")).toHaveLength(98);
    expect(ids(restored.search("word3x"))).toEqual(["d3"]);
    // The same scores as the index it came from, and a compaction drops the dead for good.
    expect(restored.search("shared word5x")).toEqual(index.search("shared word5x"));
    engineOf(restored).compact();
    expect(engineOf(restored).dirtCount).toBe(0);
    expect(engineOf(restored).termCount).toBe(1 + 98);
    expect(restored.search("shared word5x")).toEqual(index.search("shared word5x"));
    expect(loadLexicalIndex(restored.toBytes()).search("shared")).toHaveLength(98);
  });

  test("terms added after a snapshot or compaction are found exactly and as prefixes (sorted view and its tail)", () => {
    const index = createLexicalIndex();
    index.add([document("a", "configuration files")]);
    const restored = loadLexicalIndex(index.toBytes());
    const added = Array.from({ length: 3000 }, (_, position) =>
      document(`n${position}`, `configurator${position}x zebra${position}x`),
    );
    restored.add(added.slice(0, 10));
    // The tail (few new terms) is scanned, then merged into the sorted view once it grows.
    expect(ids(restored.search("configur")).sort()).toEqual(
      ["a", ...added.slice(0, 10).map((item) => item.id)].sort(),
    );
    restored.add(added.slice(10));
    expect(restored.search("configur")).toHaveLength(3001);
    expect(ids(restored.search("zebra2999x"))).toEqual(["n2999"]);
    expect(ids(restored.search("configuration"))).toEqual(["a"]);
  });
});

describe("toBytes / toJSON / loadLexicalIndex", () => {
  test("a snapshot after a small change copies the unchanged terms and equals one encoded from scratch", () => {
    // Random adds, replacements and removals; after each step the incremental snapshot (the
    // previous one kept, adopted or loaded) must be byte for byte what a fresh engine with the
    // same state encodes, and restore the same search answers.
    let state = 5;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const words = Array.from({ length: 400 }, (_, position) => `word${position}x`);
    const text = () =>
      Array.from(
        { length: 3 + Math.floor(random() * 20) },
        () => words[Math.floor(random() * words.length)],
      ).join(" ");
    let index = createLexicalIndex();
    index.add(
      Array.from({ length: 300 }, (_, position) => document(`d${position}`, text(), text())),
    );
    let bytes = index.toBytes();
    for (let step = 0; step < 40; step += 1) {
      const roll = random();
      if (roll < 0.4) index.add([document(`d${Math.floor(random() * 400)}`, text(), text())]);
      else if (roll < 0.7)
        index.remove([`d${Math.floor(random() * 400)}`, `d${Math.floor(random() * 400)}`]);
      else index.add([document(`new${step}`, `${text()} fresh${step}term`)]);
      if (step % 10 === 9) index = adoptLexicalSnapshot(index.toBytes());
      if (step % 10 === 4) index = loadLexicalIndex(index.toBytes());
      const incremental = index.toBytes();
      // From scratch: the same engine state with nothing kept.
      const scratch = engineOf(loadLexicalIndex(incremental));
      (scratch as unknown as { encoded: undefined }).encoded = undefined;
      expect(scratch.toBytes([LEXICAL_INDEX_VERSION, TOKENIZER_VERSION])).toEqual(incremental);
      const restored = loadLexicalIndex(incremental);
      for (const query of ["word1x word2x", "fresh", "word399x", `fresh${step}term`])
        expect(restored.search(query), query).toEqual(index.search(query));
      expect(incremental).not.toBe(bytes);
      bytes = incremental;
    }
    // Handed-out bytes are the caller's: changing them changes nothing inside.
    const handed = index.toBytes();
    const before = handed.slice();
    handed.fill(0, 20, 200);
    expect(index.toBytes()).toEqual(before);
  });

  test("a snapshot (bytes, JSON object, JSON text) restores an index that searches and updates the same", () => {
    const index = createLexicalIndex();
    index.add(sample);
    index.remove(["seoul#0"]);
    const text = JSON.stringify(index.toJSON());
    for (const restored of [
      loadLexicalIndex(index.toBytes()),
      loadLexicalIndex(JSON.parse(text)),
      loadLexicalIndex(text),
    ]) {
      expect(restored.size).toBe(index.size);
      expect(restored.has("seoul#0")).toBe(false);
      for (const query of ["container data", "東京", "cache", "guide", "indexes"]) {
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

  test("a restored index scores as MiniSearch does over the live documents", () => {
    const index = createLexicalIndex();
    index.add(sample);
    index.remove(["docker#1"]);
    index.add([document("docker#0", "new text about bridges")]);
    const restored = loadLexicalIndex(index.toBytes());
    const reference = referenceOf([
      ...sample.filter((item) => item.id !== "docker#0" && item.id !== "docker#1"),
      document("docker#0", "new text about bridges"),
    ]);
    for (const query of ["bridges", "container data", "東京", "guide", "caching"]) {
      const ours = new Map(restored.search(query).map((result) => [result.id, result.score]));
      const theirs = reference(query);
      expect(ours.size, query).toBe(theirs.length);
      for (const result of theirs) expect(ours.get(result.id), query).toBeCloseTo(result.score, 9);
    }
  });

  test("an empty index, and one emptied by removals, round-trip and take new documents", () => {
    const emptied = createLexicalIndex();
    emptied.add([document("only", "lonely words")]);
    emptied.remove(["only"]);
    for (const index of [createLexicalIndex(), emptied]) {
      const restored = loadLexicalIndex(index.toBytes());
      expect(restored.size).toBe(0);
      expect(restored.search("lonely")).toEqual([]);
      restored.add([document("again", "lonely words return")]);
      expect(ids(restored.search("lonely"))).toEqual(["again"]);
      expect(Number.isFinite(restored.search("lonely")[0]?.score)).toBe(true);
    }
  });

  test("bad, old, truncated and damaged snapshots throw LexicalIndexLoadError, never anything else", () => {
    const index = createLexicalIndex();
    index.add(sample);
    const bytes = index.toBytes();
    const good = index.toJSON() as Record<string, unknown>;
    const withByte = (at: number, value: number) => {
      const copy = bytes.slice();
      copy[at] = value;
      return copy;
    };
    const bad: unknown[] = [
      null,
      undefined,
      42,
      [],
      {},
      "{not json",
      JSON.stringify(good).slice(0, 40),
      { ...good, format: "something-else" },
      { ...good, version: LEXICAL_INDEX_VERSION - 1 },
      { ...good, version: LEXICAL_INDEX_VERSION + 1 },
      { ...good, tokenizer_version: 0 },
      { ...good, data: 17 },
      { ...good, data: "!!!!" },
      { ...good, data: encodeBase64(bytes.subarray(0, bytes.length - 1)) },
      new Uint8Array(0),
      withByte(0, 0x20), // magic
      withByte(9, LEXICAL_INDEX_VERSION - 1), // version in the header
      Uint8Array.from([...bytes, 0]), // trailing byte
    ];
    // Every truncation.
    for (let length = 0; length < bytes.length; length += 1) bad.push(bytes.subarray(0, length));
    for (const value of bad) {
      let caught: unknown;
      try {
        loadLexicalIndex(value);
      } catch (error) {
        caught = error;
      }
      expect(LexicalIndexLoadError.isInstance(caught), String(value).slice(0, 80)).toBe(true);
      expect((caught as Error).message.length).toBeGreaterThan(10);
    }
    // Any single flipped byte: refused with LexicalIndexLoadError, or read as some valid index.
    for (let at = 0; at < bytes.length; at += 1) {
      const flipped = withByte(at, (bytes[at] as number) ^ 0x55);
      try {
        const restored = loadLexicalIndex(flipped);
        restored.search("container data 東京");
      } catch (error) {
        expect(LexicalIndexLoadError.isInstance(error), `byte ${at}: ${String(error)}`).toBe(true);
      }
    }
    expect(LexicalIndexLoadError.isInstance(new Error("x"))).toBe(false);
  });

  test("the snapshot is compact: about two bytes per posting, a third of MiniSearch's JSON", () => {
    const index = createLexicalIndex();
    const reference = createReferenceMiniSearch();
    const words = Array.from({ length: 400 }, (_, position) => `word${position}x`);
    const documents = Array.from({ length: 2000 }, (_, position) =>
      document(
        `doc-${position}`,
        Array.from({ length: 60 }, (_, offset) => words[(position * 7 + offset * 13) % 400]).join(
          " ",
        ),
      ),
    );
    index.add(documents);
    reference.addAll(documents);
    const postings = 2000 * 60;
    const ours = index.toBytes().length;
    expect(ours).toBeLessThan(postings * 2.5);
    expect(ours * 3).toBeLessThan(JSON.stringify(reference).length);
  });
});
