import { AgentoolError } from "@agentool/contract";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VectorRecord } from "../../engine/types.js";
import { createRememberTool } from "../../memory/remember.js";
import { HashingEmbeddings } from "../../test-support/hashing-embeddings.js";
import { createInMemoryVectorStore } from "../in-memory-vector-store.js";
import { ingest } from "../ingest.js";
import { createStoreSource } from "../store-source.js";
import { createPgVectorStore } from "./create-pg-vector-store.js";
import { pgVectorSchemaStatements } from "./pg-vector-schema.js";

// The very same `pg` code as production, against real pgvector: PGlite (PostgreSQL compiled to
// WebAssembly) with its vector extension, served over the wire protocol on 127.0.0.1.
let database: PGlite;
let server: PGLiteSocketServer;
let client: pg.Client;

beforeAll(async () => {
  database = await PGlite.create({ extensions: { vector } });
  server = new PGLiteSocketServer({ db: database, port: 0, host: "127.0.0.1" });
  await server.start();
  const [host, port] = server.getServerConn().split(":");
  client = new pg.Client({ host, port: Number(port), user: "postgres", database: "postgres" });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await server?.stop();
  await database?.close();
});

const DIMENSIONS = 256;
let tableNumber = 0;
const freshTable = () => {
  tableNumber += 1;
  return `chunks_${tableNumber}`;
};

const GUIDE = [
  "# Pump manual",
  "",
  "General notes about the pump.",
  "",
  "## Limits",
  "",
  "The regulator limits the output to 5 V and 2 A.",
  "",
  "## Torque",
  "",
  "Tighten the flange bolts to 40 Nm.",
  "",
  "## Seals",
  "",
  "Replace the seals every year.",
].join("\n");

async function filled(table = freshTable()) {
  const embeddings = new HashingEmbeddings({ dimensions: DIMENSIONS });
  const store = createPgVectorStore({ client, table, dimensions: DIMENSIONS });
  await ingest(
    [
      {
        id: "docs/pump.md",
        text: GUIDE,
        source: "https://example.com/pump",
        tags: ["maintenance", "pump"],
      },
      {
        id: "docs/pricing.md",
        text: "# Pricing\n\nThe Pro plan costs 49 dollars a month.",
        tags: ["sales"],
      },
      {
        text: "Support answers within one business day.",
        source: "conversation",
        tags: ["support"],
      },
    ],
    { store, embeddings, now: () => new Date("2026-02-03T04:05:06.000Z") },
  );
  return { store, embeddings, table };
}

