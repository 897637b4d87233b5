import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createInMemoryMemoryBackend } from "./in-memory-memory-backend.js";
import { createMemoryReadTool, formatMemoryReadResult } from "./memory-read.js";

const NOW = new Date("2026-03-04T05:06:07.000Z");

async function filled() {
  const backend = createInMemoryMemoryBackend();
  for (const key of ["user/editor", "user/timezone", "project/atlas"]) {
    await backend.write(["test"], { key, content: `About ${key}.`, tags: ["t"], now: NOW });
  }
  return backend;
}

describe("memory_read", () => {
  it("passes the conformance kit", async () => {
    const read = createMemoryReadTool({ backend: await filled(), namespace: ["test"] });
    await assertConformance([read], { samples: { memory_read: { key: "user/editor" } } });
  });

  it("reads a memory whole and renders it", async () => {
    const read = createMemoryReadTool({ backend: await filled(), namespace: ["test"] });
    const result = await read.run({ id: "project/atlas" });
    expect(result).toEqual({
      success: true,
      data: {
        key: "project/atlas",
        content: "About project/atlas.",
        tags: ["t"],
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      },
    });
    if (result.success) {
      expect(formatMemoryReadResult(result.data)).toBe(
        'Memory "project/atlas" (tags: t; written 2026-03-04T05:06:07.000Z):\nAbout project/atlas.',
      );
    }
  });

  it("an unknown key names the closest keys and, when mounted, the search and list tools", async () => {
    const read = createMemoryReadTool({
      backend: await filled(),
      namespace: ["test"],
      mountedTools: ["memory_search", "memory_list"],
    });
    const result = await read.run({ key: "user/edtior" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("MEMORY_KEY_NOT_FOUND");
    expect(result.error.message).toBe(
      'No memory has the key "user/edtior". Closest key: "user/editor".',
    );
    expect(result.error.hint).toContain("memory_search to find a memory by its words");
    expect(result.error.hint).toContain("memory_list to see the keys");
    const far = await read.run({ key: "zzzzzzzzzzzz" });
    expect(far.success ? "" : far.error.message).toBe('No memory has the key "zzzzzzzzzzzz".');
    const alone = createMemoryReadTool({ backend: await filled(), namespace: ["test"] });
    const plain = await alone.run({ key: "nope" });
    expect(plain.success ? "" : (plain.error.hint ?? "")).not.toMatch(/memory_(search|list)/);
  });
});
