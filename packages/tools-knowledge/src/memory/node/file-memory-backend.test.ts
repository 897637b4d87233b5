import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryTools } from "../create-memory-tools.js";
import type { MemorySearchToolData } from "../memory-search.js";
import { memoryFiles } from "../test-support/memory-folders.js";
import { createFileMemoryBackend } from "./file-memory-backend.js";
import { FILE_MEMORY_STALE_TEMP_MS } from "./file-memory-format.js";

describe("file memory store", () => {
  it("ignores foreign and torn files, removes stale temporary files, skips a corrupt newest version", async () => {
    const directory = mkdtempSync(join(tmpdir(), "agentool-memory-junk-"));
    try {
      const warnings: string[] = [];
      const backend = createFileMemoryBackend({ directory, onWarn: (text) => warnings.push(text) });
      const now = new Date();
      await backend.write(["n"], { key: "k", content: "first", tags: [], now });
      const [file] = memoryFiles(directory);
      if (file === undefined) throw new Error("no file");
      const folder = join(file, "..");
      const name = file.slice(folder.length + 1);
      // A newer version that is not a memory file (never written by the store, but survive it).
      const newer = name.replace(
        /\.(\d{17})-/,
        (_, micros: string) => `.${(BigInt(micros) + 5n).toString().padStart(17, "0")}-`,
      );
      writeFileSync(join(folder, newer), "{ torn");
      writeFileSync(join(folder, "notes.txt"), "not ours");
      const stale = join(folder, ".deadbeef.123.abc.tmp");
      writeFileSync(stale, "half a write");
      const old = (Date.now() - FILE_MEMORY_STALE_TEMP_MS - 60_000) / 1000;
      utimesSync(stale, old, old);
      const fresh = createFileMemoryBackend({ directory, onWarn: (text) => warnings.push(text) });
      expect((await fresh.read(["n"], "k"))?.content).toBe("first");
      const snapshot = await fresh.snapshot(["n"]);
      expect([...snapshot.records.keys()]).toEqual(["k"]);
      expect(warnings.some((text) => text.includes("is not a memory file"))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(existsSync(stale)).toBe(false);
      // The next write supersedes both versions and cleans them up.
      await fresh.write(["n"], { key: "k", content: "second", tags: [], now });
      expect((await backend.read(["n"], "k"))?.content).toBe("second");
      expect(readdirSync(folder).filter((entry) => entry.endsWith(".json"))).toHaveLength(1);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("searches 10,000 memories fast once warm, and a change costs one shard's listing", async () => {
    const directory = mkdtempSync(join(tmpdir(), "agentool-memory-many-"));
    try {
      const backend = createFileMemoryBackend({ directory });
      const words = [
        "harbour",
        "lantern",
        "meadow",
        "copper",
        "violet",
        "summit",
        "orchard",
        "falcon",
      ];
      // Fill quickly: the store's own write per memory, in parallel batches.
      const total = 10_000;
      for (let start = 0; start < total; start += 500) {
        await Promise.all(
          Array.from({ length: 500 }, (_, offset) => {
            const index = start + offset;
            return backend.write(["many"], {
              key: `note/${index}`,
              content: `Note ${index} about the ${words[index % 8]} and the ${words[(index * 7) % 8]} number z${index}.`,
              tags: [words[index % 8] as string],
              now: new Date(),
            });
          }),
        );
      }
      const [, , search] = createMemoryTools({
        backend: createFileMemoryBackend({ directory }),
        namespace: ["many"],
      });
      if (search === undefined) throw new Error("missing");
      const first = await search.run({ query: "z4242" });
      expect(first.success && (first.data as MemorySearchToolData).results[0]?.key).toBe(
        "note/4242",
      );
      const timings: number[] = [];
      for (let round = 0; round < 15; round += 1) {
        const started = performance.now();
        const result = await search.run({ query: `${words[round % 8]} z${round * 31}`, limit: 10 });
        timings.push(performance.now() - started);
        expect(result.success).toBe(true);
      }
      timings.sort((left, right) => left - right);
      // The target is 20 ms (the benchmark measures it); the bound leaves room for a busy machine.
      expect(timings[7]).toBeLessThan(60);
      await backend.write(["many"], {
        key: "note/new",
        content: "A brand new zzyzx memory.",
        tags: [],
        now: new Date(),
      });
      const after = await search.run({ query: "zzyzx" });
      expect(after.success && (after.data as MemorySearchToolData).results[0]?.key).toBe(
        "note/new",
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 180_000);

  it("keeps namespaces in folders of their own, long labels hashed", async () => {
    const directory = mkdtempSync(join(tmpdir(), "agentool-memory-folders-"));
    try {
      const backend = createFileMemoryBackend({ directory });
      const long = "L".repeat(150);
      await backend.write(["alice@example.com", long], {
        key: "k",
        content: "x",
        tags: [],
        now: new Date(),
      });
      mkdirSync(join(directory, "unrelated"), { recursive: true });
      const [top] = readdirSync(directory).filter((name) => name !== "unrelated");
      expect(top).toBe("alice~40example~2ecom");
      const [inner] = readdirSync(join(directory, top as string));
      expect(inner).toMatch(/^=[0-9a-f]{64}$/);
      expect((await backend.read(["alice@example.com", long], "k"))?.content).toBe("x");
      expect(await backend.read(["alice@example.com"], "k")).toBeUndefined();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
