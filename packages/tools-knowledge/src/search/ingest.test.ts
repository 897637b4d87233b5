import { AgentoolError } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import type { VectorRecord, VectorStore } from "../engine/types.js";
import { HashingEmbeddings } from "../test-support/hashing-embeddings.js";
import { createInMemoryVectorStore } from "./in-memory-vector-store.js";
import { embeddingInput, ingest } from "./ingest.js";

const POWER = [
  "# Power",
  "",
  "The board takes 5 V from USB.",
  "",
  "## Limits",
  "",
  "The regulator caps at 5 V and 2 A.",
  "",
  "## Table",
  "",
  "| current | voltage |",
  "| --- | --- |",
  "| 200-400mA | 5V |",
].join("\n");

/** A store that records every call and can be told to fail the n-th upsert. */
function recordingStore(options: { failUpsert?: number; searchesText?: boolean } = {}) {
  const inner = createInMemoryVectorStore();
  const upserts: VectorRecord[][] = [];
  const store: VectorStore & { upserts: VectorRecord[][]; inner: typeof inner } = {
    searchesText: options.searchesText ?? true,
    upserts,
    inner,
    async upsert(records, upsertOptions) {
      upserts.push([...records]);
      if (options.failUpsert === upserts.length) throw new Error("disk full");
      await inner.upsert(records, upsertOptions);
    },
    query: (query, queryOptions) => inner.query(query, queryOptions),
    delete: (ids, deleteOptions) => inner.delete(ids, deleteOptions),
    range: (key, from, to) => inner.range(key, from, to),
  };
  return store;
}

