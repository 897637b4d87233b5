// Benchmark: git_status and git_log { limit: 50 } against raw git on a generated repository
// with 10,000 files and 2,000 commits. Build first: npx tsc -p tsconfig.build.json
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createGitTools } from "../dist/index.js";

const run = promisify(execFile);
const FILES = 10_000;
const COMMITS = 2_000;
const RUNS = 15;

function generate(root) {
  execFileSync("git", ["init", "-q", "--initial-branch=main", root]);
  const lines = [];
  const time = 1_700_000_000;
  // One fast-import stream: the first commit adds 10,000 files, the next 1,999 each change one.
  for (let commit = 0; commit < COMMITS; commit += 1) {
    lines.push("commit refs/heads/main", `mark :${commit + 1}`);
    lines.push(`committer Bench <bench@example.com> ${time + commit * 60} +0000`);
    const message = `Commit ${commit}`;
    lines.push(`data ${Buffer.byteLength(message)}`, message);
    if (commit > 0) lines.push(`from :${commit}`);
    if (commit === 0) {
      for (let file = 0; file < FILES; file += 1) {
        const content = `file ${file}\n`;
        lines.push(
          `M 100644 inline dir${file % 100}/file-${file}.txt`,
          `data ${Buffer.byteLength(content)}`,
          content,
        );
      }
    } else {
      const file = commit % FILES;
      const content = `file ${file} changed in ${commit}\n`;
      lines.push(
        `M 100644 inline dir${file % 100}/file-${file}.txt`,
        `data ${Buffer.byteLength(content)}`,
        content,
      );
    }
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: root, input: `${lines.join("\n")}\n` });
  execFileSync("git", ["checkout", "-q", "-f", "main"], { cwd: root });
  execFileSync("git", ["status", "--porcelain"], { cwd: root });
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(work) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const base = mkdtempSync(join(tmpdir(), "agentool-git-bench-"));
const root = join(base, "repository");
try {
  const started = performance.now();
  generate(root);
  console.log(
    `generated ${FILES} files, ${COMMITS} commits in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const tools = new Map(createGitTools({ root }).map((tool) => [tool.name, tool]));
  const status = tools.get("git_status");
  const log = tools.get("git_log");
  const cases = [
    [
      "git_status",
      () => status.run({}),
      () => run("git", ["status", "--porcelain=v2"], { cwd: root }),
    ],
    [
      "git_log { limit: 50 }",
      () => log.run({ limit: 50 }),
      () => run("git", ["log", "-50"], { cwd: root, maxBuffer: 1 << 24 }),
    ],
  ];
  for (const [name, tool, raw] of cases) {
    const check = await tool();
    if (!check.success) throw new Error(`${name} failed: ${JSON.stringify(check.error)}`);
    await raw();
    const toolTimes = [];
    const rawTimes = [];
    // Interleaved so that drift affects both sides equally.
    for (let index = 0; index < RUNS; index += 1) {
      toolTimes.push(await time(tool));
      rawTimes.push(await time(raw));
    }
    const toolMedian = median(toolTimes);
    const rawMedian = median(rawTimes);
    console.log(
      `${name.padEnd(22)} tool ${toolMedian.toFixed(1).padStart(6)} ms   raw ${rawMedian.toFixed(1).padStart(6)} ms   ratio ${(toolMedian / rawMedian).toFixed(2)} (target ≤ 1.30)`,
    );
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
