import type { Dirent } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import { join } from "node:path";

/** A path the sandbox hides. */
export interface HiddenPath {
  path: string;
  directory: boolean;
}

/** Most directory entries one secret scan reads before it gives up (and the command is refused). */
export const MAX_SECRET_SCAN_ENTRIES = 2_000_000;

/**
 * Every existing secret path under `base` (absolute real paths), found by walking it with the
 * workspace's secret matcher: a secret directory is listed and not entered; symlinks are not
 * followed (a symlink that is itself secret is hidden on its target, when that exists). Directory
 * reads run in parallel.
 *
 * @param base - the directory to scan (real path)
 * @param isSecret - the matcher, over paths relative to `base`
 * @param maxDepth - how deep to look (default: all the way)
 * @param gitEntries - when given, every `.git` directory or file met on the way (any letter case)
 *   is added to it
 * @returns the paths to hide
 * @throws Error when the tree has more than {@link MAX_SECRET_SCAN_ENTRIES} entries
 */
export async function findSecretPaths(
  base: string,
  isSecret: (path: string) => boolean,
  maxDepth = Number.POSITIVE_INFINITY,
  gitEntries?: HiddenPath[],
): Promise<HiddenPath[]> {
  const found: HiddenPath[] = [];
  let entries = 0;
  let level: Array<{ absolute: string; relativePath: string }> = [
    { absolute: base, relativePath: "" },
  ];
  for (let depth = 0; level.length > 0 && depth < maxDepth; depth += 1) {
    const next: typeof level = [];
    const listings: Array<Dirent[] | undefined> = new Array(level.length);
    let cursor = 0;
    const worker = async () => {
      while (cursor < level.length) {
        const index = cursor;
        cursor += 1;
        listings[index] = await readdir((level[index] as { absolute: string }).absolute, {
          withFileTypes: true,
        }).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: Math.min(32, level.length) }, worker));
    for (let index = 0; index < level.length; index += 1) {
      const directory = level[index] as { absolute: string; relativePath: string };
      for (const dirent of listings[index] ?? []) {
        entries += 1;
        if (entries > MAX_SECRET_SCAN_ENTRIES) {
          throw new Error(`more than ${MAX_SECRET_SCAN_ENTRIES} entries to scan for secret paths`);
        }
        const relativePath =
          directory.relativePath.length === 0
            ? dirent.name
            : `${directory.relativePath}/${dirent.name}`;
        const absolute = join(directory.absolute, dirent.name);
        if (isSecret(relativePath)) {
          if (dirent.isSymbolicLink()) {
            const target = await realpath(absolute).catch(() => undefined);
            if (target === undefined) continue;
            const stats = await lstat(target).catch(() => undefined);
            if (stats !== undefined) found.push({ path: absolute, directory: stats.isDirectory() });
          } else found.push({ path: absolute, directory: dirent.isDirectory() });
          continue;
        }
        if (gitEntries !== undefined && dirent.name.toLowerCase() === ".git") {
          if (dirent.isDirectory() || dirent.isFile()) {
            gitEntries.push({ path: absolute, directory: dirent.isDirectory() });
          }
        }
        if (dirent.isDirectory()) next.push({ absolute, relativePath });
      }
    }
    level = next;
  }
  return found;
}
