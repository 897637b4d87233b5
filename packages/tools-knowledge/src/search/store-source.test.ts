import { AgentoolError } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { KnowledgeSourceError } from "../engine/knowledge-source-error.js";
import type { KnowledgeSearchRequest, VectorStore } from "../engine/types.js";
import { HashingEmbeddings } from "../test-support/hashing-embeddings.js";
import { createInMemoryVectorStore } from "./in-memory-vector-store.js";
import { ingest } from "./ingest.js";
import { createStoreSource } from "./store-source.js";

const context = () => ({ signal: new AbortController().signal });
const request = (
  query: string,
  extra: Partial<KnowledgeSearchRequest> = {},
): KnowledgeSearchRequest => ({
  query,
  offset: 1,
  limit: 10,
  ...extra,
});

const GUIDE = Array.from(
  { length: 8 },
  (_, index) =>
    `## Step ${index}\n\n${index === 4 ? "Tighten the flange bolts to 40 Nm." : `Routine step number ${index} of the guide.`}`,
).join("\n\n");

async function filledStore() {
  const store = createInMemoryVectorStore();
  await ingest(
    [
      {
        id: "guides/pump.md",
        text: GUIDE,
        source: "https://example.com/pump",
        tags: ["maintenance"],
      },
      {
        text: "The Pro plan costs $49 a month, billed yearly.",
        source: "https://example.com/pricing",
        tags: ["pricing", "2024"],
      },
      {
        text: "Support answers within one business day.",
        source: "conversation",
        tags: ["support"],
      },
    ],
    { store },
  );
  return store;
}

/** A vector-only store (like a LangChain store) without count or range. */
function vectorOnly(inner: VectorStore): VectorStore {
  return {
    searchesText: false,
    upsert: (records, options) => inner.upsert(records, options),
    query: (query, options) => {
      const { text: _text, ...rest } = query;
      return inner.query(rest, options);
    },
    delete: (ids, options) => inner.delete(ids, options),
  };
}

