import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * A temporary folder (real path) with the given files, removed by `remove()`.
 *
 * @param files - workspace paths and their contents
 * @returns the folder's path and its remover
 * @internal
 */
export function readFolder(files: Record<string, string | Uint8Array>): {
  root: string;
  remove: () => void;
} {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "tools-office-read-")));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
