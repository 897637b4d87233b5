import { readFileSync } from "node:fs";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createInMemoryMemoryBackend } from "./in-memory-memory-backend.js";
import type { MemoryBackend } from "./memory-backend.js";
import { createMemorySearchTool, type MemorySearchToolData } from "./memory-search.js";

const NOW = new Date("2026-03-04T05:06:07.000Z");

async function filled(): Promise<MemoryBackend> {
  const backend = createInMemoryMemoryBackend();
  const write = (key: string, content: string, tags: string[] = []) =>
    backend.write(["test"], { key, content, tags, now: NOW });
  await write("user/editor", "Prefers Vim key bindings in every editor.", ["preference"]);
  await write("user/theme", "Likes a dark theme with large fonts.", ["preference"]);
  await write("project/atlas", "Atlas moves billing to PostgreSQL in May.", ["project"]);
  for (let index = 0; index < 15; index += 1) {
    await write(`log/${index}`, `Standup log ${index}: nothing about editors.`, ["log"]);
  }
  return backend;
}

describe("memory_search", () => {
  it("passes the conformance kit, a cut page's marker reaching the rest", async () => {
    const search = createMemorySearchTool({ backend: await filled(), namespace: ["test"] });
    await assertConformance([search], {
      samples: { memory_search: { query: "vim editor" } },
      cutSamples: { memory_search: { query: "standup log", tags: ["log"], limit: 4 } },
    });
  });

  it("ranks the memory that holds the rare words first and excerpts long content around them", async () => {
    const backend = await filled();
    await backend.write(["test"], {
      key: "notes/long",
      content: `${"Filler sentence about nothing. ".repeat(40)}The boiler code is 7731.${" More filler.".repeat(20)}`,
      tags: [],
      now: NOW,
    });
    const search = createMemorySearchTool({
      backend,
      namespace: ["test"],
      maxExcerptCharacters: 120,
      mountedTools: ["memory_read"],
    });
    const result = await search.run({ query: "vim key bindings" });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.results[0]).toEqual({
      key: "user/editor",
      content: "Prefers Vim key bindings in every editor.",
      content_truncated: false,
      tags: ["preference"],
      score: expect.any(Number),
      updated_at: NOW.toISOString(),
    });
    const boiler = await search.run({ query: "boiler code" });
    if (!boiler.success) throw new Error("failed");
    const hit = boiler.data.results[0];
    expect(hit?.key).toBe("notes/long");
    expect(hit?.content_truncated).toBe(true);
    expect(hit?.content).toContain("The boiler code is 7731.");
    expect(hit?.content.startsWith("…")).toBe(true);
    expect(search.renderResult(boiler)).toContain('read a whole memory with memory_read key="…"');
  });

  it("excerpts a long memory where the query's words are densest, not at their first mention", async () => {
    const backend = createInMemoryMemoryBackend();
    // A real text nobody here wrote (Debian's Apache-2.0 licence), with one line of ours inside it:
    // "license" occurs all over; "staging license rotation" together only in our line.
    const licence = readFileSync("/usr/share/common-licenses/Apache-2.0", "utf8");
    const middle = Math.floor(licence.length / 2);
    const content = `${licence.slice(0, middle)}\nThe staging license rotation runs every Tuesday.\n${licence.slice(middle)}`;
    await backend.write(["test"], { key: "docs/licence", content, tags: [], now: NOW });
    const search = createMemorySearchTool({
      backend,
      namespace: ["test"],
      maxExcerptCharacters: 200,
    });
    const result = await search.run({ query: "staging license rotation" });
    if (!result.success) throw new Error(JSON.stringify(result));
    const hit = result.data.results[0];
    expect(hit?.content_truncated).toBe(true);
    expect(hit?.content).toContain("The staging license rotation runs every Tuesday.");
  });

  it("filters on every tag given and tells filtered_out from no_match", async () => {
    const search = createMemorySearchTool({ backend: await filled(), namespace: ["test"] });
    const filtered = (await search.run({ query: "editor", tags: ["project"] })) as {
      success: true;
      data: MemorySearchToolData;
    };
    expect(filtered.data).toMatchObject({
      results: [],
      empty_reason: "filtered_out",
      tags: ["project"],
    });
    expect(search.renderResult(filtered)).toContain(
      'Memories match "editor", but none carries every tag of tags=["project"]',
    );
    const both = (await search.run({ query: "editor", tags: ["preference", "log"] })) as {
      success: true;
      data: MemorySearchToolData;
    };
    expect(both.data.results).toEqual([]);
    // One type for tags everywhere: a list; a comma-separated string is taken as that list.
    const commas = await search.run({ query: "editor", tags: "preference, log" });
    expect(commas.success && commas.data.tags).toEqual(["preference", "log"]);
    const blank = await search.run({ query: "   " });
    expect(blank.success ? "" : blank.error.code).toBe("INVALID_INPUT");
  });

  it("re-indexes only what changed: a write, a replacement and a delete show up in the next search", async () => {
    const backend = await filled();
    const search = createMemorySearchTool({ backend, namespace: ["test"] });
    const count = async (query: string) => {
      const result = await search.run({ query });
      return result.success ? result.data.total : -1;
    };
    expect(await count("submarine")).toBe(0);
    await backend.write(["test"], {
      key: "new",
      content: "A yellow submarine.",
      tags: [],
      now: NOW,
    });
    expect(await count("submarine")).toBe(1);
    await backend.write(["test"], { key: "new", content: "A red bus.", tags: [], now: NOW });
    expect(await count("submarine")).toBe(0);
    expect(await count("bus")).toBe(1);
    await backend.delete(["test"], "new");
    expect(await count("bus")).toBe(0);
  });
});
