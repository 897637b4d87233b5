import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * A temporary folder with the given files (path → text), removed by `remove()`.
 *
 * @param files - workspace paths and their texts
 * @returns the folder's path and its remover
 */
export function workspaceFolder(files: Record<string, string | Uint8Array>): {
  root: string;
  remove: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), "tools-code-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