describe("createPgVectorStore against pgvector (PGlite over pglite-socket, the pg driver)", () => {
  it("migrates: the extension, the table and its HNSW, B-tree and GIN indexes — idempotently", async () => {
    const table = freshTable();
    const store = createPgVectorStore({ client, table, dimensions: DIMENSIONS });
    await store.migrate();
    await store.migrate();
    const extension = await client.query(
      "SELECT extversion FROM pg_extension WHERE extname = 'vector'",
    );
    expect(extension.rows).toHaveLength(1);
    const columns = await client.query(
      "SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position",
      [table],
    );
    expect(columns.rows.map((row) => `${row.column_name}:${row.udt_name}`)).toEqual([
      "id:text",
      "document_key:text",
      "chunk_index:int4",
      "start_line:int4",
      "end_line:int4",
      "heading_trail:jsonb",
      "source:text",
      "tags:_text",
      "created_at:timestamptz",
      "text:text",
      "embedding:vector",
      "text_search:tsvector",
    ]);
    const indexes = await client.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 ORDER BY indexname",
      [table],
    );
    const definitions = indexes.rows.map((row) => String(row.indexdef));
    expect(
      definitions.some((definition) =>
        /USING hnsw \(embedding vector_cosine_ops\) WITH \(m='16', ef_construction='64'\)/.test(
          definition,
        ),
      ),
    ).toBe(true);
    expect(
      definitions.some((definition) =>
        /USING btree \(document_key, chunk_index\)/.test(definition),
      ),
    ).toBe(true);
    expect(definitions.some((definition) => /USING gin \(tags\)/.test(definition))).toBe(true);
    expect(definitions.some((definition) => /USING gin \(text_search\)/.test(definition))).toBe(
      true,
    );
    expect(
      definitions.some(
        (definition) =>
          /PRIMARY KEY|_pkey/.test(definition) || /UNIQUE INDEX .*_pkey/.test(definition),
      ),
    ).toBe(true);
  });

  it("refuses to write another embedder's dimension into an existing table", async () => {
    const table = freshTable();
    await createPgVectorStore({ client, table, dimensions: DIMENSIONS }).migrate();
    const other = createPgVectorStore({ client, table, dimensions: 3 });
    await expect(other.migrate()).rejects.toThrow(AgentoolError);
    await expect(other.migrate()).rejects.toThrow(
      /has embedding vector\(256\), this store writes vector\(3\)/,
    );
  });

  it("writes records and reads them back typed: integers as numbers, lists, ISO times", async () => {
    const { store } = await filled();
    const records = await store.range("docs/pump.md", 0, 10);
    expect(records.map((record) => record.metadata.chunk_index)).toEqual([0, 1, 2, 3]);
    const [, limits] = records;
    expect(limits).toEqual({
      id: "docs/pump.md#1",
      text: "## Limits\n\nThe regulator limits the output to 5 V and 2 A.",
      metadata: {
        document_key: "docs/pump.md",
        chunk_index: 1,
        start_line: 5,
        end_line: 7,
        heading_trail: ["Pump manual", "Limits"],
        source: "https://example.com/pump",
        tags: ["maintenance", "pump"],
        created_at: "2026-02-03T04:05:06.000Z",
      },
    });
    for (const record of records) {
      expect(typeof record.metadata.chunk_index).toBe("number");
      expect(typeof record.metadata.start_line).toBe("number");
    }
    // count(*) is a bigint, which pg returns as a string: coerced
    expect(await store.count()).toEqual({ records: 6, documents: 3 });
  });

  it("ranks vectors by cosine (<=>) exactly as the in-memory store does", async () => {
    const { store, embeddings } = await filled();
    const memory = createInMemoryVectorStore();
    await ingest([{ id: "docs/pump.md", text: GUIDE }], { store: memory, embeddings });
    const query = Float32Array.from(await embeddings.embedQuery("flange bolts torque"));
    const fromPg = await store.query({ vector: query, limit: 4, document_key_prefix: "docs/pump" });
    const fromMemory = await memory.query({ vector: query, limit: 4 });
    expect(fromPg.map((match) => match.record.id)).toEqual(
      fromMemory.map((match) => match.record.id),
    );
    for (const [index, match] of fromPg.entries())
      expect(match.score).toBeCloseTo(fromMemory[index]?.score ?? Number.NaN, 5);
    expect(fromPg[0]?.record.id).toBe("docs/pump.md#2");
  });

  it("uses the HNSW index for a vector query", async () => {
    const { store, embeddings, table } = await filled();
    const query = Float32Array.from(await embeddings.embedQuery("seals"));
    await client.query("SET enable_seqscan = off");
    try {
      const plan = await client.query(
        `EXPLAIN SELECT id FROM "${table}" WHERE embedding IS NOT NULL ORDER BY embedding <=> $1::vector LIMIT 5`,
        [`[${Array.from(query).join(",")}]`],
      );
      expect(plan.rows.map((row) => String(row["QUERY PLAN"])).join("\n")).toContain(
        `${table}_embedding_hnsw_idx`,
      );
    } finally {
      await client.query("RESET enable_seqscan");
    }
    expect((await store.query({ vector: query, limit: 1 }))[0]?.record.id).toBe("docs/pump.md#3");
  });

  it("searches text with PostgreSQL full-text search: stemming, any word, heading weight", async () => {
    const { store } = await filled();
    const limits = await store.query({ text: "limit", limit: 5 });
    expect(limits[0]?.record.id).toBe("docs/pump.md#1");
    const anyWord = await store.query({ text: "seals OR zebra", limit: 5 });
    expect(anyWord.map((match) => match.record.id)).toEqual(["docs/pump.md#3"]);
    expect(await store.query({ text: "quantum chromodynamics", limit: 5 })).toEqual([]);
    expect(await store.query({ text: "!!! ??? <->", limit: 5 })).toEqual([]);
    expect(await store.query({ text: "the of and", limit: 5 })).toEqual([]);
    // a word in the heading trail outranks the same word in a body only
    const heading = await store.query({ text: "torque", limit: 5 });
    expect(heading[0]?.record.id).toBe("docs/pump.md#2");
  });

  it("fuses vector and text rankings by reciprocal rank, and filters by tags and prefixes", async () => {
    const { store, embeddings } = await filled();
    const vectorOf = async (text: string) => Float32Array.from(await embeddings.embedQuery(text));
    const fused = await store.query({
      vector: await vectorOf("flange bolts"),
      text: "flange bolts",
      limit: 3,
    });
    expect(fused[0]?.record.id).toBe("docs/pump.md#2");
    expect(fused[0]?.score).toBeCloseTo(2 / 61, 10);
    const sales = await store.query({ vector: await vectorOf("plan"), limit: 10, tags: ["sales"] });
    expect(sales.map((match) => match.record.id)).toEqual(["docs/pricing.md#0"]);
    const both = await store.query({
      text: "pump seals regulator",
      limit: 10,
      tags: ["maintenance", "pump"],
    });
    expect(both.length).toBeGreaterThan(0);
    expect(await store.query({ text: "seals", limit: 10, tags: ["maintenance", "sales"] })).toEqual(
      [],
    );
    const byKey = await store.query({ text: "plan", limit: 10, document_key_prefix: "docs/pri" });
    expect(byKey.map((match) => match.record.id)).toEqual(["docs/pricing.md#0"]);
    const bySource = await store.query({
      text: "support business",
      limit: 10,
      key_or_source_prefix: "conver",
    });
    expect(bySource.map((match) => match.record.metadata.source)).toEqual(["conversation"]);
    // LIKE wildcards in a prefix are plain characters
    expect(await store.query({ text: "plan", limit: 10, document_key_prefix: "docs/%" })).toEqual(
      [],
    );
  });

  it("upserts by id (ON CONFLICT), last duplicate in a call winning, across multi-row statements", async () => {
    const table = freshTable();
    const store = createPgVectorStore({ client, table, dimensions: 2 });
    const record = (index: number, text: string): VectorRecord => ({
      id: `doc#${index}`,
      text,
      vector: Float32Array.from([1, index]),
      metadata: {
        document_key: "doc",
        chunk_index: index,
        start_line: index + 1,
        end_line: index + 1,
        heading_trail: [],
      },
    });
    await store.upsert(Array.from({ length: 1_234 }, (_, index) => record(index, `line ${index}`)));
    expect(await store.count()).toEqual({ records: 1_234, documents: 1 });
    await store.upsert([record(5, "first"), record(5, "second"), record(6, "six")]);
    const [five, six] = await store.range("doc", 5, 6);
    expect([five?.text, six?.text]).toEqual(["second", "six"]);
    expect(await store.count()).toEqual({ records: 1_234, documents: 1 });
    await store.delete(["doc#5", "doc#6", "missing"]);
    expect((await store.range("doc", 4, 7)).map((found) => found.metadata.chunk_index)).toEqual([
      4, 7,
    ]);
    await expect(
      store.upsert([{ ...record(1, "x"), vector: Float32Array.from([1, 2, 3]) }]),
    ).rejects.toThrow(/3 dimensions, the table 2/);
    await expect(store.query({ vector: Float32Array.from([1]), limit: 1 })).rejects.toThrow(
      /1 dimensions, the table 2/,
    );
  });

  it("stores text written without an embedder (embedding NULL) and searches it by text", async () => {
    const store = createPgVectorStore({ client, table: freshTable(), dimensions: 8 });
    await ingest([{ id: "n", text: "# Notes\n\nKeyless search still works." }], { store });
    expect((await store.query({ text: "keyless", limit: 3 }))[0]?.record.id).toBe("n#0");
    expect(
      await store.query({ vector: Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0]), limit: 3 }),
    ).toEqual([]);
  });

  it("is why ingest sanitizes: PostgreSQL refuses a NUL byte that the default sanitizer strips", async () => {
    const store = createPgVectorStore({ client, table: freshTable(), dimensions: 8 });
    const raw: VectorRecord = {
      id: "raw#0",
      text: "scraped\u0000pdf",
      metadata: {
        document_key: "raw",
        chunk_index: 0,
        start_line: 1,
        end_line: 1,
        heading_trail: [],
      },
    };
    await expect(store.upsert([raw])).rejects.toThrow();
    await ingest([{ id: "clean", text: "scraped\u0000pdf \u0001text" }], { store });
    expect((await store.range("clean", 0, 0))[0]?.text).toBe("scrapedpdf text");
  });

  it("removes the records past the end of a document ingested again shorter", async () => {
    const { store } = await filled();
    await ingest([{ id: "docs/pump.md", text: "# Pump manual\n\nShort now." }], { store });
    expect((await store.range("docs/pump.md", 0, 100)).map((record) => record.text)).toEqual([
      "# Pump manual\n\nShort now.",
    ]);
  });

  it("works in a named schema, and with createSchema: false leaves the migration to the host", async () => {
    await client.query("CREATE SCHEMA IF NOT EXISTS knowledge");
    const store = createPgVectorStore({ client, table: "knowledge.chunks", dimensions: 4 });
    await ingest([{ id: "s", text: "schema qualified" }], { store });
    const found = await client.query("SELECT count(*) AS n FROM knowledge.chunks");
    expect(Number(found.rows[0]?.n)).toBe(1);
    expect(store.table).toBe('"knowledge"."chunks"');
    const unmigrated = createPgVectorStore({
      client,
      table: "never_created",
      dimensions: 4,
      createSchema: false,
    });
    await expect(unmigrated.count()).rejects.toThrow(/never_created/);
    for (const statement of pgVectorSchemaStatements({ table: "never_created", dimensions: 4 }))
      await client.query(statement);
    expect(await unmigrated.count()).toEqual({ records: 0, documents: 0 });
  });

  it("migrates safely from two stores at once", async () => {
    const table = freshTable();
    const first = createPgVectorStore({ client, table, dimensions: 4 });
    const second = createPgVectorStore({ client, table, dimensions: 4 });
    await Promise.all([first.migrate(), second.migrate(), first.count(), second.count()]);
    expect(await first.count()).toEqual({ records: 0, documents: 0 });
  });

  it("backs remember and a store source, with window expansion over range()", async () => {
    const embeddings = new HashingEmbeddings({ dimensions: DIMENSIONS });
    const store = createPgVectorStore({ client, table: freshTable(), dimensions: DIMENSIONS });
    const remember = createRememberTool({ store, embeddings, searchToolName: "search_memory" });
    const source = createStoreSource({ store, embeddings, window: 1 });
    const context = { signal: new AbortController().signal };
    const search = (query: string, extra: { tags?: string[]; limit?: number } = {}) =>
      source.search(
        { query, offset: 1, limit: extra.limit ?? 5, ...(extra.tags ? { tags: extra.tags } : {}) },
        context,
      );
    expect((await search("torque")).empty_reason).toBe("empty_corpus");
    const saved = await remember.run({
      text: GUIDE,
      source: "https://example.com/pump",
      tags: ["pump"],
    });
    expect(saved.success && saved.data.stored_chunks).toBe(4);
    const again = await remember.run({
      text: GUIDE,
      source: "https://example.com/pump",
      tags: ["pump"],
    });
    expect(again.success && again.data.already_saved).toBe(true);
    const found = await search("flange bolts torque", { tags: ["pump"], limit: 1 });
    const [hit] = found.hits;
    expect(hit?.heading_trail).toEqual(["Pump manual", "Torque"]);
    expect(hit?.excerpt).toContain("## Limits");
    expect(hit?.excerpt).toContain("Tighten the flange bolts to 40 Nm.");
    expect(hit?.excerpt).toContain("## Seals");
    expect(hit?.source).toBe("https://example.com/pump");
    // a vector query ranks every chunk, so the windows of all four merge into one passage
    expect([hit?.start_line, hit?.end_line]).toEqual([1, 15]);
    expect(found.total).toBe(1);
    expect(found.searched).toEqual({ documents: 1, chunks: 4 });
    // by keywords only the Torque chunk matches: widened by one chunk on each side
    const keywords = await createStoreSource({ store, window: 1 }).search(
      { query: "flange bolts", offset: 1, limit: 5 },
      context,
    );
    expect(keywords.hits.map((passage) => [passage.start_line, passage.end_line])).toEqual([
      [5, 15],
    ]);
    expect(keywords.hits[0]?.excerpt.startsWith("## Limits")).toBe(true);
  });

  it("refuses bad options", () => {
    expect(() => createPgVectorStore({ client, dimensions: 0 })).toThrow(AgentoolError);
    expect(() =>
      createPgVectorStore({ client, table: 'x"; DROP TABLE y; --', dimensions: 3 }),
    ).toThrow(/table/);
    expect(() => createPgVectorStore({ client, table: "a.b.c", dimensions: 3 })).toThrow(/table/);
    expect(() =>
      createPgVectorStore({ client, dimensions: 3, textSearchConfiguration: "english'; --" }),
    ).toThrow(/textSearchConfiguration/);
    expect(() => createPgVectorStore({ client: {} as never, dimensions: 3 })).toThrow(/client/);
    expect(() => createPgVectorStore({ client, dimensions: 3, hnsw: { m: 1 } })).toThrow(/hnsw/);
    expect(() => createPgVectorStore({ client, dimension: 3 } as never)).toThrow(
      /unknown field "dimension"/,
    );
  });

  it("leaves the HNSW index out past pgvector's 2,000 indexed dimensions", () => {
    expect(
      pgVectorSchemaStatements({ dimensions: 3_072 }).some((statement) =>
        statement.includes("hnsw"),
      ),
    ).toBe(false);
    expect(
      pgVectorSchemaStatements({ dimensions: 1_536 }).some((statement) =>
        statement.includes("hnsw"),
      ),
    ).toBe(true);
  });
});
