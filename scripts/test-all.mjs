#!/usr/bin/env node
// The whole test suite, as the README's second command and CI run it:
// lint → changesets → build + typecheck → every package's tests → package checks (publint, attw, pack-and-install).
// Prints a table of steps and one closing line "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const workspaceFolders = ["packages", "apps"].flatMap((group) => {
  const directory = join(root, group);
  return existsSync(directory) ? readdirSync(directory).map((name) => join(directory, name)) : [];
});
const resultFiles = workspaceFolders.map((folder) => join(folder, "test-results.json"));
for (const file of resultFiles) rmSync(file, { force: true });

// Setup: run_command's sandbox needs bubblewrap (`bwrap`). Installed here when missing and this
// runs as root with apt-get; otherwise the reason is printed and the tests assert the documented
// fallback (commands run without the sandbox, reported as sandbox: "none").
function ensureBubblewrap() {
  if (process.platform !== "linux") {
    console.log(
      "=== setup: bubblewrap is Linux-only; run_command's sandbox tests assert the fallback",
    );
    return;
  }
  const found = spawnSync("sh", ["-c", "command -v bwrap"], { encoding: "utf8" });
  if (found.status === 0) {
    console.log(`=== setup: bubblewrap found (${found.stdout.trim()})`);
    return;
  }
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (!root || !apt) {
    console.log(
      `=== setup: bubblewrap (bwrap) is missing and cannot be installed here (${root ? "no apt-get" : "not root"}); run_command's sandbox tests assert the fallback (sandbox: "none"). Install it with: apt-get install bubblewrap`,
    );
    return;
  }
  console.log("=== setup: bubblewrap (bwrap) is missing: apt-get install -y bubblewrap");
  let install = spawnSync("apt-get", ["install", "-y", "bubblewrap"], { stdio: "inherit" });
  if (install.status !== 0) {
    console.log("=== setup: apt-get install failed; running apt-get update first");
    spawnSync("apt-get", ["update"], { stdio: "inherit" });
    install = spawnSync("apt-get", ["install", "-y", "bubblewrap"], { stdio: "inherit" });
  }
  if (install.status !== 0) {
    console.log(
      '=== setup: bubblewrap could not be installed; run_command\'s sandbox tests assert the fallback (sandbox: "none")',
    );
  }
}
ensureBubblewrap();

// Setup: the memory backend suite runs PostgresStore against a real PostgreSQL server, which the
// tests start themselves (127.0.0.1, a temporary data folder, as the postgres user). Debian's
// `postgresql` is installed here when its binaries are missing and this runs as root with apt-get.
function ensurePostgres() {
  if (process.platform !== "linux") {
    console.log(
      "=== setup: PostgreSQL from Debian's packages is Linux-only; the PostgresStore suite needs it",
    );
    return;
  }
  const found = spawnSync("sh", ["-c", "ls -d /usr/lib/postgresql/*/bin/pg_ctl"], {
    encoding: "utf8",
  });
  if (found.status === 0) {
    console.log(`=== setup: PostgreSQL found (${found.stdout.trim().split("\n").join(", ")})`);
    return;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (!isRoot || !apt) {
    console.log(
      `=== setup: PostgreSQL is missing and cannot be installed here (${isRoot ? "no apt-get" : "not root"}); the PostgresStore memory suite will fail. Install it with: apt-get install -y postgresql`,
    );
    return;
  }
  console.log("=== setup: PostgreSQL is missing: apt-get install -y postgresql");
  const environment = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let install = spawnSync("apt-get", ["install", "-y", "postgresql"], {
    stdio: "inherit",
    env: environment,
  });
  if (install.status !== 0) {
    console.log("=== setup: apt-get install failed; running apt-get update first");
    spawnSync("apt-get", ["update"], { stdio: "inherit", env: environment });
    install = spawnSync("apt-get", ["install", "-y", "postgresql"], {
      stdio: "inherit",
      env: environment,
    });
  }
  if (install.status !== 0) {
    console.log(
      "=== setup: PostgreSQL could not be installed; the PostgresStore memory suite will fail",
    );
  }
}
ensurePostgres();

// Setup: the preview suite drives Debian's `chromium` (/usr/bin/chromium) through playwright-core
// in real headless Chromium. Installed here when missing and this runs as root with apt-get.
function ensureChromium() {
  if (process.platform !== "linux") {
    console.log("=== setup: Debian's chromium is Linux-only; the preview suite needs a Chromium");
    return;
  }
  const found = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" });
  if (found.status === 0) {
    console.log(`=== setup: Chromium found (${found.stdout.trim()})`);
    return;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (!isRoot || !apt) {
    console.log(
      `=== setup: chromium is missing and cannot be installed here (${isRoot ? "no apt-get" : "not root"}); the preview suite will fail. Install it with: apt-get install -y chromium`,
    );
    return;
  }
  console.log("=== setup: chromium is missing: apt-get install -y chromium");
  const environment = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let install = spawnSync("apt-get", ["install", "-y", "chromium"], {
    stdio: "inherit",
    env: environment,
  });
  if (install.status !== 0) {
    console.log("=== setup: apt-get install failed; running apt-get update first");
    spawnSync("apt-get", ["update"], { stdio: "inherit", env: environment });
    install = spawnSync("apt-get", ["install", "-y", "chromium"], {
      stdio: "inherit",
      env: environment,
    });
  }
  if (install.status !== 0) {
    console.log("=== setup: chromium could not be installed; the preview suite will fail");
  }
}
ensureChromium();

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

let passed = 0;
let failed = 0;
console.log("\n=== summary");
for (const file of resultFiles) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
  console.log(
    `${(report.numFailedTests ?? 0) === 0 ? "ok  " : "FAIL"} ${file.slice(root.length + 1).padEnd(44)} ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests ?? 0} skipped`,
  );
}
for (const outcome of outcomes) {
  console.log(
    `${outcome.ok ? "ok  " : "FAIL"} ${outcome.label.padEnd(44)} ${outcome.seconds.toFixed(1)} s`,
  );
  if (outcome.ok) passed += 1;
  else failed += 1;
}
if (passed === 0) {
  console.log("no test ran");
  process.exit(1);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
