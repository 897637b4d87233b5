import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGlobSearchTool } from "../../glob-search.js";
import { createGrepSearchTool } from "../../grep-search.js";
import { createWorkspace } from "../../workspace.js";
import { createNodeFileSystem } from "../node-file-system.js";
import { createRipgrepLister, createRipgrepSearcher } from "./index.js";
import { MemoryCeilingError } from "./memory-ceiling.js";
import { runRipgrep } from "./run-ripgrep.js";

/** Past this a test's rg is killed by the test itself (a safety valve, so a failing run stays cheap). */
const TEST_SAFETY_VALVE_BYTES = 512 * 1024 * 1024;
/** The peak resident size an rg of these tests may reach. */
const STATED_PEAK_BYTES = 256 * 1024 * 1024;

/**
 * Samples the resident size of every rg whose working directory is under `under` (every 20 ms)
 * until stopped; kills one that passes the safety valve.
 */
function sampleRipgrepMemory(under: string): { stop(): number } {
  let peak = 0;
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "rg") continue;
        const cwd = readlinkSync(`/proc/${entry}/cwd`);
        if (!cwd.startsWith(under) && !cwd.includes("agentool-rg-scope-")) continue;
        const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
        const bytes = rss === null ? 0 : Number(rss[1]) * 1024;
        peak = Math.max(peak, bytes);
        if (bytes > TEST_SAFETY_VALVE_BYTES) process.kill(Number(entry), "SIGKILL");
      } catch {
        // gone, or not ours
      }
    }
  };
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

let base: string;