describe("createStoreSource", () => {
  it("searches a store by BM25 with no embedder: hits carry the key, true lines, trail, source and tags", async () => {
    const source = createStoreSource({ store: await filledStore() });
    const result = await source.search(request("flange bolts torque"), context());
    expect(result.total).toBe(1);
    expect(result.hits[0]).toMatchObject({
      file: "guides/pump.md",
      start_line: 17,
      end_line: 19,
      heading_trail: ["Step 4"],
      excerpt: "## Step 4\n\nTighten the flange bolts to 40 Nm.",
      reference: "guides/pump.md:17-19",
      source: "https://example.com/pump",
      tags: ["maintenance"],
    });
    expect(result.searched).toEqual({ documents: 3, chunks: 10 });
    expect(result.warnings).toEqual([]);
    expect(result.empty_reason).toBeUndefined();
  });

  it("pages the ranked list by offset and limit with an exact total", async () => {
    const source = createStoreSource({ store: await filledStore() });
    const all = await source.search(request("routine step guide"), context());
    expect(all.total).toBe(8);
    const page = await source.search(
      request("routine step guide", { offset: 3, limit: 2 }),
      context(),
    );
    expect(page.total).toBe(8);
    expect(page.hits.map((hit) => hit.reference)).toEqual(
      all.hits.slice(2, 4).map((hit) => hit.reference),
    );
    const capped = createStoreSource({ store: await filledStore(), maxResults: 3 });
    expect((await capped.search(request("routine step guide"), context())).total).toBe(3);
  });

  it("filters by every tag and by a prefix of the document key or the source", async () => {
    const source = createStoreSource({ store: await filledStore() });
    const tagged = await source.search(
      request("plan month business day", { tags: ["pricing"] }),
      context(),
    );
    expect(tagged.hits.map((hit) => hit.source)).toEqual(["https://example.com/pricing"]);
    expect(tagged.hits[0]?.file).toMatch(/^sha256-[0-9a-f]{16}$/);
    const bySource = await source.search(
      request("plan month business day", { path_prefix: "https://example.com/" }),
      context(),
    );
    expect(bySource.hits.map((hit) => hit.source)).toEqual(["https://example.com/pricing"]);
    const byKey = await source.search(request("step", { path_prefix: "guides/" }), context());
    expect(byKey.total).toBe(8);
  });

  it("says why a search found nothing: empty store, no match, or everything filtered out", async () => {
    const empty = createStoreSource({ store: createInMemoryVectorStore() });
    expect((await empty.search(request("anything"), context())).empty_reason).toBe("empty_corpus");
    const source = createStoreSource({ store: await filledStore() });
    const none = await source.search(request("quantum chromodynamics"), context());
    expect([none.empty_reason, none.total, none.hits]).toEqual(["no_match", 0, []]);
    const filtered = await source.search(request("flange bolts", { tags: ["pricing"] }), context());
    expect(filtered.empty_reason).toBe("filtered_out");
    const filteredNothing = await source.search(
      request("quantum chromodynamics", { tags: ["pricing"] }),
      context(),
    );
    expect(filteredNothing.empty_reason).toBe("no_match");
  });

  it("embeds the query with an embedder and fuses it with BM25 (a synonym only the embedder knows is found)", async () => {
    const embeddings = new HashingEmbeddings({ synonyms: [["automobile", "car"]] });
    const store = createInMemoryVectorStore();
    await ingest(
      [
        { id: "cars.md", text: "# Cars\n\nThe car needs new tyres every four years." },
        { id: "boats.md", text: "# Boats\n\nThe hull is painted every spring." },
      ],
      { store, embeddings },
    );
    const source = createStoreSource({ store, embeddings });
    const result = await source.search(request("automobile"), context());
    expect(result.hits[0]?.file).toBe("cars.md");
    expect(embeddings.queries).toEqual(["automobile"]);
    const lexicalOnly = createStoreSource({ store });
    expect((await lexicalOnly.search(request("automobile"), context())).total).toBe(0);
  });

  it("answers by keywords with a warning when the embedder fails on a store that searches text", async () => {
    const embeddings = new HashingEmbeddings({
      beforeQuery: () => {
        throw new Error("503 Service Unavailable");
      },
    });
    const store = await filledStore();
    const result = await createStoreSource({ store, embeddings }).search(
      request("flange bolts"),
      context(),
    );
    expect(result.hits[0]?.file).toBe("guides/pump.md");
    expect(result.warnings).toEqual([
      "The embedder failed (503 Service Unavailable); ranked by keywords only.",
    ]);
  });

  it("throws a retryable NETWORK_ERROR when the embedder fails on a vector-only store", async () => {
    const embeddings = new HashingEmbeddings({
      beforeQuery: () => {
        throw new Error("socket hang up");
      },
    });
    const source = createStoreSource({
      store: vectorOnly(createInMemoryVectorStore()),
      embeddings,
    });
    const failure = await source.search(request("x"), context()).catch((error: unknown) => error);
    expect(KnowledgeSourceError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "NETWORK_ERROR", retryable: true });
    expect((failure as Error).message).toContain("socket hang up");
  });

  it("turns a lost database connection into a retryable NETWORK_ERROR and passes other errors on", async () => {
    const refusing: VectorStore = {
      searchesText: true,
      upsert: async () => {},
      delete: async () => {},
      query: async () => {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
          code: "ECONNREFUSED",
        });
      },
    };
    const failure = await createStoreSource({ store: refusing })
      .search(request("x"), context())
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "NETWORK_ERROR", retryable: true });
    const buggy: VectorStore = {
      ...refusing,
      query: async () => Promise.reject(new TypeError("bug")),
    };
    await expect(
      createStoreSource({ store: buggy }).search(request("x"), context()),
    ).rejects.toThrow(TypeError);
  });

  it("tells an empty vector-only store (no count) from a filtered-out one", async () => {
    const embeddings = new HashingEmbeddings();
    const inner = createInMemoryVectorStore();
    const source = createStoreSource({ store: vectorOnly(inner), embeddings });
    expect((await source.search(request("anything"), context())).empty_reason).toBe("empty_corpus");
    await ingest([{ id: "a", text: "alpha beta", tags: ["x"] }], {
      store: vectorOnly(inner),
      embeddings,
    });
    const filtered = await source.search(request("alpha", { tags: ["y"] }), context());
    expect(filtered.empty_reason).toBe("filtered_out");
    const found = await source.search(request("alpha"), context());
    expect(found.searched).toEqual({ documents: 1, chunks: 1 });
  });

  it("widens hits into stitched passages with window, one passage for overlapping windows", async () => {
    const store = await filledStore();
    const source = createStoreSource({ store, window: 1 });
    const result = await source.search(
      request("flange bolts", { path_prefix: "guides/" }),
      context(),
    );
    expect(result.hits).toHaveLength(1);
    expect(result.hits[0]).toMatchObject({
      file: "guides/pump.md",
      start_line: 13,
      end_line: 23,
      heading_trail: ["Step 4"],
    });
    expect(result.hits[0]?.excerpt).toBe(
      "## Step 3\n\nRoutine step number 3 of the guide.\n\n## Step 4\n\nTighten the flange bolts to 40 Nm.\n\n## Step 5\n\nRoutine step number 5 of the guide.",
    );
    const merged = await source.search(
      request("routine step guide", { path_prefix: "guides/" }),
      context(),
    );
    // hits 0,1,2,3,5,6,7 with window 1 cover 0..7: one passage
    expect(merged.total).toBe(1);
    expect([merged.hits[0]?.start_line, merged.hits[0]?.end_line]).toEqual([1, 31]);
    const capped = createStoreSource({ store, window: 3, maxPassageCharacters: 120 });
    const cappedHit = (await capped.search(request("flange bolts"), context())).hits[0];
    expect(cappedHit?.excerpt.length).toBeLessThanOrEqual(120);
    expect(cappedHit?.excerpt).toContain("flange bolts");
  });

  it("refuses bad options when it is created", () => {
    const store = createInMemoryVectorStore();
    expect(() => createStoreSource({ store: vectorOnly(store) })).toThrow(
      /searches by vector only/,
    );
    expect(() =>
      createStoreSource({
        store: vectorOnly(store),
        embeddings: new HashingEmbeddings(),
        window: 2,
      }),
    ).toThrow(/window expansion needs a store with range/);
    expect(() => createStoreSource({ store, window: 99 })).toThrow(AgentoolError);
    expect(() => createStoreSource({ store, maxResult: 3 } as never)).toThrow(
      /unknown field "maxResult"/,
    );
    expect(() => createStoreSource({} as never)).toThrow(/store/);
  });

  it("gives the same answer to the same search", async () => {
    const source = createStoreSource({ store: await filledStore() });
    const first = await source.search(request("step guide"), context());
    expect(await source.search(request("step guide"), context())).toEqual(first);
  });
});
