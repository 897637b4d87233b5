// @agentool/tools-knowledge root in the browser: documents ingested into the in-memory vector
// store (hybrid: BM25 + cosine with a hashing embedder) and found with search_knowledge; a note
// kept and found again with the memory tools on the in-memory backend.
import {
  createInMemoryMemoryBackend,
  createInMemoryVectorStore,
  createMemoryTools,
  createSearchKnowledgeTool,
  createStoreSource,
  ingest,
} from "@agentool/tools-knowledge";
import { type BrowserToolCall, callTool, findTool } from "./call-tool.js";
import { hashingEmbeddings, KNOWLEDGE_DOCUMENTS } from "./knowledge-corpus.js";

/**
 * Ingests the corpus, searches it, writes a memory and searches the memories.
 *
 * @returns the ingested record count and the calls: `search`, `memoryWrite`, `memorySearch`
 */
export default async function run(): Promise<{
  ingested: number;
  calls: Record<string, BrowserToolCall>;
}> {
  const store = createInMemoryVectorStore();
  const { records } = await ingest(KNOWLEDGE_DOCUMENTS, { store, embeddings: hashingEmbeddings });
  const search = createSearchKnowledgeTool({
    source: createStoreSource({ store, embeddings: hashingEmbeddings }),
    sourceKind: "store",
  });
  const memoryTools = createMemoryTools({
    backend: createInMemoryMemoryBackend(),
    namespace: ["browser-user"],
  });
  const calls = {
    search: await callTool(search, { query: "how often to inspect the pressure valve" }),
    memoryWrite: await callTool(findTool(memoryTools, "memory_write"), {
      key: "favourite-colour",
      content: "The user prefers blue buttons.",
    }),
    memorySearch: await callTool(findTool(memoryTools, "memory_search"), { query: "buttons" }),
  };
  return { ingested: records, calls };
}
