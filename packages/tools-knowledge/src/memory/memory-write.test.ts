import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createInMemoryMemoryBackend } from "./in-memory-memory-backend.js";
import { createMemoryWriteTool, formatMemoryWriteResult } from "./memory-write.js";

const NOW = new Date("2026-03-04T05:06:07.000Z");

describe("memory_write", () => {
  it("passes the conformance kit, alone and beside memory_read", async () => {
    const alone = createMemoryWriteTool({
      backend: createInMemoryMemoryBackend(),
      namespace: ["test"],
      now: () => NOW,
    });
    await assertConformance([alone], {
      samples: {
        memory_write: { key: "user/editor", content: "Prefers Vim.", tags: ["preference"] },
      },
    });
    expect(alone.description).not.toMatch(/memory_(read|search)/);
    const paired = createMemoryWriteTool({
      backend: createInMemoryMemoryBackend(),
      namespace: ["test"],
      mountedTools: ["memory_read", "memory_search"],
    });
    await assertConformance([paired], {
      samples: { memory_write: { key: "a", content: "b" } },
      alsoMounted: ["memory_read", "memory_search"],
    });
    expect(paired.description).toContain("memory_search (by words) or memory_read (by key)");
  });

  it("refuses bad keys, oversized content, too many or malformed tags, blank content and private keys", async () => {
    const write = createMemoryWriteTool({
      backend: createInMemoryMemoryBackend(),
      namespace: ["test"],
      maxContentCharacters: 100,
    });
    const refusal = async (input: unknown) => {
      const result = await write.run(input);
      if (result.success) throw new Error(`accepted ${JSON.stringify(input)}`);
      return result.error;
    };
    expect((await refusal({ key: "my key", content: "x" })).message).toContain(
      'key "my key" holds " "',
    );
    expect((await refusal({ key: "../etc/passwd", content: "x" })).message).toContain(
      'starts with "."',
    );
    expect((await refusal({ key: "k".repeat(129), content: "x" })).message).toContain(
      "at most 128 characters",
    );
    const big = await refusal({ key: "a", content: "x".repeat(101) });
    expect(big.code).toBe("INVALID_INPUT");
    expect(big.message).toContain("at most 100 characters — save a shorter summary");
    expect(
      (
        await refusal({
          key: "a",
          content: "x",
          tags: Array.from({ length: 11 }, (_, i) => `t${i}`),
        })
      ).message,
    ).toContain("at most 10 tags");
    expect((await refusal({ key: "a", content: "x", tags: ["two words"] })).message).toContain(
      "is not one word",
    );
    const longTag = await refusal({ key: "a", content: "x", tags: ["t".repeat(33)] });
    expect(longTag.code).toBe("INVALID_INPUT");
    expect(longTag.message).toContain("33 characters long; at most 32 are accepted");
    expect((await refusal({ key: "a", content: "x", tags: ["t".repeat(60)] })).message).toContain(
      "a tag is at most 32 characters",
    );
    expect((await refusal({ key: "a", content: "   " })).message).toContain("content is blank");
    const key = await refusal({
      key: "a",
      content: "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----",
    });
    expect(key.code).toBe("BLOCKED");
  });

  it("never replaces an existing memory without overwrite: true (CONFLICT naming memory_read), and replaces it with it", async () => {
    const backend = createInMemoryMemoryBackend();
    const write = createMemoryWriteTool({
      backend,
      namespace: ["test"],
      now: () => NOW,
      mountedTools: ["memory_read"],
    });
    const first = await write.run({ key: "user/editor", content: "Prefers Vim.", tags: ["a"] });
    expect(first).toMatchObject({ success: true, data: { created: true } });
    const second = await write.run({ key: "user/editor", content: "Prefers Emacs." });
    if (second.success) throw new Error(`replaced without overwrite: ${JSON.stringify(second)}`);
    expect(second.error.code).toBe("CONFLICT");
    expect(second.error.message).toContain('"user/editor" already exists');
    expect(second.error.hint).toContain('memory_read key="user/editor"');
    expect(second.error.hint).toContain("overwrite: true");
    expect((await backend.read(["test"], "user/editor"))?.content).toBe("Prefers Vim.");
    // A retry of the very same write is no replacement: it succeeds and changes nothing.
    const retried = await write.run({ key: "user/editor", content: "Prefers Vim.", tags: ["a"] });
    expect(retried).toMatchObject({ success: true, data: { created: false, characters: 12 } });
    const replaced = await write.run({
      key: "user/editor",
      content: "Prefers Emacs.",
      overwrite: true,
    });
    expect(replaced).toMatchObject({ success: true, data: { created: false, tags: [] } });
    expect((await backend.read(["test"], "user/editor"))?.content).toBe("Prefers Emacs.");
    // overwrite: true on a new key simply creates it.
    const created = await write.run({ key: "new", content: "x", overwrite: true });
    expect(created).toMatchObject({ success: true, data: { created: true } });
  });

  it("names no absent tool when memory_read is not mounted", async () => {
    const write = createMemoryWriteTool({
      backend: createInMemoryMemoryBackend(),
      namespace: ["test"],
    });
    await write.run({ key: "k", content: "one" });
    const second = await write.run({ key: "k", content: "two" });
    if (second.success) throw new Error("replaced without overwrite");
    expect(`${second.error.message} ${second.error.hint}`).not.toContain("memory_read");
    expect(second.error.hint).toContain("overwrite: true");
  });

  it("accepts the aliases other toolsets send and trims tags", async () => {
    const backend = createInMemoryMemoryBackend();
    const write = createMemoryWriteTool({ backend, namespace: ["test"], now: () => NOW });
    const result = await write.run({ name: "x", text: "hello", labels: [" a ", "a", "b"] });
    expect(result).toEqual({
      success: true,
      data: {
        key: "x",
        created: true,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
        tags: ["a", "b"],
        characters: 5,
      },
    });
    expect(backend.size).toBe(1);
  });

  it("renders new and replaced memories", () => {
    const data = {
      key: "k",
      created: false,
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-02-01T00:00:00.000Z",
      tags: [],
      characters: 1,
    };
    expect(formatMemoryWriteResult(data, { readToolName: "memory_read" })).toBe(
      'Replaced the memory "k" (1 character; no tags) at 2026-02-01T00:00:00.000Z; first written 2026-01-01T00:00:00.000Z.\nRead it back with memory_read key="k".',
    );
  });

  it("turns a failing backend into a retryable NETWORK_ERROR or an INTERNAL with the message", async () => {
    const broken = createInMemoryMemoryBackend();
    broken.write = async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
        code: "ECONNREFUSED",
      });
    };
    const write = createMemoryWriteTool({ backend: broken, namespace: ["test"] });
    const result = await write.run({ key: "a", content: "b" });
    expect(result.success ? undefined : result.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
    });
    broken.write = async () => {
      throw new Error("disk on fire");
    };
    const other = await write.run({ key: "a", content: "b" });
    expect(other.success ? undefined : other.error).toMatchObject({ code: "INTERNAL" });
    expect(other.success ? "" : other.error.message).toContain("disk on fire");
  });
});
