import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryFiles, toolsOver } from "../test-support/memory-folders.js";

/*
 * Several processes on one folder. Child processes need runnable JavaScript: they import the
 * package's built entry (dist/memory/node/index.js; turbo builds the package before its tests).
 */
const entry = fileURLToPath(new URL("../../../dist/memory/node/index.js", import.meta.url));

const CHILD = `
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const { createFileMemoryBackend } = await import(process.env.AGENTOOL_MEMORY_ENTRY);

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
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: build the package first (pnpm build).`);
  }
  work = mkdtempSync(join(tmpdir(), "agentool-memory-processes-"));
  writeFileSync(join(work, "child.mjs"), CHILD);
});

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

const childEnvironment = { ...process.env, AGENTOOL_MEMORY_ENTRY: pathToFileURL(entry).href };

function runChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(work, "child.mjs"), ...args], {
      cwd: work,
      env: childEnvironment,
    });
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

describe("file memory store across processes", () => {
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
          { cwd: work, env: childEnvironment, stdio: "ignore" },
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
});
