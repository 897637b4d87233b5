#!/usr/bin/env node
// The whole test suite, as the README's second command and CI run it:
// lint → changesets → build + typecheck → every package's tests → package checks (publint, attw, pack-and-install).
// Prints a table of test files and steps, then one closing line "tests: N passed, N failed" that
// counts tests (a failed step — lint, build, package checks — is listed and fails the exit code).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { ensureSystemPackages } from "./setup-system.mjs";

const root = resolve(import.meta.dirname, "..");
const workspaceFolders = ["packages", "apps"].flatMap((group) => {
  const directory = join(root, group);
  return existsSync(directory) ? readdirSync(directory).map((name) => join(directory, name)) : [];
});
// bench/ has a test lane too: the checks of its comparisons that need its devDependencies (the
// design side-by-side's no-loss check runs figma-developer-mcp, installed there only).
const resultFiles = [...workspaceFolders, join(root, "bench")].map((folder) =>
  join(folder, "test-results.json"),
);
for (const file of resultFiles) rmSync(file, { force: true });

// Setup: the system packages the suite uses (Chromium, bubblewrap, PostgreSQL) — the same step
// as `pnpm demo`'s, in scripts/setup-system.mjs: installed with apt-get when missing (as root),
// otherwise explained. The suite runs either way: without bwrap the sandbox tests assert the
// documented fallback, and what else is missing fails where it is needed.
ensureSystemPackages("test");

const steps = [
  ["lint (biome)", "pnpm", ["exec", "biome", "check", "."]],
  ["changesets parse (changeset status)", "pnpm", ["exec", "changeset", "status"]],
  ["build + typecheck", "pnpm", ["exec", "turbo", "run", "build", "typecheck"]],
  [
    "unit + integration tests",
    "pnpm",
    ["exec", "turbo", "run", "test", "--concurrency=1", "--continue"],
  ],
  ["package checks", "node", ["scripts/check-packages.mjs"]],
];

const outcomes = [];
for (const [label, command, args] of steps) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const child = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  outcomes.push({ label, ok: child.status === 0, seconds: (Date.now() - started) / 1000 });
}

// The closing line counts tests only (a test file that failed to load counts as one failed
// test); the steps — lint, build, package checks — are listed above it and set the exit code.
let passed = 0;
let failed = 0;
console.log("\n=== summary");
for (const file of resultFiles) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  // numFailedTestSuites also counts files with a failed test: only a failed file that ran no
  // test at all (it did not load) adds one.
  const unloaded = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && (file.assertionResults ?? []).length === 0,
  ).length;
  const failedHere = (report.numFailedTests ?? 0) + unloaded;
  passed += report.numPassedTests ?? 0;
  failed += failedHere;
  console.log(
    `${failedHere === 0 ? "ok  " : "FAIL"} ${file.slice(root.length + 1).padEnd(44)} ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${unloaded} files failed to load, ${report.numPendingTests ?? 0} skipped`,
  );
}
for (const outcome of outcomes) {
  console.log(
    `${outcome.ok ? "ok  " : "FAIL"} step ${outcome.label.padEnd(39)} ${outcome.seconds.toFixed(1)} s`,
  );
}
const failedSteps = outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.label);
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join("; ")}`);
if (passed + failed === 0) {
  console.log("no test ran");
  process.exit(1);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);