async function makeTree(name: string, files: Record<string, string>): Promise<string> {
  const root = join(base, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

function tools(root: string, memoryCeilingBytes?: number) {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const options = memoryCeilingBytes === undefined ? { root } : { root, memoryCeilingBytes };
  return {
    grep: createGrepSearchTool({ workspace, searcher: createRipgrepSearcher(options) }),
    glob: createGlobSearchTool({ workspace, lister: createRipgrepLister(options) }),
  };
}

async function grepFiles(root: string, pattern: string): Promise<string[]> {
  const result = await tools(root).grep.run(
    { pattern, output_mode: "files_with_matches" },
    { timeoutMs: 10_000 },
  );
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return (result.data as { files: Array<{ path: string }> }).files.map((file) => file.path).sort();
}

async function globFiles(root: string, pattern: string): Promise<string[]> {
  const result = await tools(root).glob.run({ pattern }, { timeoutMs: 10_000 });
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return (result.data as { files: Array<{ path: string }> }).files.map((file) => file.path).sort();
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "agentool-hostile-ignore-")));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("hostile ignore files (rg)", () => {
  it("a .gitignore linked to /dev/zero: grep_search and glob_search answer, rg stays small, the other rules hold", async () => {
    const root = await makeTree("zero", {
      "src/a.txt": "needle one\n",
      "skipped/b.txt": "needle two\n",
      "src/deep/c.log": "needle three\n",
      ".ignore": "skipped/\n",
      "src/.gitignore": "*.log\n",
    });
    await symlink("/dev/zero", join(root, ".gitignore"));
    const sampler = sampleRipgrepMemory(base);
    try {
      expect(await grepFiles(root, "needle")).toEqual(["src/a.txt"]);
      expect(await globFiles(root, "**/*.txt")).toEqual(["src/a.txt"]);
      expect(await grepFiles(join(root, "src"), "needle")).toEqual(["a.txt"]);
      const { grep } = tools(root);
      const scoped = await grep.run(
        { pattern: "needle", path: "src", glob: "*.{txt,log}", output_mode: "files_with_matches" },
        { timeoutMs: 10_000 },
      );
      expect(scoped.success ? scoped.data.files.map((file) => file.path) : scoped).toEqual([
        "src/a.txt",
      ]);
    } finally {
      expect(sampler.stop()).toBeLessThan(STATED_PEAK_BYTES);
    }
  });

  it("every ignore file rg would read (.ignore, .rgignore, .git/info/exclude, a nested .gitignore, a parent's) linked to /dev/zero", async () => {
    const links = [".ignore", ".rgignore", ".git/info/exclude", "src/deep/.gitignore"];
    for (const [index, link] of links.entries()) {
      const root = await makeTree(`zero-${index}`, {
        "src/deep/a.txt": "needle\n",
        ".git/HEAD": "",
      });
      await mkdir(join(root, ".git", "info"), { recursive: true });
      await symlink("/dev/zero", join(root, link));
      const sampler = sampleRipgrepMemory(base);
      try {
        expect(await grepFiles(root, "needle")).toEqual(["src/deep/a.txt"]);
        expect(await globFiles(root, "**/*.txt")).toEqual(["src/deep/a.txt"]);
      } finally {
        expect(sampler.stop()).toBeLessThan(STATED_PEAK_BYTES);
      }
    }
    const outer = await makeTree("parent", { "inner/a.txt": "needle\n" });
    await symlink("/dev/zero", join(outer, ".gitignore"));
    const sampler = sampleRipgrepMemory(base);
    try {
      expect(await grepFiles(join(outer, "inner"), "needle")).toEqual(["a.txt"]);
    } finally {
      expect(sampler.stop()).toBeLessThan(STATED_PEAK_BYTES);
    }
  });

  it("a .ignore that is a FIFO does not hang either tool", async () => {
    const root = await makeTree("fifo", { "a.txt": "needle\n", "sub/x.log": "needle\n" });
    await writeFile(join(root, "sub", ".gitignore"), "*.log\n");
    execFileSync("mkfifo", [join(root, ".ignore")]);
    expect(await grepFiles(root, "needle")).toEqual(["a.txt"]);
    expect(await globFiles(root, "**/*")).toEqual(["a.txt"]);
  });

  it("a 5 MiB regular .gitignore is skipped (its rules unread), the other ignore files still apply", async () => {
    const huge = `ignored.txt\n${"#".repeat(79)}\n`.repeat(64 * 1024);
    const root = await makeTree("huge", {
      "a.txt": "needle\n",
      "ignored.txt": "needle\n",
      "out/b.txt": "needle\n",
      ".gitignore": huge,
      ".ignore": "out/\n",
    });
    expect(huge.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(await grepFiles(root, "needle")).toEqual(["a.txt", "ignored.txt"]);
    expect(await globFiles(root, "*.txt")).toEqual(["a.txt", "ignored.txt"]);
  });

  it("a link to /dev/zero past the checked directories: rg is stopped at its memory ceiling, the check walks on, and the search answers", async () => {
    const root = await makeTree("far", { "a.txt": "needle\n", "wide/d0/x/y/b.log": "needle\n" });
    await Promise.all(
      Array.from({ length: 2_100 }, (_, index) =>
        mkdir(join(root, "wide", `d${index}`), { recursive: true }),
      ),
    );
    await writeFile(join(root, ".ignore"), "*.log\n");
    await symlink("/dev/zero", join(root, "wide", "d0", "x", "y", ".gitignore"));
    const ceiling = 128 * 1024 * 1024;
    const sampler = sampleRipgrepMemory(base);
    try {
      const { grep, glob } = tools(root, ceiling);
      const grepped = await grep.run(
        { pattern: "needle", output_mode: "files_with_matches" },
        { timeoutMs: 20_000 },
      );
      expect(grepped.success ? grepped.data.files.map((file) => file.path) : grepped).toEqual([
        "a.txt",
      ]);
      const globbed = await glob.run({ pattern: "**/*.{txt,log}" }, { timeoutMs: 20_000 });
      expect(globbed.success ? globbed.data.files.map((file) => file.path) : globbed).toEqual([
        "a.txt",
      ]);
    } finally {
      expect(sampler.stop()).toBeLessThan(STATED_PEAK_BYTES);
    }
  });

  it("rg itself is stopped at its memory ceiling with TOO_LARGE (an ignore file the check did not see)", async () => {
    const root = await makeTree("ceiling", { "a.txt": "needle\n" });
    await symlink("/dev/zero", join(root, ".gitignore"));
    const ceiling = 128 * 1024 * 1024;
    const sampler = sampleRipgrepMemory(base);
    try {
      const run = runRipgrep(
        { rgPath, memoryCeilingBytes: ceiling },
        { cwd: root, path: ".", prefix: "" },
        ["--no-config", "--no-require-git", "needle", "."],
        "\n",
        AbortSignal.timeout(20_000),
        () => true,
      );
      const error = await run.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(MemoryCeilingError);
      expect((error as MemoryCeilingError).code).toBe("TOO_LARGE");
      expect((error as Error).message).toMatch(/memory ceiling \(128 MiB\).*ignore file/);
    } finally {
      expect(sampler.stop()).toBeLessThan(STATED_PEAK_BYTES);
    }
  });
});
