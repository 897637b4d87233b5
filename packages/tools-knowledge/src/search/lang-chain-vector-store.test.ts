import { AgentoolError } from "@agentool/contract";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import type { Document } from "@langchain/core/documents";
import { describe, expect, it } from "vitest";
import type { VectorRecord } from "../engine/types.js";
import { createRememberTool } from "../memory/remember.js";
import { HashingEmbeddings } from "../test-support/hashing-embeddings.js";
import { ingest } from "./ingest.js";
import {
  createLangChainVectorStore,
  type LangChainFilterRequest,
} from "./lang-chain-vector-store.js";
import { createStoreSource } from "./store-source.js";

/** MemoryVectorStore's own filter: a function of the document. */
function memoryFilter(request: LangChainFilterRequest) {
  return (document: Document) => {
    const metadata = document.metadata as {
      tags?: string[];
      document_key?: string;
      source?: string;
    };
    if (request.tags !== undefined && !request.tags.every((tag) => metadata.tags?.includes(tag)))
      return false;
    if (
      request.documentKeyPrefix !== undefined &&
      !metadata.document_key?.startsWith(request.documentKeyPrefix)
    )
      return false;
    if (
      request.keyOrSourcePrefix !== undefined &&
      !metadata.document_key?.startsWith(request.keyOrSourcePrefix) &&
      !(metadata.source ?? "").startsWith(request.keyOrSourcePrefix)
    ) {
      return false;
    }
    return true;
  };
}

/** MemoryVectorStore cannot delete (LangChain's base delete throws "Not implemented."): give it one. */
function memoryDelete(store: MemoryVectorStore) {
  return async (ids: string[]) => {
    const doomed = new Set(ids);
    store.memoryVectors = store.memoryVectors.filter((vector) => !doomed.has(vector.id ?? ""));
  };
}

const DOCUMENTS = [
  {
    id: "docs/pump.md",
    text: "# Pump\n\nTighten the flange bolts to 40 Nm.\n\n## Seals\n\nReplace the seals yearly.",
    tags: ["maintenance"],
  },
  {
    id: "docs/pricing.md",
    text: "# Pricing\n\nThe Pro plan costs 49 dollars.",
    tags: ["sales"],
    source: "https://example.com/pricing",
  },
];

