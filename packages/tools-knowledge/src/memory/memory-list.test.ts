import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createInMemoryMemoryBackend } from "./in-memory-memory-backend.js";
import { createMemoryListTool, type MemoryListToolData } from "./memory-list.js";

const NOW = new Date("2026-03-04T05:06:07.000Z");

async function filled(count: number) {
  const backend = createInMemoryMemoryBackend();
  for (let index = count - 1; index >= 0; index -= 1) {
    await backend.write(["test"], {
      key: `note/${String(index).padStart(3, "0")}`,
      content: "x".repeat(index + 1),
      tags: index % 3 === 0 ? ["third"] : [],
      now: NOW,
    });
  }
  return backend;
}

describe("memory_list", () => {
  it("passes the conformance kit with a cut page whose marker reaches the rest", async () => {
    const list = createMemoryListTool({ backend: await filled(30), namespace: ["test"] });
    await assertConformance([list], {
      samples: { memory_list: { prefix: "note/" } },
      cutSamples: { memory_list: { prefix: "note/", tags: ["third"], limit: 3 } },
    });
  });

  it("lists by key with facts per entry, filters by prefix and tag, says why a page is empty", async () => {
    const list = createMemoryListTool({
      backend: await filled(12),
      namespace: ["test"],
      mountedTools: ["memory_read"],
    });
    const page = await list.run({ tags: ["third"], limit: 2 });
    expect(page.success).toBe(true);
    if (!page.success) return;
    const data: MemoryListToolData = page.data;
    expect(data.entries).toEqual([
      {
        key: "note/000",
        tags: ["third"],
        characters: 1,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      },
      {
        key: "note/003",
        tags: ["third"],
        characters: 4,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      },
    ]);
    expect(data).toMatchObject({ total: 4, next_offset: 3, truncated: true, memories: 12 });
    const text = list.renderResult(page);
    expect(text).toContain('Memories 1–2 of 4 with tags=["third"] (by key):');
    expect(text).toContain('call memory_list again with tags=["third"], limit=2, offset=3');
    expect(text).not.toContain("Keep tags");
    const none = await list.run({ prefix: "zzz" });
    expect(list.renderResult(none)).toBe(
      'None of the 12 memories matches prefix="zzz". Call memory_list again with another filter or without.',
    );
    const empty = createMemoryListTool({
      backend: createInMemoryMemoryBackend(),
      namespace: ["test"],
      mountedTools: ["memory_write"],
    });
    expect(empty.renderResult(await empty.run({}))).toBe(
      "No memory has been saved with memory_write yet. Save one with memory_write.",
    );
  });
});
