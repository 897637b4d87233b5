// Benchmark: git_status and git_log { limit: 50 } against raw git on a generated repository
// with 10,000 files and 2,000 commits. Build first: npx tsc -p tsconfig.build.json
// Each row interleaves the tool and raw git call by call (bench/lib/discipline.mjs): rounds of
// BENCH_GIT_RUNS pairs (default 15) until the ratio's spread is under 10%, refused while another
// process uses over 20% of a core (BENCH_ALLOW_LOAD=1 keeps such rounds, marked LOADED).
// BENCH_GIT_FILES / BENCH_GIT_COMMITS (defaults 10,000 / 2,000) shrink the repository for a check.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { benchHeader, formatRatio, measureRatio } from "../../../bench/lib/discipline.mjs";
import { createGitTools } from "../dist/index.js";

const run = promisify(execFile);
const FILES = Number(process.env.BENCH_GIT_FILES ?? 10_000);
const COMMITS = Number(process.env.BENCH_GIT_COMMITS ?? 2_000);
const RUNS = Number(process.env.BENCH_GIT_RUNS ?? 15);

function generate(root) {
  execFileSync("git", ["init", "-q", "--initial-branch=main", root]);
  const lines = [];
  const time = 1_700_000_000;
  // One fast-import stream: the first commit adds FILES files, the next ones each change one.
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

const base = mkdtempSync(join(tmpdir(), "agentool-git-bench-"));
const root = join(base, "repository");
console.log(`${benchHeader("git tools beside raw git")}\n`);
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
    // Interleaved so that drift affects both sides equally.
    const result = await measureRatio({ ours: tool, baseline: raw, callsPerRound: RUNS });
    const times = result.refused
      ? ""
      : `tool ${result.ours.toFixed(1).padStart(6)} ms   raw ${result.baseline.toFixed(1).padStart(6)} ms   `;
    const verdict = result.refused ? "" : result.ratio <= 1.3 ? " ok" : " MISS";
    console.log(
      `${name.padEnd(22)} ${times}ratio ${formatRatio(result)} (target ≤ 1.30)${verdict}`,
    );
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
