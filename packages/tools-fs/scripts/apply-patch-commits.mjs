#!/usr/bin/env node
// Ground truth for apply_patch on real history: for each of the newest N non-merge commits of a
// git repository nobody here wrote, check out the parent's tree into a temporary folder, apply
// `git diff -M <parent> <commit>` with apply_patch (as a model would send it: one unified diff,
// all files), and compare every file with the commit's own tree, byte for byte.
//
//   pnpm --filter @agentool/tools-fs build
//   node packages/tools-fs/scripts/apply-patch-commits.mjs <git-dir> [--count 200]
//
// Commits whose diff holds binary files, submodules or only mode changes are counted apart
// (a text patch cannot carry them). Everything else must come out identical.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createNodeFsTools } from "../dist/node/index.js";

const args = process.argv.slice(2);
const gitDir = args.find((arg) => !arg.startsWith("--"));
const countIndex = args.indexOf("--count");
const count = countIndex >= 0 ? Number(args[countIndex + 1]) : 200;
if (gitDir === undefined) {
  console.error("usage: apply-patch-commits.mjs <git-dir> [--count N]");
  process.exit(2);
}
const git = (gitArgs, options = {}) =>
  execFileSync("git", ["--git-dir", gitDir, ...gitArgs], {
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    ...options,
  });

/** Checks a commit's tree out into `folder` (every file, export-ignore or not). */
function checkout(commit, folder) {
  const index = join(folder, "..", `index-${process.pid}`);
  const environment = { ...process.env, GIT_INDEX_FILE: index };
  git(["read-tree", commit], { env: environment });
  git(["--work-tree", folder, "checkout-index", "-a", "-f"], { env: environment });
  rmSync(index, { force: true });
}

function files(folder, base = folder, out = new Map()) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files(path, base, out);
    else if (entry.isFile()) out.set(relative(base, path), readFileSync(path));
    else if (entry.isSymbolicLink()) out.set(relative(base, path), "(link)");
  }
  return out;
}

function sameTrees(left, right) {
  const a = files(left);
  const b = files(right);
  const differing = [];
  for (const [path, bytes] of a) {
    const other = b.get(path);
    if (other === undefined) differing.push(`${path} (only after the patch)`);
    else if (typeof bytes === "string" || typeof other === "string") continue;
    else if (!bytes.equals(other)) differing.push(path);
  }
  for (const path of b.keys())
    if (!a.has(path)) differing.push(`${path} (missing after the patch)`);
  return differing;
}

const commits = git(["rev-list", "--no-merges", `--max-count=${count}`, "HEAD"])
  .trim()
  .split("\n");
const tally = { identical: 0, refused: 0, different: 0, skipped: 0, files: 0, hunks: 0 };
const problems = [];
const started = performance.now();
for (const commit of commits) {
  const parent = git(["rev-parse", `${commit}^`]).trim();
  const diff = git(["diff", "-M", "--no-color", "--no-ext-diff", parent, commit]);
  const summary = git(["diff", "-M", "--numstat", "--summary", parent, commit]);
  if (
    diff.length === 0 ||
    /^Binary files /m.test(diff) ||
    /^-\t-\t/m.test(summary) ||
    /Subproject commit/.test(diff) ||
    !/^@@ /m.test(diff)
  ) {
    tally.skipped += 1;
    continue;
  }
  const base = mkdtempSync(join(tmpdir(), "agentool-apply-commits-"));
  try {
    const before = join(base, "before");
    const after = join(base, "after");
    execFileSync("mkdir", ["-p", before, after]);
    checkout(parent, before);
    checkout(commit, after);
    const tools = createNodeFsTools({ root: before, mode: "read-write", secretPaths: [] });
    const applyPatch = tools.find((tool) => tool.name === "apply_patch");
    const result = await applyPatch.run({ patch: diff });
    if (!result.success) {
      tally.refused += 1;
      problems.push(
        `${commit.slice(0, 10)} refused: ${result.error.code} ${result.error.message.split("\n")[0]}`,
      );
      continue;
    }
    tally.files += result.data.files.length;
    tally.hunks += result.data.files.reduce((sum, file) => sum + file.hunks, 0);
    const differing = sameTrees(before, after);
    if (differing.length === 0) tally.identical += 1;
    else {
      tally.different += 1;
      problems.push(`${commit.slice(0, 10)} differs: ${differing.slice(0, 5).join(", ")}`);
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
const applied = commits.length - tally.skipped;
console.log(
  `${gitDir}: ${commits.length} newest non-merge commits, ${tally.skipped} skipped (binary, submodule or mode-only), ${applied} applied as one git diff each — ${tally.identical} byte-identical, ${tally.different} different, ${tally.refused} refused; ${tally.files} files, ${tally.hunks} hunks; ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
for (const problem of problems.slice(0, 40)) console.log(`  ${problem}`);
process.exit(tally.different + tally.refused > 0 ? 1 : 0);