describe("ingest", () => {
  it("chunks on headings, keeps true lines and a dense chunk_index, and stores source, tags and created_at", async () => {
    const store = createInMemoryVectorStore();
    const result = await ingest(
      [
        {
          id: "docs/power.md",
          text: POWER,
          source: "https://example.com/power",
          tags: ["hw", "hw", " usb "],
        },
      ],
      {
        store,
        now: () => new Date("2026-01-02T03:04:05.000Z"),
      },
    );
    expect(result).toEqual({
      records: 3,
      droppedChunks: 0,
      documents: [
        { documentKey: "docs/power.md", records: 3, droppedChunks: 0, removedRecords: 0 },
      ],
    });
    const records = store.records();
    expect(records.map((record) => record.id)).toEqual([
      "docs/power.md#0",
      "docs/power.md#1",
      "docs/power.md#2",
    ]);
    expect(records.map((record) => [record.metadata.start_line, record.metadata.end_line])).toEqual(
      [
        [1, 3],
        [5, 7],
        [9, 13],
      ],
    );
    expect(records[1]?.metadata).toEqual({
      document_key: "docs/power.md",
      chunk_index: 1,
      start_line: 5,
      end_line: 7,
      heading_trail: ["Power", "Limits"],
      source: "https://example.com/power",
      tags: ["hw", "usb"],
      created_at: "2026-01-02T03:04:05.000Z",
    });
    expect(records[1]?.text).toBe("## Limits\n\nThe regulator caps at 5 V and 2 A.");
    // each stored text is exactly its lines of the source
    const lines = POWER.split("\n");
    for (const record of records) {
      expect(record.text).toBe(
        lines.slice(record.metadata.start_line - 1, record.metadata.end_line).join("\n"),
      );
    }
  });

  it("keys a document without an id by a hash of its raw text, so ingesting it again replaces it", async () => {
    const store = createInMemoryVectorStore();
    const first = await ingest([{ text: POWER }], { store });
    const second = await ingest([{ text: POWER, tags: ["again"] }], { store });
    const key = first.documents[0]?.documentKey;
    expect(key).toMatch(/^sha256-[0-9a-f]{16}$/);
    expect(second.documents[0]?.documentKey).toBe(key);
    expect(store.size).toBe(3);
    expect(store.records().every((record) => record.metadata.tags?.[0] === "again")).toBe(true);
    const other = await ingest([{ text: `${POWER}\n` }], { store });
    expect(other.documents[0]?.documentKey).not.toBe(key);
  });

  it("sanitizes every chunk before the floor, the embedder and the store (C0/C1 stripped, tab and line feed kept)", async () => {
    const store = createInMemoryVectorStore();
    const embeddings = new HashingEmbeddings();
    await ingest(
      [{ id: "pdf", text: "# Spec\u0001\n\nVout\u0002 = 5\u0000 V\tmax\u0085\n\nnext" }],
      { store, embeddings },
    );
    const [record] = store.records();
    expect(record?.text).toBe("# Spec\n\nVout = 5 V\tmax\n\nnext");
    expect(record?.metadata.heading_trail).toEqual(["Spec"]);
    expect(embeddings.batches[0]?.[0]).toBe("Spec\n# Spec\n\nVout = 5 V\tmax\n\nnext");
  });

  it("takes a custom sanitizer, and (text) => text opts out", async () => {
    const store = createInMemoryVectorStore();
    await ingest([{ id: "a", text: "Hello\u0001 World" }], {
      store,
      sanitize: (text) => text.toUpperCase(),
    });
    expect(store.records()[0]?.text).toBe("HELLO\u0001 WORLD");
    await ingest([{ id: "b", text: "raw\u0002" }], { store, sanitize: (text) => text });
    expect(store.records().find((record) => record.id === "b#0")?.text).toBe("raw\u0002");
  });

  it("drops chunks under the alnum floor and keeps chunk_index dense after it", async () => {
    const text = [
      "# Alpha section",
      "",
      "Real text about regulators.",
      "",
      "# B",
      "",
      "---",
      "",
      "# C",
      "",
      "| 200-400mA | 5V |",
    ].join("\n");
    const store = createInMemoryVectorStore();
    const result = await ingest([{ id: "doc", text }], { store, minAlnumChars: 8 });
    expect(store.records().map((record) => [record.metadata.chunk_index, record.text])).toEqual([
      [0, "# Alpha section\n\nReal text about regulators."],
      [1, "# C\n\n| 200-400mA | 5V |"],
    ]);
    expect(store.records()[1]?.metadata.start_line).toBe(9);
    expect(result.droppedChunks).toBe(1);
    const unfiltered = await ingest([{ id: "doc", text }], { store: createInMemoryVectorStore() });
    expect(unfiltered.records).toBe(3);
  });

  it("drops chunks that are blank after sanitizing, and trims lines left blank (the span follows)", async () => {
    const store = createInMemoryVectorStore();
    const result = await ingest(
      [{ id: "junk", text: "# T\n\n\u0001\u0002\n\n# U\n\nreal\n\n\u0003" }],
      { store, maxChunkCharacters: 16 },
    );
    expect(
      store
        .records()
        .map((record) => [record.text, record.metadata.start_line, record.metadata.end_line]),
    ).toEqual([
      ["# T", 1, 1],
      ["# U\n\nreal", 5, 7],
    ]);
    expect(result.documents[0]?.records).toBe(2);
    const blank = await ingest([{ id: "blank", text: "\u0001\u0002" }], { store });
    expect(blank.documents[0]).toMatchObject({ records: 0, droppedChunks: 1 });
  });

  it("embeds and upserts in batches of batchSize, every embedding before the first write", async () => {
    const store = recordingStore();
    const embeddings = new HashingEmbeddings({ dimensions: 16 });
    const events: string[] = [];
    const text = Array.from(
      { length: 10 },
      (_, index) => `# Part ${index}\n\nParagraph number ${index}.`,
    ).join("\n\n");
    const result = await ingest([{ id: "long", text }], {
      store,
      embeddings,
      batchSize: 4,
      onProgress: (progress) =>
        events.push(`${progress.stage} ${progress.completed}/${progress.total}`),
    });
    expect(embeddings.batches.map((batch) => batch.length)).toEqual([4, 4, 2]);
    expect(store.upserts.map((batch) => batch.length)).toEqual([4, 4, 2]);
    expect(events).toEqual([
      "embed 4/10",
      "embed 8/10",
      "embed 10/10",
      "upsert 4/10",
      "upsert 8/10",
      "upsert 10/10",
    ]);
    expect(result.dimensions).toBe(16);
    for (const record of store.inner.records()) {
      expect(record.vector).toBeInstanceOf(Float32Array);
      expect(record.vector?.length).toBe(16);
    }
  });

  it("embeds 'trail > trail: text' with embedHeadingTrail and stores the raw chunk text either way", async () => {
    expect(embeddingInput("The regulator caps at 5V.", ["Power", "Limits"], true)).toBe(
      "Power > Limits: The regulator caps at 5V.",
    );
    expect(embeddingInput("The regulator caps at 5V.", ["Power", "Limits"], false)).toBe(
      "Power\nLimits\nThe regulator caps at 5V.",
    );
    expect(embeddingInput("No trail.", [], true)).toBe("No trail.");
    const store = createInMemoryVectorStore();
    const embeddings = new HashingEmbeddings();
    await ingest([{ id: "p", text: POWER }], { store, embeddings, embedHeadingTrail: true });
    expect(embeddings.batches[0]?.[1]).toBe(
      "Power > Limits: ## Limits\n\nThe regulator caps at 5 V and 2 A.",
    );
    expect(store.records()[1]?.text).toBe("## Limits\n\nThe regulator caps at 5 V and 2 A.");
  });

  it("leaves the store untouched when the embedder fails", async () => {
    const store = recordingStore();
    const embeddings = new HashingEmbeddings({
      beforeBatch: (batch) => {
        if (batch === 1) throw new Error("rate limited");
      },
    });
    const text = Array.from({ length: 6 }, (_, index) => `# H${index}\n\nText ${index}.`).join(
      "\n\n",
    );
    await expect(ingest([{ id: "d", text }], { store, embeddings, batchSize: 2 })).rejects.toThrow(
      "rate limited",
    );
    expect(store.upserts).toEqual([]);
  });

  it("refuses an embedder answer of the wrong shape before writing", async () => {
    const store = recordingStore();
    const short = {
      embedDocuments: async (texts: string[]) => texts.slice(1).map(() => [1, 0]),
      embedQuery: async () => [1, 0],
    };
    await expect(ingest([{ id: "d", text: POWER }], { store, embeddings: short })).rejects.toThrow(
      /returned 2 vectors for 3 texts/,
    );
    let call = 0;
    const mixed = {
      embedDocuments: async (texts: string[]) =>
        texts.map(() => (call++ === 0 ? [1, 0] : [1, 0, 0])),
      embedQuery: async () => [1, 0],
    };
    await expect(ingest([{ id: "d", text: POWER }], { store, embeddings: mixed })).rejects.toThrow(
      /3-dimension vector after 2-dimension/,
    );
    const broken = {
      embedDocuments: async (texts: string[]) => texts.map(() => [Number.NaN]),
      embedQuery: async () => [1],
    };
    await expect(ingest([{ id: "d", text: POWER }], { store, embeddings: broken })).rejects.toThrow(
      /non-finite/,
    );
    expect(store.upserts).toEqual([]);
  });

  it("keeps earlier batches when a store write fails mid-ingest, and a second ingest repairs it", async () => {
    const store = recordingStore({ failUpsert: 2 });
    const text = Array.from({ length: 6 }, (_, index) => `# H${index}\n\nText ${index}.`).join(
      "\n\n",
    );
    await expect(ingest([{ id: "d", text }], { store, batchSize: 2 })).rejects.toThrow("disk full");
    expect(store.inner.size).toBe(2);
    await ingest([{ id: "d", text }], { store, batchSize: 2 });
    expect(store.inner.size).toBe(6);
  });

  it("removes the records past the end of a document that got shorter (stores with range)", async () => {
    const store = createInMemoryVectorStore();
    const long = Array.from({ length: 5 }, (_, index) => `# H${index}\n\nText ${index}.`).join(
      "\n\n",
    );
    await ingest(
      [
        { id: "d", text: long },
        { id: "other", text: "keep me" },
      ],
      { store },
    );
    expect(store.size).toBe(6);
    const result = await ingest([{ id: "d", text: "# H0\n\nText 0." }], { store });
    expect(result.documents[0]).toEqual({
      documentKey: "d",
      records: 1,
      droppedChunks: 0,
      removedRecords: 4,
    });
    expect(store.records().map((record) => record.id)).toEqual(["d#0", "other#0"]);
    // an empty text removes the document
    const emptied = await ingest([{ id: "d", text: "" }], { store });
    expect(emptied.documents[0]?.removedRecords).toBe(1);
    expect(store.records().map((record) => record.id)).toEqual(["other#0"]);
  });

  it("ingests a key given twice once, the last text winning", async () => {
    const store = createInMemoryVectorStore();
    const result = await ingest(
      [
        { id: "k", text: "first version" },
        { id: "k", text: "second version" },
      ],
      { store },
    );
    expect(result.documents).toHaveLength(1);
    expect(store.records().map((record) => record.text)).toEqual(["second version"]);
  });

  it("validates options and documents strictly before any work", async () => {
    const store = recordingStore();
    const embeddings = new HashingEmbeddings();
    const bad: Array<[unknown, unknown, RegExp]> = [
      [[{ text: "x" }], { store, minAlnumChars: -1 }, /minAlnumChars/],
      [[{ text: "x" }], { store, batchSize: 2.5 }, /batchSize/],
      [[{ text: "x" }], { store, batchSize: 0 }, /batchSize/],
      [[{ text: "x" }], { store, sanitize: "strip" }, /sanitize: expected a function/],
      [[{ text: "x" }], { store, maxChunks: 3 }, /unknown key "maxChunks"/],
      [[{ text: "x" }], { store, maxChunkCharacters: 4 }, /maxChunkCharacters/],
      [[{ text: "x" }], { store: {} }, /store: expected a VectorStore/],
      [
        [{ text: "x" }],
        { store, embeddings: { embed: () => [] } },
        /embeddings: expected an Embeddings/,
      ],
      [[{ text: "x" }], undefined, /store/],
      ["not an array", { store }, /documents must be an array/],
      [[{ text: 3 }], { store }, /documents\[0\]\.text/],
      [[{ text: "x", id: "" }], { store }, /documents\[0\]\.id/],
      [[{ text: "x", title: "t" }], { store }, /documents\[0\]: unknown key "title"/],
      [[{ text: "x", tags: [""] }], { store }, /documents\[0\]\.tags\.0/],
      [
        [{ text: "x" }],
        { store: recordingStore({ searchesText: false }) },
        /searches by vector only/,
      ],
    ];
    for (const [documents, options, message] of bad) {
      const attempt = ingest(documents as never, options as never);
      await expect(attempt).rejects.toThrow(AgentoolError);
      await expect(attempt).rejects.toThrow(message);
    }
    await expect(ingest([{ text: "x" }], { store, embeddings, minAlnumChars: -1 })).rejects.toThrow(
      AgentoolError,
    );
    expect(embeddings.batches).toEqual([]);
    expect(store.upserts).toEqual([]);
  });

  it("stops between batches when the signal aborts", async () => {
    const controller = new AbortController();
    const store = recordingStore();
    const embeddings = new HashingEmbeddings({
      beforeBatch: (batch) => {
        if (batch === 0) controller.abort(new Error("cancelled"));
      },
    });
    const text = Array.from({ length: 6 }, (_, index) => `# H${index}\n\nText ${index}.`).join(
      "\n\n",
    );
    await expect(
      ingest([{ id: "d", text }], { store, embeddings, batchSize: 2, signal: controller.signal }),
    ).rejects.toThrow("cancelled");
    expect(embeddings.batches).toHaveLength(1);
    expect(store.upserts).toEqual([]);
  });

  it("handles an empty document list and a 2 MB document without one giant call", async () => {
    const store = recordingStore();
    expect(await ingest([], { store })).toEqual({ records: 0, droppedChunks: 0, documents: [] });
    const paragraph = "The quick brown fox jumps over the lazy dog near the riverbank. ";
    const text = Array.from(
      { length: 3_000 },
      (_, index) => `## Section ${index}\n\n${paragraph.repeat(11)}`,
    ).join("\n\n");
    expect(text.length).toBeGreaterThan(2_000_000);
    const embeddings = new HashingEmbeddings({ dimensions: 8 });
    const result = await ingest([{ id: "big", text }], {
      store,
      embeddings,
      maxChunkCharacters: 400,
    });
    expect(result.records).toBeGreaterThan(3_000);
    expect(Math.max(...embeddings.batches.map((batch) => batch.length))).toBe(64);
    expect(Math.max(...store.upserts.map((batch) => batch.length))).toBe(64);
    expect(store.inner.size).toBe(result.records);
  });
});
