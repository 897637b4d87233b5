import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A publishable workspace package. */
export interface WorkspacePackage {
  /** Its npm name, e.g. `@agentool/tools-fs`. */
  name: string;
  /** Its folder relative to the repository root, e.g. `packages/tools-fs`. */
  folder: string;
}

/**
 * Lists the workspace's publishable packages: every `packages/*` and `apps/*` whose
 * package.json is not `private`.
 *
 * @param repositoryRoot - the monorepo's root folder
 * @returns the packages, sorted by folder
 */
export function listPublishablePackages(repositoryRoot: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["apps", "packages"]) {
    for (const entry of readdirSync(join(repositoryRoot, group)).sort()) {
      const manifestPath = join(repositoryRoot, group, entry, "package.json");
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
        name: string;
        private?: boolean;
      };
      if (manifest.private !== true)
        found.push({ name: manifest.name, folder: `${group}/${entry}` });
    }
  }
  return found;
}

/**
 * Packs every publishable package once with `pnpm pack` (which turns `workspace:^` into real
 * version ranges), two at a time.
 *
 * @param repositoryRoot - the monorepo's root folder
 * @param destination - the folder the tarballs go to
 * @returns each package's name mapped to its tarball's absolute path
 */
export async function packWorkspace(
  repositoryRoot: string,
  destination: string,
): Promise<Map<string, string>> {
  mkdirSync(destination, { recursive: true });
  const tarballs = new Map<string, string>();
  const packages = listPublishablePackages(repositoryRoot);
  for (let start = 0; start < packages.length; start += 2) {
    await Promise.all(
      packages.slice(start, start + 2).map(async (workspacePackage) => {
        const { stdout } = await run(
          "pnpm",
          ["pack", "--json", "--pack-destination", destination],
          {
            cwd: join(repositoryRoot, workspacePackage.folder),
          },
        );
        const filename = (JSON.parse(stdout) as { filename: string }).filename;
        tarballs.set(workspacePackage.name, filename);
      }),
    );
  }
  return tarballs;
}

/**
 * The version of a third-party package the workspace uses, read from this package's own
 * `node_modules` (every library a README names is a devDependency here).
 *
 * @param name - the package, e.g. `zod`
 * @returns its installed version, e.g. `4.6.7`
 * @throws Error naming the fix when the package is not installed here
 */
export function workspaceVersion(name: string): string {
  const manifestPath = fileURLToPath(
    new URL(`../node_modules/${name}/package.json`, import.meta.url),
  );
  if (!existsSync(manifestPath)) {
    throw new Error(
      `${name} is named by a README but is not a devDependency of @agentool/verification — add it at the version the workspace uses.`,
    );
  }
  return (JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string }).version;
}

/** What to install into a fresh project. */
export interface TarballProjectOptions {
  /** The project's folder (created, must not hold a project yet). */
  folder: string;
  /** The package under test (installed from its tarball). */
  packageName: string;
  /** What the README's install line names besides it. */
  installNames: readonly string[];
  /** Every workspace package's tarball, by name. */
  tarballs: ReadonlyMap<string, string>;
}

/**
 * Creates a fresh npm project holding the package from its tarball plus exactly what the README's
 * install line names: workspace packages from their tarballs (they are not published), others from
 * npm at the workspace's versions. Workspace dependencies of those packages are pinned to their
 * tarballs with `overrides`, never fetched.
 *
 * @param options - the folder, the package and the install line
 * @returns npm's output
 */
export async function createTarballProject(options: TarballProjectOptions): Promise<string> {
  const { folder, packageName, installNames, tarballs } = options;
  mkdirSync(folder, { recursive: true });
  const direct = [packageName, ...installNames.filter((name) => name !== packageName)];
  // npm refuses an override that names a direct dependency, so only the others are pinned.
  const overrides = Object.fromEntries(
    [...tarballs]
      .filter(([name]) => !direct.includes(name))
      .map(([name, tarball]) => [name, `file:${tarball}`]),
  );
  const manifest = { name: "readme-first-example", private: true, type: "module", overrides };
  writeFileSync(join(folder, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const specifiers = direct.map((name) => {
    const tarball = tarballs.get(name);
    if (tarball !== undefined) return tarball;
    if (name.startsWith("@agentool/")) {
      throw new Error(`${name} is named by an install line but is not a publishable package.`);
    }
    return `${name}@${workspaceVersion(name)}`;
  });
  const { stdout, stderr } = await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...specifiers],
    { cwd: folder, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return `${stdout}${stderr}`;
}
