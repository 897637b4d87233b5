import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/** Temporary corpus folders for one test file, deleted after each test. */
export interface CorpusFolders {
  /** A fresh empty folder (deleted after the test). */
  temporaryFolder(): string;
  /** Writes `content` at `path` under `root`, making the folders it needs. */
  write(root: string, path: string, content: string | Buffer): void;
  /** A fresh folder holding `files` (relative path → content). */
  corpusOf(files: Record<string, string | Buffer>): string;
}

/**
 * Temporary corpus folders for the corpus source's tests: each is made under the system's temp
 * folder with `prefix` and removed after every test (an `afterEach` of the calling file).
 *
 * @param prefix - start of the folders' names, e.g. `"agentool-corpus-refresh-"`
 * @returns the folder helpers
 * @example
 * const { corpusOf, write } = useCorpusFolders("agentool-corpus-watch-");
 */
export function useCorpusFolders(prefix: string): CorpusFolders {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  const temporaryFolder = () => {
    const folder = mkdtempSync(join(tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
  const write = (root: string, path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  const corpusOf = (files: Record<string, string | Buffer>) => {
    const root = temporaryFolder();
    for (const [path, content] of Object.entries(files)) write(root, path, content);
    return root;
  };
  return { temporaryFolder, write, corpusOf };
}
