// @agentool/tools-knowledge/search in the browser: documents ingested into the in-memory vector
// store (hybrid: BM25 + cosine with a hashing embedder) and found with search_knowledge, using
// the search entry alone.
import {
  createInMemoryVectorStore,
  createSearchKnowledgeTool,
  createStoreSource,
  ingest,
} from "@agentool/tools-knowledge/search";
import { type BrowserToolCall, callTool } from "./call-tool.js";
import { hashingEmbeddings, KNOWLEDGE_DOCUMENTS } from "./knowledge-corpus.js";

/**
 * Ingests the corpus and searches it.
 *
 * @returns the ingested record count and the `search` call
 */
export default async function run(): Promise<{ ingested: number; search: BrowserToolCall }> {
  const store = createInMemoryVectorStore();
  const { records } = await ingest(KNOWLEDGE_DOCUMENTS, { store, embeddings: hashingEmbeddings });
  const search = createSearchKnowledgeTool({
    source: createStoreSource({ store, embeddings: hashingEmbeddings }),
    sourceKind: "store",
  });
  return {
    ingested: records,
    search: await callTool(search, { query: "how often to inspect the pressure valve" }),
  };
}
