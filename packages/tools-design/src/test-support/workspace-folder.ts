import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temporary workspace folder. */
export interface WorkspaceFolder {
  /** Its real path. */
  root: string;
  /** Removes it. */
  remove(): void;
}

/**
 * Creates a temporary folder holding the given files.
 *
 * @param files - relative path → content
 * @returns the folder
 */
export function workspaceFolder(files: Record<string, string | Uint8Array>): WorkspaceFolder {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "tools-design-")));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
