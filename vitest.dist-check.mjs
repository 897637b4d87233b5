// Global setup of the shared vitest configuration: tests that load a package's built `dist/`
// (entry isolation, child processes, the MCP CLI) must not run against a missing or stale build.
// turbo's `test` task builds first; a developer running vitest by hand is refused when `dist/` is
// missing and warned when it is older than `src/` (most tests import `src/` and stay valid).
// Packages without `tsconfig.build.json` are skipped.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Newest modification time (ms) of the files under `folder` that pass `keep`; 0 when none. */
function newestModification(folder, keep) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !keep(entry.name)) continue;
    const modified = statSync(join(entry.parentPath, entry.name)).mtimeMs;
    if (modified > newest) newest = modified;
  }
  return newest;
}

/** Throws when this package builds to `dist/` and it is missing; warns when it is older than `src/`. */
export default function checkBuiltDist() {
  const packageDirectory = process.cwd();
  if (!existsSync(join(packageDirectory, "tsconfig.build.json"))) return;
  const dist = join(packageDirectory, "dist");
  const build = "run `pnpm build` (or `pnpm test`, which builds first)";
  if (!existsSync(dist)) throw new Error(`${packageDirectory}: dist/ is missing; ${build}.`);
  const source = newestModification(
    join(packageDirectory, "src"),
    (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
  );
  const built = newestModification(dist, (name) => name.endsWith(".js"));
  if (source > built) {
    console.warn(
      `\n⚠ ${packageDirectory}: dist/ is older than src/; tests that load dist/ see old code — ${build}.\n`,
    );
  }
}
