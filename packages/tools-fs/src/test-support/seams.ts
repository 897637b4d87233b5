import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { FileSystem } from "../file-system.js";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createNodeFileSystem } from "../node/node-file-system.js";

/** Files to start a seam with: workspace path → text or bytes. */
export type SeamFiles = Record<string, string | Uint8Array>;

/** Makes a seam holding the given files. */
export type SeamFactory = (files: SeamFiles) => Promise<FileSystem>;

/**
 * Temporary directories for one test file, all deleted after its tests.
 *
 * @param prefix - the directory name prefix, e.g. `"agentool-edit-"`
 * @returns a function that creates one more directory and returns its path
 */
export function useTemporaryDirectories(prefix: string): () => Promise<string> {
  const created: string[] = [];
  afterAll(async () => {
    await Promise.all(created.map((directory) => rm(directory, { recursive: true, force: true })));
  });
  return async () => {
    const directory = await mkdtemp(join(tmpdir(), prefix));
    created.push(directory);
    return directory;
  };
}

/**
 * Writes files under a directory on disk, creating parents.
 *
 * @param root - the directory
 * @param files - workspace path → content
 */
export async function writeFiles(root: string, files: SeamFiles): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/**
 * The two seams every seam-neutral test runs against: in memory, and on disk in a temporary
 * directory (deleted after the test file).
 *
 * @param prefix - the temporary directory name prefix
 * @returns `[name, factory]` pairs for `describe.each`
 */
export function seamFactories(prefix: string): Array<[string, SeamFactory]> {
  const temporaryDirectory = useTemporaryDirectories(prefix);
  return [
    ["memory", async (files) => createMemoryFileSystem(files)],
    [
      "node",
      async (files) => {
        const root = await temporaryDirectory();
        await writeFiles(root, files);
        return createNodeFileSystem({ root });
      },
    ],
  ];
}
