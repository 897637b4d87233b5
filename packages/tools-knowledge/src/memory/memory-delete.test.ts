import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createInMemoryMemoryBackend } from "./in-memory-memory-backend.js";
import { createMemoryDeleteTool, formatMemoryDeleteResult } from "./memory-delete.js";

describe("memory_delete", () => {
  it("passes the conformance kit and is annotated destructive", async () => {
    const backend = createInMemoryMemoryBackend();
    await backend.write(["test"], { key: "old", content: "x", tags: [], now: new Date() });
    const remove = createMemoryDeleteTool({ backend, namespace: ["test"] });
    await assertConformance([remove], { samples: { memory_delete: { key: "old" } } });
    expect(remove.annotations.destructive).toBe(true);
    expect(backend.size).toBe(0);
  });

  it("deletes once; a second delete or a typo is MEMORY_KEY_NOT_FOUND and deletes nothing", async () => {
    const backend = createInMemoryMemoryBackend();
    await backend.write(["test"], { key: "user/editor", content: "x", tags: [], now: new Date() });
    await backend.write(["test"], { key: "user/shell", content: "y", tags: [], now: new Date() });
    const remove = createMemoryDeleteTool({ backend, namespace: ["test"] });
    const typo = await remove.run({ key: "user/edito" });
    expect(typo.success ? "" : typo.error.message).toContain(
      'Closest keys: "user/editor", "user/shell"',
    );
    expect(backend.size).toBe(2);
    const done = await remove.run({ key: "user/editor" });
    expect(done).toEqual({ success: true, data: { key: "user/editor", deleted: true } });
    expect(formatMemoryDeleteResult({ key: "user/editor", deleted: true })).toBe(
      'Deleted the memory "user/editor".',
    );
    const again = await remove.run({ key: "user/editor" });
    expect(again.success ? "" : again.error.code).toBe("MEMORY_KEY_NOT_FOUND");
    expect(backend.size).toBe(1);
  });
});
