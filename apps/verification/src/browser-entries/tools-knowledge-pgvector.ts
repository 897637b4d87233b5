// @agentool/tools-knowledge/pgvector in the browser: the pgvector store over a query client that
// posts each statement to the test's server (as an HTTP SQL driver does in a browser or at the
// edge), which runs it on real PostgreSQL with pgvector (PGlite). Ingest, then search_knowledge.
import { createSearchKnowledgeTool, createStoreSource, ingest } from "@agentool/tools-knowledge";
import { createPgVectorStore, type PgQueryClient } from "@agentool/tools-knowledge/pgvector";
import { type BrowserToolCall, callTool } from "./call-tool.js";
import { HASHING_DIMENSIONS, hashingEmbeddings, KNOWLEDGE_DOCUMENTS } from "./knowledge-corpus.js";

/** A {@link PgQueryClient} over `fetch`: `POST /sql` with `{ text, values }`, answered `{ rows }`. */
function createHttpQueryClient(endpoint: string): PgQueryClient {
  return {
    async query(text, values) {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text, values: values ?? [] }),
      });
      const body = (await response.json()) as { rows?: Array<Record<string, unknown>> };
      if (!response.ok) throw Object.assign(new Error(JSON.stringify(body)), body);
      return { rows: body.rows ?? [] };
    },
  };
}

/**
 * Migrates the table, ingests the corpus with vectors and searches it (hybrid).
 *
 * @returns the ingested record count and the `search` call
 */
export default async function run(): Promise<{ ingested: number; search: BrowserToolCall }> {
  const store = createPgVectorStore({
    client: createHttpQueryClient(new URL("/sql", import.meta.url).href),
    dimensions: HASHING_DIMENSIONS,
  });
  const { records } = await ingest(KNOWLEDGE_DOCUMENTS, { store, embeddings: hashingEmbeddings });
  const tool = createSearchKnowledgeTool({
    source: createStoreSource({ store, embeddings: hashingEmbeddings }),
    sourceKind: "store",
  });
  const search = await callTool(tool, { query: "how often to inspect the pressure valve" });
  return { ingested: records, search };
}
