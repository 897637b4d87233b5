import { AgentoolError } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createMemoryTools, MEMORY_TOOL_NAME_LIST } from "./create-memory-tools.js";
import { createInMemoryMemoryBackend } from "./in-memory-memory-backend.js";
import type { MemoryListToolData } from "./memory-list.js";
import type { MemoryReadToolData } from "./memory-read.js";
import type { MemorySearchToolData } from "./memory-search.js";

function byName(tools: ReturnType<typeof createMemoryTools>) {
  return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
}

describe("createMemoryTools", () => {
  it("creates the five tools, which pass the conformance kit together and name only each other", async () => {
    const backend = createInMemoryMemoryBackend();
    const tools = createMemoryTools({ backend, namespace: ["kit"] });
    expect(tools.map((tool) => tool.name)).toEqual([...MEMORY_TOOL_NAME_LIST]);
    await backend.write(["kit"], { key: "seed", content: "seed words", tags: [], now: new Date() });
    await backend.write(["kit"], { key: "gone", content: "to delete", tags: [], now: new Date() });
    await assertConformance(tools, {
      samples: {
        memory_write: { key: "k", content: "kit words" },
        memory_read: { key: "seed" },
        memory_search: { query: "seed words" },
        memory_list: {},
        memory_delete: { key: "gone" },
      },
    });
    const readOnly = createMemoryTools({ backend, namespace: ["kit"], readOnly: true });
    expect(readOnly.map((tool) => tool.name)).toEqual([
      "memory_read",
      "memory_search",
      "memory_list",
    ]);
    for (const tool of readOnly) expect(tool.description).not.toMatch(/memory_(write|delete)/);
    await assertConformance(readOnly, {});
    const some = createMemoryTools({ backend, namespace: ["kit"], include: ["memory_write"] });
    expect(some[0]?.description).not.toMatch(/memory_(read|search)/);
  });

  it("takes the namespace from the call's thread id: threads never see each other's memories", async () => {
    const backend = createInMemoryMemoryBackend();
    const tools = byName(
      createMemoryTools({
        backend,
        namespace: (context) =>
          context.threadId === undefined ? undefined : ["thread", context.threadId],
      }),
    );
    const write = tools.memory_write;
    const read = tools.memory_read;
    const search = tools.memory_search;
    if (write === undefined || read === undefined || search === undefined)
      throw new Error("missing");
    await write.run({ key: "plan", content: "Thread one plans a picnic." }, { threadId: "one" });
    await write.run({ key: "plan", content: "Thread two plans a hike." }, { threadId: "two" });
    const one = await read.run({ key: "plan" }, { threadId: "one" });
    expect(one.success && (one.data as MemoryReadToolData).content).toBe(
      "Thread one plans a picnic.",
    );
    const two = await search.run({ query: "picnic" }, { threadId: "two" });
    expect(two.success && (two.data as MemorySearchToolData).total).toBe(0);
    const nobody = await read.run({ key: "plan" });
    expect(nobody.success ? undefined : nobody.error).toMatchObject({ code: "NOT_CONFIGURED" });
    expect(nobody.success ? "" : nobody.error.message).toContain("the call carries no thread id");
  });

  it("takes the namespace from host metadata; the model cannot pick one, and a failing function is NOT_CONFIGURED", async () => {
    const backend = createInMemoryMemoryBackend();
    const tools = byName(
      createMemoryTools({
        backend,
        namespace: (context) => ["user", String(context.metadata.user_id)],
      }),
    );
    const write = tools.memory_write;
    const list = tools.memory_list;
    if (write === undefined || list === undefined) throw new Error("missing");
    await write.run({ key: "a", content: "alice's" }, { metadata: { user_id: "alice" } });
    const sneaky = await write.run({ key: "a", content: "x", namespace: ["user", "alice"] });
    expect(sneaky.success ? "" : sneaky.error.code).toBe("INVALID_INPUT");
    const bob = await list.run({}, { metadata: { user_id: "bob" } });
    expect(bob.success && (bob.data as MemoryListToolData).total).toBe(0);
    const alice = await list.run({}, { metadata: { user_id: "alice" } });
    expect(alice.success && (alice.data as MemoryListToolData).total).toBe(1);
    const failing = byName(
      createMemoryTools({
        backend,
        namespace: () => {
          throw new Error("no session");
        },
      }),
    );
    const result = await failing.memory_read?.run({ key: "a" });
    expect(result?.success ? "" : result?.error.message).toContain(
      "namespace function failed (no session)",
    );
    const empty = byName(createMemoryTools({ backend, namespace: () => ["user", ""] }));
    const blank = await empty.memory_list?.run({});
    expect(blank?.success ? "" : blank?.error.code).toBe("NOT_CONFIGURED");
  });

  it("refuses invalid options with a message that says what to fix", () => {
    const backend = createInMemoryMemoryBackend();
    expect(() => createMemoryTools({ backend, namespace: [] })).toThrow(AgentoolError);
    expect(() => createMemoryTools({ backend, namespace: [] })).toThrow(/namespace is empty/);
    expect(() => createMemoryTools({ backend: {} as never, namespace: ["a"] })).toThrow(
      /expected a MemoryBackend/,
    );
    expect(() =>
      createMemoryTools({ backend, namespace: ["a"], include: ["memory_nope"] }),
    ).toThrow(AgentoolError);
  });
});
