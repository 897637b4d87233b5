// grep_search (ripgrep engine) at other commits beside this checkout's build, interleaved in one
// run: the way to see what a change cost a hot path when the machine's speed moves from day to
// day (raw rg on the same tree took 18.7 ms one day and 43 ms another, so figures from different
// days do not compare; builds measured side by side do).
//
// For each revision it adds a git worktree in a temporary folder, links this checkout's
// node_modules into it (so tools-fs at that revision runs against this checkout's built
// @agentool/contract, the package whose hot paths it measures being tools-fs), builds
// @agentool/tools-fs there with tsc, then
// times three calls on one generated tree (2,000 files of ~47 kB): `limit: 10` on a frequent word,
// an absent pattern, a rare pattern. Each revision is compared with this checkout by
// bench/lib/discipline.mjs: the two builds take turns call by call, BENCH_GREP_ROUNDS pairs a round
// (default 21), rounds repeating until the ratio's spread is under 10%; a round during which
// another process used over 20% of a core is refused (BENCH_ALLOW_LOAD=1 keeps it, marked LOADED).
// The worktrees are removed at the end. Not run by `pnpm test`.
//
// Run (after `pnpm turbo run build --filter=@agentool/tools-fs...`):
//   node bench/grep-across-commits.mjs 87d90e4 1bd8e8d
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { benchHeader, formatRatio, measureRatio } from "./lib/discipline.mjs";

const repositoryRoot = resolve(import.meta.dirname, "..");
const revisions = process.argv.slice(2).filter((word) => word !== "--");
if (revisions.length === 0) {
  console.error("usage: node bench/grep-across-commits.mjs <revision> [<revision> …]");
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_GREP_ROUNDS ?? 21);
console.log(`${benchHeader("grep_search at other commits beside this checkout")}\n`);
const scratch = mkdtempSync(join(tmpdir(), "agentool-grep-commits-"));
const worktrees = [];
process.on("exit", () => {
  for (const folder of worktrees) {
    try {
      execFileSync("git", ["-C", repositoryRoot, "worktree", "remove", "--force", folder]);
    } catch {
      // already gone
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** A worktree at `revision` with tools-fs built; returns its tools-fs folder. */
function buildAt(revision) {
  const folder = join(scratch, revision.replace(/[^\w.-]/g, "_"));
  execFileSync("git", [
    "-C",
    repositoryRoot,
    "worktree",
    "add",
    "--detach",
    "--quiet",
    folder,
    revision,
  ]);
  worktrees.push(folder);
  symlinkSync(join(repositoryRoot, "node_modules"), join(folder, "node_modules"));
  for (const name of ["tools-fs"]) {
    const modules = join(repositoryRoot, "packages", name, "node_modules");
    if (existsSync(modules)) symlinkSync(modules, join(folder, "packages", name, "node_modules"));
    execFileSync(
      process.execPath,
      [
        join(repositoryRoot, "node_modules", "typescript", "bin", "tsc"),
        "-p",
        "tsconfig.build.json",
      ],
      {
        cwd: join(folder, "packages", name),
        stdio: "inherit",
      },
    );
  }
  return join(folder, "packages", "tools-fs");
}

/** The grep_search tool of one build over `root` (the searcher moved in issue 26's split). */
async function grepOf(toolsFs, root) {
  const load = (path) => import(pathToFileURL(join(toolsFs, "dist", path)).href);
  const searcherPath = existsSync(join(toolsFs, "dist", "node", "ripgrep", "index.js"))
    ? "node/ripgrep/index.js"
    : "node/ripgrep-search.js";
  const { createGrepSearchTool } = await load("grep-search.js");
  const { createNodeFileSystem } = await load("node/node-file-system.js");
  const { createRipgrepSearcher } = await load(searcherPath);
  const { createWorkspace } = await load("workspace.js");
  return createGrepSearchTool({
    workspace: createWorkspace({ fileSystem: createNodeFileSystem({ root }) }),
    searcher: createRipgrepSearcher({ root }),
  });
}

const root = join(scratch, "tree");
const words = ["lorem", "ipsum", "dolor", "sit", "amet"];
for (let directory = 0; directory < 40; directory += 1) {
  mkdirSync(join(root, `dir${directory}`), { recursive: true });
  for (let file = 0; file < 50; file += 1) {
    const lines = [];
    for (let line = 0; line < 1_200; line += 1) {
      lines.push(`${words[(file + line) % 5]} ${line} the quick brown fox jumps over the lazy dog`);
    }
    writeFileSync(join(root, `dir${directory}`, `f${file}.txt`), lines.join("\n"));
  }
}

const builds = [];
for (const revision of revisions)
  builds.push({ label: revision, tool: await grepOf(buildAt(revision), root) });
const current = await grepOf(join(repositoryRoot, "packages", "tools-fs"), root);

const calls = {
  "limit 10, frequent word": { pattern: "lorem", limit: 10 },
  "absent pattern": { pattern: "ABSENT_PATTERN" },
  "rare pattern": { pattern: "fox jumps over the lazy dog 77\\b", limit: 1000 },
};
const runOf = (label, tool, input) => async () => {
  const result = await tool.run(input, { timeoutMs: 0 });
  if (!result.success) throw new Error(`${label}: ${JSON.stringify(result.error)}`);
};
console.log(
  `grep_search, 2,000 files: this checkout against each revision, ${ROUNDS} interleaved pairs a round (ms, medians of the last three rounds)`,
);
console.log(
  `${"call".padEnd(26)}${"revision".padEnd(16)}${"revision ms".padStart(12)}${"this ms".padStart(12)}  this / revision (min–max)`,
);
for (const [call, input] of Object.entries(calls)) {
  for (const { label, tool } of builds) {
    const result = await measureRatio({
      ours: runOf("this checkout", current, input),
      baseline: runOf(label, tool, input),
      callsPerRound: ROUNDS,
    });
    const times = result.refused
      ? `${"—".padStart(12)}${"—".padStart(12)}`
      : `${result.baseline.toFixed(1).padStart(12)}${result.ours.toFixed(1).padStart(12)}`;
    console.log(`${call.padEnd(26)}${label.padEnd(16)}${times}  ${formatRatio(result)}`);
  }
}