describe("createLangChainVectorStore over LangChain's MemoryVectorStore", () => {
  it("ingests into the real store with flat metadata and ids, and queries it back as records", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 1024 });
    const langChainStore = new MemoryVectorStore(embeddings);
    const store = createLangChainVectorStore(langChainStore, {
      delete: memoryDelete(langChainStore),
    });
    expect(store.searchesText).toBe(false);
    await ingest(DOCUMENTS, { store, embeddings, now: () => new Date("2026-01-01T00:00:00.000Z") });
    expect(langChainStore.memoryVectors).toHaveLength(3);
    const stored = langChainStore.memoryVectors.find((vector) => vector.id === "docs/pump.md#1");
    expect(stored?.metadata).toEqual({
      record_id: "docs/pump.md#1",
      document_key: "docs/pump.md",
      chunk_index: 1,
      start_line: 5,
      end_line: 7,
      heading_trail: ["Pump", "Seals"],
      tags: ["maintenance"],
      created_at: "2026-01-01T00:00:00.000Z",
    });
    const vector = Float32Array.from(await embeddings.embedQuery("replace the seals"));
    const [best] = await store.query({ vector, limit: 1 });
    expect(best?.record).toEqual({
      id: "docs/pump.md#1",
      text: "## Seals\n\nReplace the seals yearly.",
      metadata: {
        document_key: "docs/pump.md",
        chunk_index: 1,
        start_line: 5,
        end_line: 7,
        heading_trail: ["Pump", "Seals"],
        tags: ["maintenance"],
        created_at: "2026-01-01T00:00:00.000Z",
      },
    });
    expect(best?.score).toBeGreaterThan(0.5);
  });

  it("replaces a record by id with the delete option, and deletes", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 1024 });
    const langChainStore = new MemoryVectorStore(embeddings);
    const store = createLangChainVectorStore(langChainStore, {
      delete: memoryDelete(langChainStore),
    });
    await ingest(DOCUMENTS, { store, embeddings });
    await ingest(
      [
        {
          ...DOCUMENTS[1],
          text: "# Pricing\n\nThe Pro plan costs 59 dollars.",
        } as (typeof DOCUMENTS)[number],
      ],
      { store, embeddings },
    );
    expect(langChainStore.memoryVectors).toHaveLength(3);
    expect(
      langChainStore.memoryVectors
        .filter((vector) => vector.id === "docs/pricing.md#0")
        .map((vector) => vector.content),
    ).toEqual(["# Pricing\n\nThe Pro plan costs 59 dollars."]);
    await store.delete(["docs/pump.md#0", "docs/pump.md#1", "missing#0"]);
    expect(langChainStore.memoryVectors.map((vector) => vector.id)).toEqual(["docs/pricing.md#0"]);
  });

  it("without a delete, keeps one copy per id in results (the store's 'Not implemented.' is handled)", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 1024 });
    const langChainStore = new MemoryVectorStore(embeddings);
    const store = createLangChainVectorStore(langChainStore);
    await ingest(DOCUMENTS, { store, embeddings });
    await ingest(DOCUMENTS, { store, embeddings });
    expect(langChainStore.memoryVectors).toHaveLength(6);
    const vector = Float32Array.from(await embeddings.embedQuery("flange bolts"));
    const matches = await store.query({ vector, limit: 3 });
    expect(matches.map((match) => match.record.id).sort()).toEqual([
      "docs/pricing.md#0",
      "docs/pump.md#0",
      "docs/pump.md#1",
    ]);
    await expect(store.delete(["docs/pump.md#0"])).rejects.toThrow(/cannot delete/);
  });

  it("filters by tags and prefixes through the store's own filter, and checks every result here too", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 1024 });
    const langChainStore = new MemoryVectorStore(embeddings);
    const filters: LangChainFilterRequest[] = [];
    const store = createLangChainVectorStore(langChainStore, {
      delete: memoryDelete(langChainStore),
      filter: (request) => {
        filters.push(request);
        return memoryFilter(request);
      },
    });
    await ingest(DOCUMENTS, { store, embeddings });
    const vector = Float32Array.from(await embeddings.embedQuery("flange bolts"));
    const sales = await store.query({ vector, limit: 5, tags: ["sales"] });
    expect(sales.map((match) => match.record.id)).toEqual(["docs/pricing.md#0"]);
    const bySource = await store.query({
      vector,
      limit: 5,
      key_or_source_prefix: "https://example.com/",
    });
    expect(bySource.map((match) => match.record.id)).toEqual(["docs/pricing.md#0"]);
    expect(filters).toEqual([{ tags: ["sales"] }, { keyOrSourcePrefix: "https://example.com/" }]);
    // a builder that filters nothing: results are still checked here, over-fetching as needed
    const loose = createLangChainVectorStore(langChainStore, { filter: () => undefined });
    const byKey = await loose.query({ vector, limit: 1, document_key_prefix: "docs/pricing" });
    expect(byKey.map((match) => match.record.id)).toEqual(["docs/pricing.md#0"]);
  });

  it("over-fetches when the store cannot filter, up to maxFetch", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 64 });
    const langChainStore = new MemoryVectorStore(embeddings);
    const asked: number[] = [];
    const spy = {
      addVectors: langChainStore.addVectors.bind(langChainStore),
      similaritySearchVectorWithScore: async (query: number[], k: number) => {
        asked.push(k);
        return langChainStore.similaritySearchVectorWithScore(query, k);
      },
    };
    const store = createLangChainVectorStore(spy, { maxFetch: 64 });
    const many = Array.from({ length: 40 }, (_, index) => ({
      id: `n${index}`,
      text: `note ${index} about pumps`,
      tags: index === 39 ? ["rare"] : [],
    }));
    await ingest(many, { store, embeddings });
    const vector = Float32Array.from(await embeddings.embedQuery("pumps"));
    const matches = await store.query({ vector, limit: 1, tags: ["rare"] });
    expect(matches.map((match) => match.record.id)).toEqual(["n39#0"]);
    expect(asked).toEqual([1, 2, 4, 8, 16, 32, 64].slice(0, asked.length));
    expect(asked[asked.length - 1]).toBeLessThanOrEqual(64);
  });

  it("re-sorts results best first and turns distances into similarities", async () => {
    const record = (
      id: string,
      score: number,
    ): [{ pageContent: string; metadata: Record<string, unknown>; id: string }, number] => [
      {
        pageContent: id,
        metadata: {
          document_key: id,
          chunk_index: "0",
          start_line: "3",
          end_line: "4",
          heading_trail: '["A"]',
          tags: '["t"]',
        },
        id: `${id}#0`,
      },
      score,
    ];
    const fake = {
      addVectors: async () => {},
      similaritySearchVectorWithScore: async () => [
        record("b", 0.2),
        record("a", 0.9),
        record("c", 0.5),
      ],
    };
    const similarity = await createLangChainVectorStore(fake).query({
      vector: Float32Array.from([1]),
      limit: 3,
    });
    expect(similarity.map((match) => [match.record.id, match.score])).toEqual([
      ["a#0", 0.9],
      ["c#0", 0.5],
      ["b#0", 0.2],
    ]);
    // integers and lists a store serialised as strings come back typed
    expect(similarity[0]?.record.metadata).toEqual({
      document_key: "a",
      chunk_index: 0,
      start_line: 3,
      end_line: 4,
      heading_trail: ["A"],
      tags: ["t"],
    });
    const distance = await createLangChainVectorStore(fake, { scores: "distance" }).query({
      vector: Float32Array.from([1]),
      limit: 3,
    });
    expect(distance.map((match) => match.record.id)).toEqual(["b#0", "c#0", "a#0"]);
    expect(distance[0]?.score).toBeCloseTo(0.8, 10);
  });

  it("needs vectors: refuses a record without one and a query without one", async () => {
    const store = createLangChainVectorStore(new MemoryVectorStore(new HashingEmbeddings()));
    const record: VectorRecord = {
      id: "a#0",
      text: "x",
      metadata: {
        document_key: "a",
        chunk_index: 0,
        start_line: 1,
        end_line: 1,
        heading_trail: [],
      },
    };
    await expect(store.upsert([record])).rejects.toThrow(/has no vector/);
    await expect(store.query({ text: "x", limit: 1 })).rejects.toThrow(/searches by vector only/);
    await expect(ingest([{ text: "x" }], { store })).rejects.toThrow(AgentoolError);
    expect(() => createLangChainVectorStore({} as never)).toThrow(
      /expected a LangChain VectorStore/,
    );
    expect(() =>
      createLangChainVectorStore(new MemoryVectorStore(new HashingEmbeddings()), {
        score: "distance",
      } as never),
    ).toThrow(/unknown field "score"/);
  });

  it("backs remember and a store source with an embedder", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 1024 });
    const langChainStore = new MemoryVectorStore(embeddings);
    const store = createLangChainVectorStore(langChainStore, {
      delete: memoryDelete(langChainStore),
      filter: memoryFilter,
    });
    const remember = createRememberTool({ store, embeddings, searchToolName: "search_memory" });
    const saved = await remember.run({
      text: "Tighten the flange bolts to 40 Nm.",
      tags: ["pump"],
    });
    expect(saved.success && saved.data.stored_chunks).toBe(1);
    expect(saved.success && "already_saved" in saved.data).toBe(false);
    await remember.run({ text: "The Pro plan costs 49 dollars.", tags: ["pricing"] });
    const source = createStoreSource({ store, embeddings });
    const context = { signal: new AbortController().signal };
    const found = await source.search(
      { query: "flange bolts", offset: 1, limit: 5, tags: ["pump"] },
      context,
    );
    expect(found.hits.map((hit) => hit.excerpt)).toEqual(["Tighten the flange bolts to 40 Nm."]);
    const empty = await source.search(
      { query: "flange bolts", offset: 1, limit: 5, tags: ["nothing"] },
      context,
    );
    expect(empty.empty_reason).toBe("filtered_out");
  });
});
