import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SECRET_PATHS } from "@agentool/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepSearchTool } from "../grep-search.js";
import type { SearchRequest } from "../internal/search-types.js";
import { createWorkspace } from "../workspace.js";
import { createNodeFileSystem } from "./node-file-system.js";
import { createRipgrepLister, createRipgrepSearcher } from "./ripgrep-search.js";

let root: string;

/** rg processes whose command line contains `marker` (none once they are killed). */
function rgProcesses(marker: string): number[] {
  const output = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return output
    .split("\n")
    .filter((line) => line.includes(marker) && /\brg\b/.test(line) && !/\sZ/.test(line))
    .map((line) => Number.parseInt(line.trim(), 10));
}

async function waitFor(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function request(overrides: Partial<SearchRequest>): SearchRequest {
  return {
    path: "",
    pathType: "directory",
    glob: undefined,
    includeHiddenAndIgnored: false,
    isSecret: () => false,
    secretGlobs: DEFAULT_SECRET_PATHS,
    pattern: "x",
    literal: false,
    ignoreCase: false,
    contextLines: 0,
    outputMode: "content",
    limit: 100,
    maxLineCharacters: 300,
    ...overrides,
  };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-rg-"));
  const line = "match_me here is a line of text\n";
  for (let directory = 0; directory < 20; directory += 1) {
    await mkdir(join(root, "many", `d${directory}`), { recursive: true });
    for (let file = 0; file < 50; file += 1) {
      await writeFile(join(root, "many", `d${directory}`, `f${file}.txt`), line.repeat(200));
    }
  }
  execFileSync("mkfifo", [join(root, "blocking-fifo")]);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createRipgrepSearcher", () => {
  it("stops rg as soon as the cap is reached", async () => {
    const searcher = createRipgrepSearcher({ root });
    const started = performance.now();
    const outcome = await searcher.search(
      request({ pattern: "match_me", limit: 5 }),
      new AbortController().signal,
    );
    const elapsed = performance.now() - started;
    expect(outcome.files.reduce((sum, file) => sum + file.count, 0)).toBe(5);
    expect(outcome.truncated).toBe(true);
    expect(outcome.overflow).toBeGreaterThanOrEqual(1);
    expect(elapsed).toBeLessThan(2_000);
    expect(rgProcesses("match_me")).toEqual([]);
    const full = await searcher.search(
      request({ pattern: "match_me", outputMode: "count", limit: 10_000 }),
      new AbortController().signal,
    );
    expect(full.files).toHaveLength(1_000);
    expect(full.files[0]).toEqual({ path: "many/d0/f0.txt", count: 200, lines: [] });
  });

  it("kills rg (its process group) on abort, leaving no orphan", async () => {
    const marker = `abort_marker_${process.pid}_${Date.now()}`;
    const searcher = createRipgrepSearcher({ root });
    const controller = new AbortController();
    const pending = searcher.search(
      request({ pattern: marker, path: "blocking-fifo", pathType: "file" }),
      controller.signal,
    );
    await waitFor(() => rgProcesses(marker).length === 1);
    const [pid] = rgProcesses(marker);
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    await waitFor(() => rgProcesses(marker).length === 0);
    // Node reaps the killed child; then the pid no longer exists at all (no zombie either).
    await waitFor(() => {
      try {
        process.kill(pid as number, 0);
        return false;
      } catch {
        return true;
      }
    });
  });

  it("kills rg when the tool times out", async () => {
    const marker = `timeout_marker_${process.pid}_${Date.now()}`;
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    const tool = createGrepSearchTool({ workspace, searcher: createRipgrepSearcher({ root }) });
    const result = await tool.run({ pattern: marker, path: "blocking-fifo" }, { timeoutMs: 300 });
    expect(result.success ? "ok" : result.error.code).toBe("TIMEOUT");
    await waitFor(() => rgProcesses(marker).length === 0);
  });

  it("reports DEPENDENCY_MISSING when rg cannot start", async () => {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    const searcher = createRipgrepSearcher({ root, rgPath: join(root, "no-such-rg") });
    const result = await createGrepSearchTool({ workspace, searcher }).run({ pattern: "x" });
    expect(result.success ? "ok" : result.error.code).toBe("DEPENDENCY_MISSING");
  });
});

describe("createRipgrepLister", () => {
  it("lists files newest first and counts the rest", async () => {
    const lister = createRipgrepLister({ root });
    const outcome = await lister.list(
      { ...request({}), glob: "many/d1/*.txt", limit: 10 },
      new AbortController().signal,
    );
    expect(outcome.files).toHaveLength(10);
    expect(outcome.omitted).toBe(40);
    const times = outcome.files.map((file) => file.modifiedMs);
    expect([...times].sort((left, right) => right - left)).toEqual(times);
  });
});
