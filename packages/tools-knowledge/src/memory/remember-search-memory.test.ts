import { assertConformance } from "@agentool/contract/testing";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { describe, expect, it } from "vitest";
import type { VectorStore } from "../engine/types.js";
import { createInMemoryVectorStore } from "../search/in-memory-vector-store.js";
import { createLangChainVectorStore } from "../search/lang-chain-vector-store.js";
import { createSearchKnowledgeTool } from "../search/search-knowledge.js";
import { createStoreSource } from "../search/store-source.js";
import { HashingEmbeddings } from "../test-support/hashing-embeddings.js";
import { createRememberTool } from "./remember.js";

// remember → search_memory, tool to tool: the write half and a search_knowledge renamed for a store.

const now = () => new Date("2026-03-04T05:06:07.000Z");
const PRICING = "The Pro plan costs $49 a month, billed yearly; the Team plan $199.";

function pair(store: VectorStore, embeddings?: HashingEmbeddings, window?: number) {
  const remember = createRememberTool({
    store,
    ...(embeddings === undefined ? {} : { embeddings }),
    searchToolName: "search_memory",
    mountedTools: ["search_memory", "search_knowledge"],
    now,
  });
  const searchMemory = createSearchKnowledgeTool({
    source: createStoreSource({
      store,
      ...(embeddings === undefined ? {} : { embeddings }),
      ...(window === undefined ? {} : { window }),
    }),
    sourceKind: "store",
    name: "search_memory",
    mountedTools: ["remember", "search_knowledge"],
  });
  return { remember, searchMemory };
}

describe("remember → search_memory", () => {
  it("passes the conformance kit together, pages included", async () => {
    const { remember, searchMemory } = pair(createInMemoryVectorStore());
    for (const plan of ["Basic", "Pro", "Team"]) {
      await remember.run({ text: `The ${plan} plan is sold per seat.`, tags: ["pricing"] });
    }
    await assertConformance([remember, searchMemory], {
      samples: {
        remember: { text: PRICING, source: "https://example.com/pricing", tags: ["pricing"] },
        search_memory: { query: "pro plan price" },
      },
      cutSamples: { search_memory: { query: "plan seat", tags: ["pricing"], limit: 1 } },
      alsoMounted: ["search_knowledge"],
    });
  });

  it("reads back what remember saved, with its source and tags, and both name each other", async () => {
    const { remember, searchMemory } = pair(createInMemoryVectorStore());
    expect(remember.description).toContain("search_memory");
    expect(searchMemory.description).toContain("remember");
    const saved = await remember.run({
      text: PRICING,
      source: "https://example.com/pricing",
      tags: ["pricing", "2024"],
    });
    expect(remember.renderResult(saved)).toContain(
      'Find it again with search_memory (tags=["pricing"] to filter).',
    );
    // remember's own tags, as it took them (a list), filter the search.
    const found = await searchMemory.run({
      query: "team plan price",
      tags: saved.success ? saved.data.tags : [],
    });
    expect(found.success).toBe(true);
    if (!found.success || !saved.success) return;
    expect(found.data.total).toBe(1);
    expect(found.data.hits[0]).toMatchObject({
      file: saved.data.document_key,
      reference: `${saved.data.document_key}:1-1`,
      source: "https://example.com/pricing",
      tags: ["pricing", "2024"],
      excerpt: PRICING,
    });
    expect(searchMemory.renderResult(found)).toContain(
      "source https://example.com/pricing; tags pricing, 2024",
    );
    const filtered = await searchMemory.run({ query: "team plan price", tags: "support" });
    expect(filtered.success && filtered.data.empty_reason).toBe("filtered_out");
    const empty = await pair(createInMemoryVectorStore()).searchMemory.run({ query: "anything" });
    expect(empty.success && empty.data.empty_reason).toBe("empty_corpus");
    expect(
      empty.success && pair(createInMemoryVectorStore()).searchMemory.renderResult(empty),
    ).toContain("remember");
  });

  it("recalls by meaning with an embedder, over LangChain's MemoryVectorStore", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 1024, synonyms: [["price", "costs"]] });
    const langChainStore = new MemoryVectorStore(embeddings);
    const store = createLangChainVectorStore(langChainStore, {
      delete: async (ids) => {
        langChainStore.memoryVectors = langChainStore.memoryVectors.filter(
          (vector) => !ids.includes(vector.id ?? ""),
        );
      },
    });
    const { remember, searchMemory } = pair(store, embeddings);
    await remember.run({ text: PRICING, tags: ["pricing"] });
    await remember.run({ text: "Support answers within one business day.", tags: ["support"] });
    const found = await searchMemory.run({ query: "price" });
    expect(found.success && found.data.hits[0]?.excerpt).toBe(PRICING);
    const tagged = await searchMemory.run({ query: "price", tags: "support" });
    expect(tagged.success && tagged.data.hits.map((hit) => hit.tags)).toEqual([["support"]]);
  });

  it("returns stitched passages with window expansion", async () => {
    const { remember, searchMemory } = pair(createInMemoryVectorStore(), undefined, 1);
    const guide = [
      "# Pump",
      "",
      "Intro.",
      "",
      "## Limits",
      "",
      "At most 5 V.",
      "",
      "## Torque",
      "",
      "Tighten the flange bolts to 40 Nm.",
      "",
      "## Seals",
      "",
      "Replace yearly.",
    ].join("\n");
    await remember.run({ text: guide });
    const found = await searchMemory.run({ query: "flange bolts" });
    expect(found.success && found.data.hits.map((hit) => [hit.start_line, hit.end_line])).toEqual([
      [5, 15],
    ]);
  });
  it("reports the source's failures in the contract's terms (a lost connection is a retryable NETWORK_ERROR)", async () => {
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
    const { searchMemory } = pair(refusing);
    const result = await searchMemory.run({ query: "anything" });
    expect(result).toMatchObject({
      success: false,
      error: { code: "NETWORK_ERROR", retryable: true },
    });
    expect(!result.success && result.error.hint).toContain("Try the same call again");
  });
});
