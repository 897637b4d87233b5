import { describe, expect, it } from "vitest";
import type { VectorRecord } from "../engine/types.js";
import { createInMemoryVectorStore } from "./in-memory-vector-store.js";

function record(
  documentKey: string,
  chunkIndex: number,
  text: string,
  extra: { vector?: number[]; tags?: string[]; source?: string; heading_trail?: string[] } = {},
): VectorRecord {
  const result: VectorRecord = {
    id: `${documentKey}#${chunkIndex}`,
    text,
    metadata: {
      document_key: documentKey,
      chunk_index: chunkIndex,
      start_line: 1 + chunkIndex * 10,
      end_line: 9 + chunkIndex * 10,
      heading_trail: extra.heading_trail ?? [],
    },
  };
  if (extra.vector !== undefined) result.vector = Float32Array.from(extra.vector);
  if (extra.tags !== undefined) result.metadata.tags = extra.tags;
  if (extra.source !== undefined) result.metadata.source = extra.source;
  return result;
}

describe("createInMemoryVectorStore", () => {
  it("ranks vectors by cosine similarity, best first", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([
      record("a", 0, "east", { vector: [1, 0, 0] }),
      record("a", 1, "north-east", { vector: [1, 1, 0] }),
      record("b", 0, "up", { vector: [0, 0, 1] }),
    ]);
    const matches = await store.query({ vector: Float32Array.from([1, 0.1, 0]), limit: 2 });
    expect(matches.map((match) => match.record.id)).toEqual(["a#0", "a#1"]);
    expect(matches[0]?.score).toBeCloseTo(1 / Math.sqrt(1.01), 5);
    expect(matches[1]?.score).toBeCloseTo(1.1 / Math.sqrt(1.01) / Math.sqrt(2), 5);
    expect(store.dimensions).toBe(3);
  });

  it("ranks texts by BM25 with no vector at all, the heading trail weighted", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([
      record("power.md", 0, "The regulator caps the output at 5 V.", {
        heading_trail: ["Power", "Limits"],
      }),
      record("cooking.md", 0, "Boil the pasta for nine minutes.", { heading_trail: ["Pasta"] }),
      record(
        "notes.md",
        0,
        "A regulator appears here once among many other unrelated words about gardens.",
        {},
      ),
    ]);
    const matches = await store.query({ text: "regulator limits", limit: 10 });
    expect(matches.map((match) => match.record.id)).toEqual(["power.md#0", "notes.md#0"]);
    expect(matches[0]?.score).toBeGreaterThan(matches[1]?.score ?? Number.POSITIVE_INFINITY);
    expect(await store.query({ text: "quantum chromodynamics", limit: 10 })).toEqual([]);
  });

  it("finds CJK text by BM25", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([
      record("tokyo.md", 0, "東京都は日本の首都です。"),
      record("osaka.md", 0, "大阪は食べ物で有名です。"),
    ]);
    const matches = await store.query({ text: "首都", limit: 5 });
    expect(matches.map((match) => match.record.id)).toEqual(["tokyo.md#0"]);
  });

  it("fuses vector and text rankings by reciprocal rank when a query has both", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([
      record("a", 0, "apple orchard harvest", { vector: [0, 1] }),
      record("b", 0, "banana split", { vector: [1, 0] }),
      record("c", 0, "apple pie, apple recipe", { vector: [0.9, 0.1] }),
    ]);
    const matches = await store.query({
      vector: Float32Array.from([1, 0]),
      text: "apple",
      limit: 3,
    });
    // vector: b, c, a; text: c, a → c = 1/62 + 1/61, a = 1/63 + 1/62, b = 1/61.
    expect(matches.map((match) => match.record.id)).toEqual(["c#0", "a#0", "b#0"]);
    expect(matches[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(matches[1]?.score).toBeCloseTo(1 / 63 + 1 / 62, 12);
    expect(matches[2]?.score).toBeCloseTo(1 / 61, 12);
  });

  it("filters by every tag, by document-key prefix and by document key or source", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([
      record("docs/a.md", 0, "alpha cache", { vector: [1, 0], tags: ["x", "y"] }),
      record("docs/b.md", 0, "beta cache", { vector: [1, 0.1], tags: ["x"] }),
      record("sha256-1", 0, "gamma cache", {
        vector: [1, 0.2],
        source: "https://example.com/docs/g",
      }),
    ]);
    const ids = async (query: Parameters<typeof store.query>[0]) =>
      (await store.query(query)).map((match) => match.record.id);
    expect(await ids({ text: "cache", limit: 10, tags: ["x"] })).toEqual([
      "docs/a.md#0",
      "docs/b.md#0",
    ]);
    expect(await ids({ text: "cache", limit: 10, tags: ["x", "y"] })).toEqual(["docs/a.md#0"]);
    expect(
      await ids({ vector: Float32Array.from([1, 0]), limit: 10, document_key_prefix: "docs/b" }),
    ).toEqual(["docs/b.md#0"]);
    expect(
      await ids({
        vector: Float32Array.from([1, 0]),
        limit: 10,
        key_or_source_prefix: "https://example.com/",
      }),
    ).toEqual(["sha256-1#0"]);
    expect(await ids({ text: "cache", limit: 10, key_or_source_prefix: "docs/" })).toHaveLength(2);
    expect(await ids({ text: "cache", limit: 10, tags: ["nope"] })).toEqual([]);
  });

  it("replaces a record by id (text, vector and position) and deletes by id", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([record("a", 0, "old words", { vector: [1, 0] })]);
    await store.upsert([record("a", 0, "new words", { vector: [0, 1] })]);
    expect(store.size).toBe(1);
    expect((await store.query({ text: "old", limit: 5 })).length).toBe(0);
    expect((await store.query({ text: "new", limit: 5 }))[0]?.record.text).toBe("new words");
    expect(
      (await store.query({ vector: Float32Array.from([0, 1]), limit: 1 }))[0]?.score,
    ).toBeCloseTo(1, 6);
    await store.delete(["a#0", "missing#9"]);
    expect(store.size).toBe(0);
    expect(await store.count()).toEqual({ records: 0, documents: 0 });
    expect(store.dimensions).toBeUndefined();
  });

  it("serves ranges in chunk order and counts records and documents", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([5, 1, 3, 0, 2, 4].map((index) => record("doc", index, `part ${index}`)));
    await store.upsert([record("other", 0, "x")]);
    expect((await store.range("doc", 1, 3)).map((found) => found.metadata.chunk_index)).toEqual([
      1, 2, 3,
    ]);
    expect(
      (await store.range("doc", 4, 2_147_483_647)).map((found) => found.metadata.chunk_index),
    ).toEqual([4, 5]);
    expect(await store.range("doc", 7, 9)).toEqual([]);
    expect(await store.range("missing", 0, 9)).toEqual([]);
    expect(await store.count()).toEqual({ records: 7, documents: 2 });
  });

  it("copies records in and out, so stored data cannot be changed by accident", async () => {
    const store = createInMemoryVectorStore();
    const original = record("a", 0, "text", { vector: [1, 0], tags: ["t"] });
    await store.upsert([original]);
    original.metadata.tags?.push("sneaky");
    (original.vector as Float32Array)[0] = 0;
    const [found] = await store.range("a", 0, 0);
    expect(found?.metadata.tags).toEqual(["t"]);
    expect(Array.from(found?.vector ?? [])).toEqual([1, 0]);
    found?.metadata.heading_trail.push("changed");
    expect(store.records()[0]?.metadata.heading_trail).toEqual([]);
  });

  it("refuses vectors of another length, queries without vector or text, and bad limits", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([record("a", 0, "x", { vector: [1, 0, 0] })]);
    await expect(store.upsert([record("b", 0, "y", { vector: [1, 0] })])).rejects.toThrow(
      /3-dimension vectors/,
    );
    await expect(store.query({ vector: Float32Array.from([1, 0]), limit: 1 })).rejects.toThrow(
      /2 dimensions/,
    );
    await expect(store.query({ limit: 1 })).rejects.toThrow(/needs a vector or a non-blank text/);
    await expect(store.query({ text: "x", limit: 0 })).rejects.toThrow(/positive integer/);
    await expect(
      store.query({ vector: Float32Array.from([Number.NaN, 0, 0]), limit: 1 }),
    ).rejects.toThrow(/non-finite/);
    await expect(
      store.upsert([{ id: "", text: "x", metadata: record("a", 0, "").metadata }]),
    ).rejects.toThrow(/id/);
    // a failed batch writes nothing
    expect(store.size).toBe(1);
  });

  it("keeps records without vectors out of vector queries but in text queries", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert([
      record("a", 0, "lonely words"),
      record("b", 0, "vector words", { vector: [1, 0] }),
    ]);
    expect(
      (await store.query({ vector: Float32Array.from([1, 0]), limit: 5 })).map(
        (match) => match.record.id,
      ),
    ).toEqual(["b#0"]);
    expect((await store.query({ text: "words", limit: 5 })).length).toBe(2);
  });

  it("gives the same answer to the same query (ties ordered by id)", async () => {
    const store = createInMemoryVectorStore();
    await store.upsert(
      ["d", "b", "a", "c"].map((key) => record(key, 0, "same text", { vector: [1, 1] })),
    );
    const first = await store.query({ vector: Float32Array.from([1, 1]), limit: 4 });
    expect(first.map((match) => match.record.id)).toEqual(["a#0", "b#0", "c#0", "d#0"]);
    const second = await store.query({ vector: Float32Array.from([1, 1]), limit: 4 });
    expect(second).toEqual(first);
  });

  it("honours an aborted signal and clears everything on clear()", async () => {
    const store = createInMemoryVectorStore();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      store.upsert([record("a", 0, "x")], { signal: controller.signal }),
    ).rejects.toThrow("stop");
    await store.upsert([record("a", 0, "x", { vector: [1] })]);
    store.clear();
    expect(store.size).toBe(0);
    expect(await store.query({ text: "x", limit: 1 })).toEqual([]);
    await store.upsert([record("a", 0, "x", { vector: [1, 2] })]);
    expect(store.dimensions).toBe(2);
  });
});
