import type { AnyTool } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createInMemoryVectorStore } from "../search/in-memory-vector-store.js";
import { createSearchKnowledgeTool } from "../search/search-knowledge.js";
import { createStoreSource } from "../search/store-source.js";
import { createMemoryTools } from "./create-memory-tools.js";
import { createInMemoryMemoryBackend } from "./in-memory-memory-backend.js";
import { createRememberTool } from "./remember.js";

// Issue 28, point 1: remember and the memory_* tools mounted together are one memory.

const NOW = new Date("2026-03-04T05:06:07.000Z");
const STAGING =
  "The staging database password rotates every Monday at 06:00 UTC; the new one is in the vault.";

function oneMemory() {
  const backend = createInMemoryMemoryBackend();
  const tools = createMemoryTools({
    backend,
    namespace: ["test"],
    remember: true,
    now: () => NOW,
  });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const get = (name: string) => {
    const tool = byName.get(name);
    if (tool === undefined) throw new Error(`${name} is not mounted`);
    return tool as AnyTool;
  };
  return { backend, tools, get };
}

describe("one memory: remember beside memory_write, memory_search and the rest", () => {
  it("finds with memory_search what remember saved, and remember names memory_search", async () => {
    const { get } = oneMemory();
    const remember = get("remember");
    const saved = await remember.run({
      text: STAGING,
      source: "docs/ops.md:12-14",
      tags: ["ops"],
    });
    expect(saved.success).toBe(true);
    if (!saved.success) return;
    expect(saved.data.document_key).toMatch(/^excerpt\/sha256-[0-9a-f]{16}$/);
    expect(remember.renderResult(saved)).toContain(
      'Find it again with memory_search (tags=["ops"] to filter).',
    );
    const search = get("memory_search");
    const found = await search.run({ query: "staging password rotation" });
    expect(found.success).toBe(true);
    if (!found.success) return;
    expect(found.data).toMatchObject({ total: 1 });
    const text = String(search.renderResult(found));
    expect(text).toContain(`1. ${saved.data.document_key} (tags: ops)`);
    expect(text).not.toContain("No memory has been saved");
    // The whole excerpt, its source included, opens with memory_read.
    const read = await get("memory_read").run({ key: saved.data.document_key });
    expect(read.success && read.data.content).toBe(`${STAGING}\n\nSource: docs/ops.md:12-14`);
    // The same text again replaces it (new source, new tags), never a second copy.
    const again = await remember.run({ text: STAGING, tags: ["ops", "vault"] });
    expect(again.success && again.data.already_saved).toBe(true);
    const listed = await get("memory_list").run({});
    expect(listed.success && listed.data.total).toBe(1);
  });

  it("and what memory_write saved is in the same memory remember writes to", async () => {
    const { get } = oneMemory();
    await get("memory_write").run({
      key: "ops/backup",
      content: "Backups run nightly.",
      tags: ["ops"],
    });
    await get("remember").run({ text: STAGING, tags: ["ops"] });
    const found = await get("memory_search").run({ query: "backups staging", tags: ["ops"] });
    expect(found.success && found.data.total).toBe(2);
  });

  it("names its neighbours and says who saves here; an empty memory says it looked at both", async () => {
    const { get } = oneMemory();
    expect(get("remember").description).toContain("memory_search");
    expect(get("remember").description).toContain("memory_write");
    expect(get("memory_search").description).toContain(
      "saved earlier with memory_write or remember",
    );
    const search = get("memory_search");
    const empty = await search.run({ query: "anything" });
    expect(String(search.renderResult(empty))).toBe(
      'No memory has been saved with memory_write or remember yet, so nothing matches "anything". Save one with memory_write or remember first.',
    );
    const list = get("memory_list");
    expect(String(list.renderResult(await list.run({})))).toBe(
      "No memory has been saved with memory_write or remember yet. Save one with memory_write or remember.",
    );
  });

  it("passes the conformance kit together, remember's samples and paged samples included", async () => {
    const { tools, get } = oneMemory();
    for (let index = 0; index < 8; index += 1) {
      await get("remember").run({
        text: `Standup note ${index}: the deploy window is Tuesday.`,
        tags: index % 2 === 0 ? ["ops", "standup"] : ["standup"],
      });
    }
    await assertConformance(tools, {
      samples: {
        remember: { text: STAGING, source: "docs/ops.md", tags: ["ops"] },
        memory_search: { query: "deploy window" },
        memory_list: {},
      },
      cutSamples: {
        memory_search: { query: "standup deploy", tags: ["ops"], limit: 2 },
        memory_list: { prefix: "excerpt/", tags: ["standup"], limit: 3 },
      },
    });
  });

  it("when remember writes to another store, neither search claims nothing was saved anywhere", async () => {
    const store = createInMemoryVectorStore();
    const mounted = ["remember", "search_memory"];
    const tools = createMemoryTools({
      backend: createInMemoryMemoryBackend(),
      namespace: ["test"],
      mountedTools: mounted,
    });
    const memorySearch = tools.find((tool) => tool.name === "memory_search") as AnyTool;
    const remember = createRememberTool({
      store,
      searchToolName: "search_memory",
      mountedTools: ["search_memory", "memory_search", "memory_write"],
    });
    const searchMemory = createSearchKnowledgeTool({
      source: createStoreSource({ store }),
      sourceKind: "store",
      name: "search_memory",
      mountedTools: ["remember", "memory_search", "memory_write"],
    });
    expect(memorySearch.description).toContain("search_memory");
    expect(searchMemory.description).toContain("memory_search");
    const emptyMemories = await memorySearch.run({ query: "staging" });
    const memoryText = String(memorySearch.renderResult(emptyMemories));
    expect(memoryText).toContain("No memory has been saved with memory_write yet");
    expect(memoryText).toContain("search_memory");
    const emptyExcerpts = await searchMemory.run({ query: "staging" });
    const excerptText = String(searchMemory.renderResult(emptyExcerpts));
    expect(excerptText).toContain("No excerpt has been saved with remember yet");
    expect(excerptText).toContain("memory_search");
    await remember.run({ text: STAGING, tags: ["ops"] });
    const found = await searchMemory.run({ query: "staging password", tags: ["ops"] });
    expect(found.success && found.data.total).toBe(1);
  });
});
