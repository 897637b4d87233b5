#!/usr/bin/env node
// Package checks for every publishable package and app (packages/* and apps/*, not "private"):
//   1. publint --strict
//   2. @arethetypeswrong/cli --pack, ESM-only profile
//   3. pack-and-install: pack the package (and the workspace packages it depends on), install the
//      tarball alone into a fresh temp project with only its declared dependencies and required
//      peers, and import every export path. A path may fail there only because an optional peer
//      is missing; after the optional peers are installed too, every path must import. Every
//      `bin` the package declares must run from the install (`<bin> --version` exits 0).
// Usage: node scripts/check-packages.mjs [package-folder-name ...]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { RUNTIME_NEUTRAL_ENTRIES } from "./runtime-neutral-entries.mjs";

const root = resolve(import.meta.dirname, "..");

const NODE_BUILTINS = new Set(builtinModules);
const packagesDirectory = join(root, "packages");
const only = process.argv.slice(2);
const results = [];

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

function readManifest(directory) {
  return JSON.parse(readFileSync(join(directory, "package.json"), "utf8"));
}

// Publishable apps (apps/* not marked "private", e.g. @agentool/mcp-server) are checked like packages.
const workspace = new Map();
for (const parent of [packagesDirectory, join(root, "apps")]) {
  for (const folder of readdirSync(parent)) {
    const directory = join(parent, folder);
    try {
      const manifest = readManifest(directory);
      workspace.set(manifest.name, { folder, directory, manifest });
    } catch {
      // not a package
    }
  }
}

function check(name, label, action) {
  const started = Date.now();
  try {
    const detail = action();
    results.push({ name, label, ok: true, detail: detail ?? "", ms: Date.now() - started });
  } catch (error) {
    const output = [error.stdout, error.stderr, error.message].filter(Boolean).join("\n").trim();
    results.push({ name, label, ok: false, detail: output, ms: Date.now() - started });
  }
}

const packDirectory = mkdtempSync(join(tmpdir(), "agentool-pack-"));
const tarballs = new Map();
function pack(packageName) {
  if (tarballs.has(packageName)) return tarballs.get(packageName);
  const entry = workspace.get(packageName);
  const output = run("pnpm", ["pack", "--pack-destination", packDirectory, "--json"], {
    cwd: entry.directory,
  });
  const tarball = JSON.parse(output).filename;
  tarballs.set(packageName, tarball);
  return tarball;
}

function workspaceClosure(packageName, seen = new Set()) {
  const { manifest } = workspace.get(packageName);
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (workspace.has(dependency) && !seen.has(dependency)) {
      seen.add(dependency);
      workspaceClosure(dependency, seen);
    }
  }
  return seen;
}

/** Follows relative imports from a built file; returns the Node-only specifiers reached (with the file). */
function nodeImports(entryFile) {
  const pattern =
    /(?:import|export)\s*(?:[^'"]*?\sfrom\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  const queue = [entryFile];
  const seen = new Set();
  const offenders = [];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(pattern)) {
      const specifier = match[1] ?? match[2];
      if (specifier === undefined) continue;
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier));
      else if (
        specifier.startsWith("node:") ||
        NODE_BUILTINS.has(specifier) ||
        specifier === "@vscode/ripgrep"
      ) {
        offenders.push(`${specifier} (in ${file.slice(root.length + 1)})`);
      }
    }
  }
  return offenders;
}

function exportPaths(manifest) {
  return Object.keys(manifest.exports ?? { ".": "" }).map((key) =>
    key === "." ? manifest.name : `${manifest.name}${key.slice(1)}`,
  );
}

function importAll(projectDirectory, specifiers) {
  const script = `
const outcomes = {};
for (const specifier of ${JSON.stringify(specifiers)}) {
  try {
    const module = specifier.endsWith("/package.json")
      ? await import(specifier, { with: { type: "json" } })
      : await import(specifier);
    const names = Object.keys(module);
    outcomes[specifier] = names.length > 0 ? { ok: true, names: names.length } : { ok: false, error: "exports nothing" };
  } catch (error) {
    outcomes[specifier] = { ok: false, error: String(error?.message ?? error).split("\\n")[0] };
  }
}
console.log(JSON.stringify(outcomes));`;
  writeFileSync(join(projectDirectory, "import-all.mjs"), script);
  return JSON.parse(
    run("node", ["import-all.mjs"], { cwd: projectDirectory }).trim().split("\n").pop(),
  );
}

function npmInstall(projectDirectory, specs) {
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", "--no-package-lock", ...specs],
    {
      cwd: projectDirectory,
      env: { ...process.env, npm_config_workspaces: "" },
    },
  );
}

