import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One `exports` subpath of a published package, resolved to its built file. */
export interface PublishedEntry {
  /** The package's name, e.g. `@agentool/tools-fs`. */
  packageName: string;
  /** The export path, e.g. `.`, `./node`, `./package.json`. */
  subpath: string;
  /** The absolute file its `import` (else `default`) condition names. */
  file: string;
}

/** The part of a package.json this reads. */
interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, string | Record<string, unknown>>;
}

/**
 * The file an `exports` target loads for `import()`: a string target, or the `import` (else
 * `default`) condition of a condition object.
 *
 * @param target - the value of one `exports` key
 * @returns the relative file, or `undefined` when no such condition is a string
 */
function importTarget(target: string | Record<string, unknown>): string | undefined {
  if (typeof target === "string") return target;
  const chosen = target.import ?? target.default;
  return typeof chosen === "string" ? chosen : undefined;
}

/**
 * Every `exports` subpath of every non-private package under `packages/*` and `apps/*` (today the
 * nine libraries and `@agentool/mcp-server`), resolved through each package.json to the built
 * file, in folder order.
 *
 * @param repository - the repository root
 * @returns the entries
 * @throws Error naming a subpath that has no `import`/`default` file or whose file is not built
 * @example
 * publishedEntries(root); // [{ packageName: "@agentool/adapters", subpath: "./langchain", file: "…/dist/langchain/index.js" }, …]
 */
export function publishedEntries(repository: string): PublishedEntry[] {
  const entries: PublishedEntry[] = [];
  for (const parent of ["packages", "apps"]) {
    for (const folder of readdirSync(join(repository, parent)).sort()) {
      const directory = join(repository, parent, folder);
      const manifestPath = join(directory, "package.json");
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
      if (manifest.private === true) continue;
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        const relative = importTarget(target);
        if (relative === undefined) {
          throw new Error(`${manifest.name} exports ${subpath} with no import/default file`);
        }
        const file = join(directory, relative);
        if (!existsSync(file)) {
          throw new Error(
            `${file} (${manifest.name} ${subpath}) is missing: run pnpm turbo run build`,
          );
        }
        entries.push({ packageName: manifest.name, subpath, file });
      }
    }
  }
  return entries;
}
