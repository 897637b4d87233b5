import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";

/**
 * Every entry under a directory on disk (hidden ones included): path → `file:<sha-free bytes as
 * base64>:<mode>`, `dir`, or `link:<target>` — compare two snapshots to prove nothing changed.
 *
 * @param root - the directory
 * @param skip - top-level names left out (e.g. `.git`)
 * @returns the snapshot
 */
export async function snapshotTree(
  root: string,
  skip: readonly string[] = [],
): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const walk = async (directory: string, prefix: string) => {
    for (const name of (await readdir(directory)).sort()) {
      if (prefix === "" && skip.includes(name)) continue;
      const path = join(directory, name);
      const key = prefix === "" ? name : `${prefix}/${name}`;
      const stat = await lstat(path);
      if (stat.isSymbolicLink()) result[key] = `link:${await readlink(path)}`;
      else if (stat.isDirectory()) {
        result[key] = "dir";
        await walk(path, key);
      } else
        result[key] =
          `file:${(await readFile(path)).toString("base64")}:${(stat.mode & 0o777).toString(8)}`;
    }
  };
  await walk(root, "");
  return result;
}
