import { type AnyTool, contentToText, parseNextCall } from "@agentool/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryTools } from "../create-memory-tools.js";
import type { MemoryBackend } from "../memory-backend.js";
import type { MemoryListToolData } from "../memory-list.js";
import type { MemoryReadToolData } from "../memory-read.js";
import type { MemorySearchToolData } from "../memory-search.js";
import type { MemoryWriteToolData } from "../memory-write.js";

/** What a backend under test provides. */
export interface MemoryBackendFixture {
  /** A backend over the shared storage. */
  backend: MemoryBackend;
  /**
   * Another backend over the same storage, as a second process would open it (its own caches):
   * what one writes, the other must see.
   */
  reopen(): MemoryBackend | Promise<MemoryBackend>;
  /** Frees the storage. */
  cleanup(): void | Promise<void>;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Tools = Record<"write" | "read" | "search" | "list" | "delete", AnyTool>;

function toolsOf(backend: MemoryBackend, namespace: readonly string[], now?: () => Date): Tools {
  const [write, read, search, list, remove] = createMemoryTools({
    backend,
    namespace,
    ...(now === undefined ? {} : { now }),
  });
  return {
    write: write as AnyTool,
    read: read as AnyTool,
    search: search as AnyTool,
    list: list as AnyTool,
    delete: remove as AnyTool,
  };
}

async function data<T>(tool: AnyTool, input: unknown): Promise<T> {
  const result = await tool.run(input);
  if (!result.success) throw new Error(`${tool.name} failed: ${JSON.stringify(result.error)}`);
  return result.data as T;
}

function render(tool: AnyTool, result: Parameters<AnyTool["renderResult"]>[0]): string {
  return contentToText(tool.renderResult(result));
}

let namespaceCounter = 0;

/**
 * The one backend suite: every memory backend (file store, in-process map, LangGraph
 * InMemoryStore, PostgresStore on a real server) runs these same tests through the five tools.
 * Each test writes into a namespace of its own, so the storage can be shared by the whole suite.
 *
 * @param name - the backend's name in the test titles
 * @param open - makes the fixture (called once, before the tests)
 */
export function describeMemoryBackend(
  name: string,
  open: () => MemoryBackendFixture | Promise<MemoryBackendFixture>,
): void {
  describe(`memory backend suite: ${name}`, () => {
    let fixture: MemoryBackendFixture;
    const fresh = (label = "test") => {
      namespaceCounter += 1;
      return ["suite", `${label}-${namespaceCounter}-${Date.now()}`];
    };

    beforeAll(async () => {
      fixture = await open();
    }, 120_000);

    afterAll(async () => {
      await fixture?.cleanup();
    }, 60_000);

    it("writes, reads back whole, replaces keeping created_at, and says which", async () => {
      let clock = new Date("2026-03-04T05:06:07.000Z");
      const tools = toolsOf(fixture.backend, fresh(), () => clock);
      const first = await data<MemoryWriteToolData>(tools.write, {
        key: "user/preferences/editor",
        content: "Prefers Vim key bindings and a dark theme.",
        tags: ["preference", "editor", "preference"],
      });
      expect(first).toEqual({
        key: "user/preferences/editor",
        created: true,
        created_at: "2026-03-04T05:06:07.000Z",
        updated_at: "2026-03-04T05:06:07.000Z",
        tags: ["preference", "editor"],
        characters: 42,
      });
      const read = await data<MemoryReadToolData>(tools.read, { key: "user/preferences/editor" });
      expect(read).toEqual({
        key: "user/preferences/editor",
        content: "Prefers Vim key bindings and a dark theme.",
        tags: ["preference", "editor"],
        created_at: "2026-03-04T05:06:07.000Z",
        updated_at: "2026-03-04T05:06:07.000Z",
      });
      clock = new Date("2026-03-05T00:00:00.000Z");
      const second = await data<MemoryWriteToolData>(tools.write, {
        key: "user/preferences/editor",
        content: "Switched to Emacs.",
        overwrite: true,
      });
      expect(second).toMatchObject({
        created: false,
        created_at: "2026-03-04T05:06:07.000Z",
        updated_at: "2026-03-05T00:00:00.000Z",
        tags: [],
      });
      const again = await data<MemoryReadToolData>(tools.read, { key: "user/preferences/editor" });
      expect(again.content).toBe("Switched to Emacs.");
      expect(again.tags).toEqual([]);
      expect(again.created_at).toMatch(ISO);
      expect(render(tools.read, { success: true, data: again })).toContain("Switched to Emacs.");
    });

    it("an unknown key is MEMORY_KEY_NOT_FOUND naming the closest keys", async () => {
      const tools = toolsOf(fixture.backend, fresh());
      await data(tools.write, { key: "project/atlas/deadline", content: "Ships on May 3." });
      await data(tools.write, { key: "project/zephyr/owner", content: "Dana owns it." });
      const missing = await tools.read.run({ key: "project/atlas/deadlin" });
      expect(missing.success).toBe(false);
      if (missing.success) return;
      expect(missing.error.code).toBe("MEMORY_KEY_NOT_FOUND");
      expect(missing.error.message).toContain('"project/atlas/deadline"');
      expect(missing.error.hint).toContain('key="project/atlas/deadline"');
      const other = await tools.read.run({ key: "PROJECT/ZEPHYR/OWNER" });
      expect(other.success ? "" : other.error.message).toContain('"project/zephyr/owner"');
      const none = await tools.delete.run({ key: "nothing-like-it-at-all" });
      expect(none.success ? "" : none.error.code).toBe("MEMORY_KEY_NOT_FOUND");
    });

    it("searches key, tags and content with BM25, best first, tag filter exact", async () => {
      const tools = toolsOf(fixture.backend, fresh());
      await data(tools.write, {
        key: "user/editor",
        content: "Prefers Vim key bindings.",
        tags: ["preference"],
      });
      await data(tools.write, {
        key: "user/timezone",
        content: "Lives in Lisbon; schedule calls after 10:00 local time.",
        tags: ["preference", "Schedule"],
      });
      await data(tools.write, {
        key: "project/atlas",
        content: "Atlas migrates the billing database to PostgreSQL in May.",
        tags: ["project"],
      });
      const byContent = await data<MemorySearchToolData>(tools.search, {
        query: "billing database",
      });
      expect(byContent.results[0]?.key).toBe("project/atlas");
      expect(byContent.total).toBe(1);
      expect(byContent.results[0]?.score).toBeGreaterThan(0);
      const byKey = await data<MemorySearchToolData>(tools.search, { query: "timezone" });
      expect(byKey.results[0]?.key).toBe("user/timezone");
      const byTag = await data<MemorySearchToolData>(tools.search, { query: "preference" });
      expect(byTag.results.map((result) => result.key).sort()).toEqual([
        "user/editor",
        "user/timezone",
      ]);
      const tagged = await data<MemorySearchToolData>(tools.search, {
        query: "preference",
        tags: ["Schedule"],
      });
      expect(tagged.results.map((result) => result.key)).toEqual(["user/timezone"]);
      const wrongCase = await data<MemorySearchToolData>(tools.search, {
        query: "preference",
        tags: ["schedule"],
      });
      expect(wrongCase.results).toEqual([]);
      expect(wrongCase.empty_reason).toBe("filtered_out");
      const nothing = await data<MemorySearchToolData>(tools.search, { query: "kubernetes" });
      expect(nothing.empty_reason).toBe("no_match");
      expect(render(tools.search, { success: true, data: nothing })).toContain(
        'No memory matches "kubernetes" among 3 memories',
      );
      const empty = toolsOf(fixture.backend, fresh());
      const none = await data<MemorySearchToolData>(empty.search, { query: "anything" });
      expect(none.empty_reason).toBe("no_memories");
    });

    it("pages search results and lists through the marker's next call", async () => {
      const tools = toolsOf(fixture.backend, fresh());
      for (let index = 0; index < 7; index += 1) {
        await data(tools.write, {
          key: `note/${String(index).padStart(2, "0")}`,
          content: `Lighthouse note number ${index}${" lighthouse".repeat(index)}.`,
          tags: index % 2 === 0 ? ["even"] : ["odd"],
        });
      }
      const first = await data<MemorySearchToolData>(tools.search, {
        query: "lighthouse",
        limit: 3,
      });
      expect(first).toMatchObject({
        total: 7,
        truncated: true,
        next_offset: 4,
        offset: 1,
        limit: 3,
      });
      const text = render(tools.search, { success: true, data: first });
      const next = parseNextCall(text);
      expect(next).toEqual({
        tool: "memory_search",
        args: { query: "lighthouse", limit: 3, offset: 4 },
      });
      const second = await data<MemorySearchToolData>(tools.search, next?.args);
      expect(second.offset).toBe(4);
      const seen = [...first.results, ...second.results].map((result) => result.key);
      expect(new Set(seen).size).toBe(6);
      const same = await data<MemorySearchToolData>(tools.search, {
        query: "lighthouse",
        limit: 3,
      });
      expect(same).toEqual(first);
      const past = await tools.search.run({ query: "lighthouse", offset: 9 });
      expect(past.success ? "" : past.error.code).toBe("INVALID_INPUT");

      const listed = await data<MemoryListToolData>(tools.list, { limit: 5 });
      expect(listed.entries.map((entry) => entry.key)).toEqual([
        "note/00",
        "note/01",
        "note/02",
        "note/03",
        "note/04",
      ]);
      expect(listed).toMatchObject({ total: 7, next_offset: 6, memories: 7 });
      const listNext = parseNextCall(render(tools.list, { success: true, data: listed }));
      const rest = await data<MemoryListToolData>(tools.list, listNext?.args);
      expect(rest.entries.map((entry) => entry.key)).toEqual(["note/05", "note/06"]);
      const odd = await data<MemoryListToolData>(tools.list, { tags: ["odd"], prefix: "note/0" });
      expect(odd.entries.map((entry) => entry.key)).toEqual(["note/01", "note/03", "note/05"]);
      expect(odd.entries[0]).toMatchObject({ tags: ["odd"], characters: 36 });
      expect(odd.entries[0]?.updated_at).toMatch(ISO);
      const none = await data<MemoryListToolData>(tools.list, { prefix: "other/" });
      expect(none).toMatchObject({ entries: [], total: 0, memories: 7 });
    });

    it("deletes a memory: gone from read, search and list", async () => {
      const tools = toolsOf(fixture.backend, fresh());
      await data(tools.write, { key: "temp/code", content: "The door code is 4711." });
      await data(tools.write, { key: "temp/other", content: "Unrelated note." });
      expect(await data(tools.delete, { key: "temp/code" })).toEqual({
        key: "temp/code",
        deleted: true,
      });
      const read = await tools.read.run({ key: "temp/code" });
      expect(read.success ? "" : read.error.code).toBe("MEMORY_KEY_NOT_FOUND");
      const found = await data<MemorySearchToolData>(tools.search, { query: "door code" });
      expect(found.results).toEqual([]);
      const listed = await data<MemoryListToolData>(tools.list, {});
      expect(listed.entries.map((entry) => entry.key)).toEqual(["temp/other"]);
      const twice = await tools.delete.run({ key: "temp/code" });
      expect(twice.success ? "" : twice.error.code).toBe("MEMORY_KEY_NOT_FOUND");
    });

    it("keeps namespaces apart: users, nested namespaces, look-alike labels", async () => {
      const base = fresh("isolation");
      const labels = [
        [...base, "alice"],
        [...base, "bob"],
        [...base, "alice", "thread-1"],
        [...base, "a.b"],
        [...base, "a:b"],
        [...base, "a_b"],
        [...base, "a~2eb"],
        [...base, "alice@example.com"],
        [...base, "用户"],
      ];
      for (const [index, namespace] of labels.entries()) {
        const tools = toolsOf(fixture.backend, namespace);
        await data(tools.write, { key: "secret", content: `owner ${index} zebra` });
      }
      for (const [index, namespace] of labels.entries()) {
        const tools = toolsOf(fixture.backend, namespace);
        const read = await data<MemoryReadToolData>(tools.read, { key: "secret" });
        expect(read.content).toBe(`owner ${index} zebra`);
        const found = await data<MemorySearchToolData>(tools.search, { query: "zebra owner" });
        expect(found.results.map((result) => result.content)).toEqual([`owner ${index} zebra`]);
        const listed = await data<MemoryListToolData>(tools.list, {});
        expect(listed.total).toBe(1);
      }
      const alice = toolsOf(fixture.backend, [...base, "alice"]);
      await data(alice.delete, { key: "secret" });
      const thread = toolsOf(fixture.backend, [...base, "alice", "thread-1"]);
      expect((await data<MemoryReadToolData>(thread.read, { key: "secret" })).content).toBe(
        "owner 2 zebra",
      );
    });

    it("a second opening of the same storage sees every write, update and delete", async () => {
      const namespace = fresh("shared");
      const one = toolsOf(fixture.backend, namespace);
      const other = toolsOf(await fixture.reopen(), namespace);
      // Warm the second side's caches first, so it must notice the changes.
      expect((await data<MemorySearchToolData>(other.search, { query: "harbour" })).total).toBe(0);
      await data(one.write, { key: "a", content: "The harbour opens at dawn." });
      await data(one.write, { key: "b", content: "The harbour closes at dusk." });
      expect((await data<MemorySearchToolData>(other.search, { query: "harbour" })).total).toBe(2);
      await data(one.write, { key: "a", content: "The market opens at dawn.", overwrite: true });
      await data(one.delete, { key: "b" });
      const after = await data<MemorySearchToolData>(other.search, { query: "harbour" });
      expect(after.total).toBe(0);
      const market = await data<MemorySearchToolData>(other.search, { query: "market" });
      expect(market.results.map((result) => result.key)).toEqual(["a"]);
      await data(other.write, { key: "c", content: "Written by the other side." });
      expect(
        (await data<MemoryListToolData>(one.list, {})).entries.map((entry) => entry.key),
      ).toEqual(["a", "c"]);
    });

    it("stores any script, long content and many tags exactly", async () => {
      const tools = toolsOf(fixture.backend, fresh());
      const content = `用户喜欢简洁的回答。\n${"Ünïcödé 🚀 line\n".repeat(300)}`;
      const tags = ["偏好", "a", "b", "c", "d", "e", "f", "g", "h", "project:atlas"];
      await data(tools.write, { key: "用户/偏好", content, tags });
      const read = await data<MemoryReadToolData>(tools.read, { key: "用户/偏好" });
      expect(read.content).toBe(content);
      expect(read.tags).toEqual(tags);
      const found = await data<MemorySearchToolData>(tools.search, { query: "rocket 🚀 Ünïcödé" });
      expect(found.results[0]?.key).toBe("用户/偏好");
      expect(found.results[0]?.content_truncated).toBe(true);
      expect(found.results[0]?.content.length).toBeLessThanOrEqual(401);
      const byTag = await data<MemorySearchToolData>(tools.search, {
        query: "偏好",
        tags: ["project:atlas"],
      });
      expect(byTag.results[0]?.key).toBe("用户/偏好");
    });
  });
}
