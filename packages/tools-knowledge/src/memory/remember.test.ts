import { AgentoolError, toJsonSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import type { VectorStore } from "../engine/types.js";
import { createInMemoryVectorStore } from "../search/in-memory-vector-store.js";
import { createStoreSource } from "../search/store-source.js";
import { HashingEmbeddings } from "../test-support/hashing-embeddings.js";
import { createRememberTool, formatRememberResult } from "./remember.js";

const NOW = new Date("2026-03-04T05:06:07.000Z");
const now = () => NOW;
const PRICING = "The Pro plan costs $49 a month, billed yearly; the Team plan $199.";

function pair(options: { embeddings?: HashingEmbeddings; store?: VectorStore } = {}) {
  const store = options.store ?? createInMemoryVectorStore();
  const embeddings = options.embeddings;
  const remember = createRememberTool({
    store,
    ...(embeddings === undefined ? {} : { embeddings }),
    searchToolName: "search_memory",
    mountedTools: ["search_memory", "search_knowledge"],
    now,
  });
  const source = createStoreSource({ store, ...(embeddings === undefined ? {} : { embeddings }) });
  const search = (query: string, tags?: string[]) =>
    source.search(
      { query, offset: 1, limit: 10, ...(tags === undefined ? {} : { tags }) },
      { signal: new AbortController().signal },
    );
  return { store, remember, search };
}

describe("remember", () => {
  it("passes the conformance kit, paired and alone", async () => {
    const { remember } = pair();
    await assertConformance([remember], {
      samples: {
        remember: { text: PRICING, source: "https://example.com/pricing", tags: ["pricing"] },
      },
      alsoMounted: ["search_memory", "search_knowledge"],
    });
    const alone = createRememberTool({ store: createInMemoryVectorStore(), now });
    await assertConformance([alone], { samples: { remember: { text: PRICING } } });
    expect(alone.description).not.toMatch(/search_/);
  });

  it("saves an excerpt that the store source reads back with its source and tags", async () => {
    const { remember, search } = pair();
    const saved = await remember.run({
      text: PRICING,
      source: " https://example.com/pricing ",
      tags: ["pricing", "2024", "pricing"],
    });
    expect(saved).toEqual({
      success: true,
      data: {
        document_key: expect.stringMatching(/^sha256-[0-9a-f]{16}$/),
        stored_chunks: 1,
        dropped_chunks: 0,
        characters: PRICING.length,
        tags: ["pricing", "2024"],
        source: "https://example.com/pricing",
        created_at: "2026-03-04T05:06:07.000Z",
        already_saved: false,
      },
    });
    const text = remember.renderResult(saved);
    expect(text).toContain("Saved 1 passage");
    expect(text).toContain('Find it again with search_memory (tags=["pricing"] to filter).');

    const found = await search("team plan price", ["pricing"]);
    expect(found.total).toBe(1);
    expect(found.hits[0]).toMatchObject({
      file: saved.success ? saved.data.document_key : "",
      start_line: 1,
      end_line: 1,
      source: "https://example.com/pricing",
      tags: ["pricing", "2024"],
      excerpt: PRICING,
    });
  });

  it("works with an embedder: recall by meaning (a synonym the words do not share)", async () => {
    const embeddings = new HashingEmbeddings({
      dimensions: 1024,
      synonyms: [["price", "costs"]],
    });
    const { remember, search } = pair({ embeddings });
    await remember.run({ text: PRICING, tags: ["pricing"] });
    await remember.run({ text: "Support answers within one business day." });
    const found = await search("price");
    expect(found.hits[0]?.excerpt).toBe(PRICING);
    expect(embeddings.batches.length).toBe(2);
  });

  it("takes tags as a list, and a comma-separated string as that list", async () => {
    const remember = createRememberTool({ store: createInMemoryVectorStore(), now });
    const saved = await remember.run({ text: PRICING, tags: "pricing, 2024" });
    expect(saved.success && saved.data.tags).toEqual(["pricing", "2024"]);
  });

  it("stores the same text once: saving it again updates its source and tags and says so", async () => {
    const { store, remember } = pair();
    await remember.run({ text: PRICING, tags: ["old"] });
    const again = await remember.run({ text: PRICING, tags: ["new"], source: "email" });
    expect(again.success && again.data.already_saved).toBe(true);
    expect(remember.renderResult(again)).toContain("This text had been saved before");
    const records = (store as ReturnType<typeof createInMemoryVectorStore>).records();
    expect(records).toHaveLength(1);
    expect(records[0]?.metadata.tags).toEqual(["new"]);
    expect(records[0]?.metadata.source).toBe("email");
  });

  it("splits a long Markdown excerpt on its headings, with true lines", async () => {
    const { remember, search } = pair();
    const text = [
      "# Pump",
      "",
      "Intro text.",
      "",
      "## Torque",
      "",
      "Tighten the flange bolts to 40 Nm.",
    ].join("\n");
    const saved = await remember.run({ text });
    expect(saved.success && saved.data.stored_chunks).toBe(2);
    const found = await search("flange bolts torque");
    expect(found.hits[0]).toMatchObject({
      start_line: 5,
      end_line: 7,
      heading_trail: ["Pump", "Torque"],
    });
  });

  it("refuses a blank excerpt, one with nothing left after clean-up, and a private key", async () => {
    const { remember, store } = pair();
    const blank = await remember.run({ text: "   \n " });
    expect(blank).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(!blank.success && blank.error.hint).toContain("remember");
    const junk = await remember.run({ text: "\u0001\u0002\u0003" });
    expect(junk).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(!junk.success && junk.error.message).toContain("nothing searchable");
    const key = await remember.run({
      text: "Deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
    });
    expect(key).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    expect((store as ReturnType<typeof createInMemoryVectorStore>).size).toBe(0);
  });

  it("enforces the caps on text length and tag count through the schema", async () => {
    const remember = createRememberTool({
      store: createInMemoryVectorStore(),
      maxTextCharacters: 50,
      maxTags: 2,
      now,
    });
    const long = await remember.run({ text: "x".repeat(51) });
    expect(long).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(!long.success && long.error.message).toContain("text");
    const tags = await remember.run({ text: "short", tags: ["a", "b", "c"] });
    expect(tags).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    // The caps reach the model through the schema (maxLength, maxItems), not the description.
    const schema = toJsonSchema(remember) as {
      properties: { text: { maxLength?: number }; tags: { maxItems?: number } };
    };
    expect(schema.properties.text.maxLength).toBe(50);
    expect(schema.properties.tags.maxItems).toBe(2);
  });

  it("accepts the aliases other toolsets send", async () => {
    const { remember } = pair();
    const saved = await remember.run({
      content: PRICING,
      url: "https://example.com",
      labels: ["pricing"],
    });
    expect(saved.success && saved.data.source).toBe("https://example.com");
    expect(saved.success && saved.data.tags).toEqual(["pricing"]);
  });

  it("reports an embedder failure as a retryable NETWORK_ERROR with nothing written", async () => {
    const embeddings = new HashingEmbeddings({
      beforeBatch: () => {
        throw new Error("429 Too Many Requests");
      },
    });
    const { remember, store } = pair({ embeddings });
    const result = await remember.run({ text: PRICING });
    expect(result).toMatchObject({
      success: false,
      error: { code: "NETWORK_ERROR", retryable: true },
    });
    expect(!result.success && result.error.message).toContain("429 Too Many Requests");
    expect(!result.success && result.error.message).toContain("nothing was written");
    expect((store as ReturnType<typeof createInMemoryVectorStore>).size).toBe(0);
  });

  it("reports a store failure as a retryable NETWORK_ERROR that says saving again is safe", async () => {
    const inner = createInMemoryVectorStore();
    const failing: VectorStore = {
      searchesText: true,
      upsert: async () => {
        throw new Error("connection terminated");
      },
      query: (query, options) => inner.query(query, options),
      delete: (ids, options) => inner.delete(ids, options),
    };
    const remember = createRememberTool({ store: failing, now });
    const result = await remember.run({ text: PRICING });
    expect(result).toMatchObject({
      success: false,
      error: { code: "NETWORK_ERROR", retryable: true },
    });
    expect(!result.success && result.error.hint).toContain("saving it twice is safe");
    // a store without range cannot tell whether the text was saved before
    const plain = createRememberTool({
      store: { ...failing, upsert: (records) => inner.upsert(records) },
      now,
    });
    const saved = await plain.run({ text: PRICING });
    expect(saved.success && "already_saved" in saved.data).toBe(false);
  });

  it("honours cancellation", async () => {
    const { remember } = pair();
    const controller = new AbortController();
    controller.abort();
    const result = await remember.run({ text: PRICING }, { signal: controller.signal });
    expect(result).toMatchObject({ success: false, error: { code: "ABORTED" } });
  });

  it("names the search tool only when it is given or mounted, and takes name and description overrides", () => {
    const store = createInMemoryVectorStore();
    expect(createRememberTool({ store }).description).not.toContain("search_knowledge");
    expect(createRememberTool({ store, mountedTools: ["search_knowledge"] }).description).toContain(
      "with search_knowledge",
    );
    expect(createRememberTool({ store, searchToolName: "search_memory" }).description).toContain(
      "with search_memory",
    );
    const renamed = createRememberTool({
      store,
      name: "save_note",
      description: "Save a note for later use by the agent.",
    });
    expect([renamed.name, renamed.description]).toEqual([
      "save_note",
      "Save a note for later use by the agent.",
    ]);
    expect(
      formatRememberResult({
        document_key: "k",
        stored_chunks: 2,
        dropped_chunks: 1,
        characters: 10,
        tags: [],
        created_at: "t",
      }),
    ).toBe(
      "Saved 2 passages (10 characters) as k, no tags.\n1 passage was left out (blank or too short to search).",
    );
  });

  it("refuses bad options when it is created", () => {
    const store = createInMemoryVectorStore();
    const vectorOnly: VectorStore = {
      ...store,
      searchesText: false,
      upsert: store.upsert,
      query: store.query,
      delete: store.delete,
    };
    expect(() => createRememberTool({ store: vectorOnly })).toThrow(/searches by vector only/);
    expect(() => createRememberTool({ store, maxTags: -1 })).toThrow(AgentoolError);
    expect(() => createRememberTool({ store, searchToolName: "Search Memory" })).toThrow(
      /searchToolName/,
    );
    expect(() => createRememberTool({ store, window: 2 } as never)).toThrow(
      /unknown field "window"/,
    );
  });
});
