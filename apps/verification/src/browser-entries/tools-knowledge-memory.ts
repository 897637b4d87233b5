// @agentool/tools-knowledge/memory in the browser: a note kept, found and read again with the
// memory tools on the in-memory backend, using the memory entry alone.
import { createInMemoryMemoryBackend, createMemoryTools } from "@agentool/tools-knowledge/memory";
import { type BrowserToolCall, callTool, findTool } from "./call-tool.js";

/**
 * Writes a memory and searches the memories.
 *
 * @returns the calls: `memoryWrite`, `memorySearch`
 */
export default async function run(): Promise<{ calls: Record<string, BrowserToolCall> }> {
  const memoryTools = createMemoryTools({
    backend: createInMemoryMemoryBackend(),
    namespace: ["browser-user"],
  });
  return {
    calls: {
      memoryWrite: await callTool(findTool(memoryTools, "memory_write"), {
        key: "favourite-colour",
        content: "The user prefers blue buttons.",
      }),
      memorySearch: await callTool(findTool(memoryTools, "memory_search"), { query: "buttons" }),
    },
  };
}