for (const [name, { folder, directory, manifest }] of workspace) {
  if (manifest.private) continue;
  if (only.length > 0 && !only.includes(folder)) continue;

  check(name, "publint --strict", () =>
    run("pnpm", ["exec", "publint", "--strict", "--pack", "pnpm"], { cwd: directory })
      .trim()
      .split("\n")
      .pop(),
  );

  check(name, "attw --pack (esm-only profile)", () => {
    // The esm-only profile ignores the node10 and node16-from-CJS resolutions; everything else counts.
    const attw = spawnSync(
      "pnpm",
      ["exec", "attw", "--pack", ".", "--profile", "esm-only", "--format", "json"],
      {
        cwd: directory,
        encoding: "utf8",
      },
    );
    let report;
    try {
      report = JSON.parse(attw.stdout);
    } catch {
      throw new Error(`attw did not run: ${attw.stderr || attw.stdout}`);
    }
    const ignored = new Set(["node10", "node16-cjs"]);
    const problems = Object.values(report.problems ?? {})
      .flat()
      .filter((problem) => !ignored.has(problem.resolutionKind));
    if (problems.length > 0) {
      const listed = problems.map(
        (problem) =>
          `${problem.kind} at ${problem.entrypoint ?? "?"} (${problem.resolutionKind ?? "any"})`,
      );
      throw new Error(`attw problems: ${listed.join("; ")}`);
    }
    const entrypoints = Object.keys(report.analysis?.entrypoints ?? {});
    return `no problems in ${entrypoints.length} entry points`;
  });

  if (RUNTIME_NEUTRAL_ENTRIES[name] !== undefined) {
    check(name, "runtime-neutral entries (no node: imports)", () => {
      const entries = RUNTIME_NEUTRAL_ENTRIES[name];
      for (const entry of entries) {
        const target = manifest.exports?.[entry]?.default;
        if (typeof target !== "string") throw new Error(`${entry} has no "default" export target`);
        const offenders = nodeImports(join(directory, target));
        if (offenders.length > 0)
          throw new Error(`${entry} reaches Node-only imports: ${offenders.join(", ")}`);
      }
      return `${entries.join(", ")} import nothing Node-only`;
    });
  }

  check(name, "pack + install alone + import every export", () => {
    const projectDirectory = mkdtempSync(join(tmpdir(), `agentool-install-${folder}-`));
    mkdirSync(projectDirectory, { recursive: true });
    writeFileSync(
      join(projectDirectory, "package.json"),
      JSON.stringify({ name: "install-check", private: true, type: "module" }),
    );
    const specs = [pack(name), ...[...workspaceClosure(name)].map(pack)];
    npmInstall(projectDirectory, specs);
    const specifiers = exportPaths(manifest);
    const optionalPeers = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
      (peer) => manifest.peerDependenciesMeta[peer]?.optional,
    );
    const first = importAll(projectDirectory, specifiers);
    const failedWithout = [];
    for (const [specifier, outcome] of Object.entries(first)) {
      if (outcome.ok) continue;
      const blamesOptionalPeer = optionalPeers.some((peer) => outcome.error.includes(peer));
      if (!blamesOptionalPeer)
        throw new Error(
          `${specifier} failed to import with required dependencies installed: ${outcome.error}`,
        );
      failedWithout.push(specifier);
    }
    let detail = `${specifiers.length} export paths import`;
    const bins =
      typeof manifest.bin === "string"
        ? [manifest.name.split("/").pop()]
        : Object.keys(manifest.bin ?? {});
    for (const bin of bins) {
      const output = run(join(projectDirectory, "node_modules", ".bin", bin), ["--version"], {
        cwd: projectDirectory,
      }).trim();
      if (output.length === 0) throw new Error(`${bin} --version printed nothing`);
    }
    if (bins.length > 0) detail += `; bin ${bins.join(", ")} runs (--version)`;
    if (optionalPeers.length > 0) {
      npmInstall(
        projectDirectory,
        optionalPeers.map((peer) => `${peer}@${manifest.peerDependencies[peer]}`),
      );
      const second = importAll(projectDirectory, specifiers);
      const broken = Object.entries(second).filter(([, outcome]) => !outcome.ok);
      if (broken.length > 0)
        throw new Error(
          `with optional peers installed: ${broken.map(([specifier, outcome]) => `${specifier}: ${outcome.error}`).join("; ")}`,
        );
      detail +=
        failedWithout.length > 0
          ? `; without optional peers (${optionalPeers.join(", ")}) only ${failedWithout.join(", ")} need them`
          : `; all import without optional peers (${optionalPeers.join(", ")}) too`;
    }
    rmSync(projectDirectory, { recursive: true, force: true });
    return detail;
  });
}

rmSync(packDirectory, { recursive: true, force: true });

let failed = 0;
for (const result of results) {
  if (!result.ok) failed += 1;
  const mark = result.ok ? "ok  " : "FAIL";
  console.log(
    `${mark} ${result.name.padEnd(24)} ${result.label.padEnd(44)} ${String(result.ms).padStart(6)} ms  ${result.ok ? result.detail : ""}`,
  );
  if (!result.ok) {
    const lines = result.detail.split("\n");
    const shown = lines.slice(0, 25).map((line) => `       ${line.slice(0, 300)}`);
    if (lines.length > 25) shown.push(`       …(${lines.length - 25} more lines)`);
    console.log(shown.join("\n"));
  }
}
console.log(`package checks: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
