import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryTools } from "../memory/create-memory-tools.js";
import { createMemoryListTool } from "../memory/memory-list.js";
import { createMemoryReadTool } from "../memory/memory-read.js";
import type { MemorySearchToolData } from "../memory/memory-search.js";
import { createMemorySearchTool } from "../memory/memory-search.js";
import { createMemoryWriteTool } from "../memory/memory-write.js";
import { createFileMemoryBackend, FILE_MEMORY_STALE_TEMP_MS } from "./file-memory-backend.js";

/*
 * Child processes need runnable JavaScript: the package is compiled once into a private temp
 * folder (`tsc --noCheck`, emit only), never into dist/; a node_modules link resolves its
 * dependencies.
 */
const packageDirectory = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(import.meta.url);

const CHILD = `
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileMemoryBackend } from "./dist/node/index.js";

const [mode, directory, id, count, barrier] = process.argv.slice(2);
const backend = createFileMemoryBackend({ directory });
const namespace = ["shared"];
if (mode === "writer") {
  writeFileSync(join(barrier, "ready-" + id), "");
  const other = id === "a" ? "b" : "a";
  while (!existsSync(join(barrier, "ready-" + other))) await new Promise((resolve) => setTimeout(resolve, 2));
  for (let index = 0; index < Number(count); index += 1) {
    await backend.write(namespace, { key: id + "/" + index, content: "own " + id + " " + index, tags: [id], now: new Date() });
    const body = id + ":" + index + ":" + "x".repeat(20000);
    await backend.write(namespace, { key: "same", content: body, tags: [id], now: new Date() });
  }
  process.stdout.write("done");
} else {
  // crash: rewrite one key with big bodies until killed.
  const big = "y".repeat(4 * 1024 * 1024);
  writeFileSync(join(barrier, "started-" + id), "");
  for (let index = 0; ; index += 1) {
    await backend.write(namespace, { key: "big", content: id + ":" + index + ":" + big, tags: [], now: new Date() });
    await backend.write(namespace, { key: "small-" + index, content: "small " + index, tags: [], now: new Date() });
  }
}
`;

let work = "";

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "agentool-memory-processes-"));
  symlinkSync(join(packageDirectory, "node_modules"), join(work, "node_modules"), "dir");
  execFileSync(
    process.execPath,
    [
      require.resolve("typescript/bin/tsc"),
      "-p",
      "tsconfig.build.json",
      "--outDir",
      join(work, "dist"),
      "--noCheck",
      "--declaration",
      "false",
      "--declarationMap",
      "false",
      "--sourceMap",
      "false",
    ],
    { cwd: packageDirectory, stdio: "pipe" },
  );
  writeFileSync(join(work, "child.mjs"), CHILD);
}, 120_000);

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

function runChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(work, "child.mjs"), ...args], { cwd: work });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      errors += chunk;
    });
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`child failed (${code}): ${errors}`)),
    );
  });
}

function toolsOver(directory: string) {
  const backend = createFileMemoryBackend({ directory });
  const common = { backend, namespace: ["shared"] };
  return {
    write: createMemoryWriteTool(common),
    read: createMemoryReadTool(common),
    search: createMemorySearchTool(common),
    list: createMemoryListTool(common),
  };
}

function memoryFiles(directory: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name));
      else found.push(join(folder, entry.name));
    }
  };
  if (existsSync(directory)) walk(directory);
  return found;
}

describe("file memory store", () => {
  it("two processes writing at once: different keys lose nothing, the same key ends whole with a last write", async () => {
    const directory = mkdtempSync(join(tmpdir(), "agentool-memory-two-"));
    const barrier = mkdtempSync(join(tmpdir(), "agentool-memory-barrier-"));
    try {
      const count = 60;
      await Promise.all([
        runChild(["writer", directory, "a", String(count), barrier]),
        runChild(["writer", directory, "b", String(count), barrier]),
      ]);
      // A fresh process's view (a restart): every key of both writers is there.
      const tools = toolsOver(directory);
      const listed = await tools.list.run({ limit: 500 });
      expect(listed.success).toBe(true);
      if (!listed.success) return;
      expect(listed.data.total).toBe(2 * count + 1);
      for (const id of ["a", "b"]) {
        for (let index = 0; index < count; index += 1) {
          const read = await tools.read.run({ key: `${id}/${index}` });
          expect(read.success && read.data.content).toBe(`own ${id} ${index}`);
        }
      }
      const same = await tools.read.run({ key: "same" });
      expect(same.success).toBe(true);
      if (!same.success) return;
      // Whole: one writer's body, never a mix, and the last one that writer wrote.
      expect(same.data.content).toMatch(new RegExp(`^(a|b):${count - 1}:x{20000}$`));
      expect(same.data.tags).toEqual([same.data.content.charAt(0)]);
      expect(memoryFiles(directory).filter((file) => file.endsWith(".tmp"))).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
      rmSync(barrier, { recursive: true, force: true });
    }
  }, 120_000);

  it("survives kill -9 in the middle of writes: every memory is whole, leftovers are ignored, writing goes on", async () => {
    const directory = mkdtempSync(join(tmpdir(), "agentool-memory-crash-"));
    const barrier = mkdtempSync(join(tmpdir(), "agentool-memory-barrier-"));
    try {
      for (let round = 0; round < 4; round += 1) {
        const child = spawn(
          process.execPath,
          [join(work, "child.mjs"), "crash", directory, `r${round}`, "0", barrier],
          { cwd: work, stdio: "ignore" },
        );
        while (!existsSync(join(barrier, `started-r${round}`))) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await new Promise((resolve) => setTimeout(resolve, 150 + round * 70));
        const exited = new Promise((resolve) => child.on("exit", resolve));
        child.kill("SIGKILL");
        await exited;
        const tools = toolsOver(directory);
        const big = await tools.read.run({ key: "big" });
        if (big.success) {
          expect(big.data.content).toMatch(/^r\d:\d+:y{4194304}$/);
        } else {
          expect(big.error.code).toBe("MEMORY_KEY_NOT_FOUND");
        }
        const listed = await tools.list.run({ limit: 500 });
        expect(listed.success).toBe(true);
        for (const file of memoryFiles(directory).filter((name) => name.endsWith(".json"))) {
          expect(() => JSON.parse(readFileSync(file, "utf8"))).not.toThrow();
        }
      }
      // The store keeps working after the crashes, and a fresh process reads what it writes.
      const tools = toolsOver(directory);
      const written = await tools.write.run({
        key: "after",
        content: "Written after the crashes.",
      });
      expect(written.success).toBe(true);
      const found = await toolsOver(directory).search.run({ query: "after crashes" });
      expect(found.success && found.data.results[0]?.key).toBe("after");
    } finally {
      rmSync(directory, { recursive: true, force: true });
      rmSync(barrier, { recursive: true, force: true });
    }
  }, 120_000);

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
