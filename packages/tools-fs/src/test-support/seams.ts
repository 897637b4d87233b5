import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach } from "vitest";
import type { FileSystem } from "../file-system.js";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createNodeFileSystem } from "../node/node-file-system.js";
import { createWorkspace, type Workspace } from "../workspace.js";

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

/** A workspace on disk for one test, and a directory outside it for escape attempts. */
export interface NodeWorkspaceFixture {
  /** The workspace root. */
  root: string;
  /** A directory outside the root (symlink and path escapes point here). */
  outside: string;
  /** The workspace over a Node seam confined to `root`. */
  workspace: Workspace;
}

/**
 * Gives every test of a file a fresh workspace on disk and a directory outside it, both deleted
 * after the test.
 *
 * @param prefix - the temporary directory name prefix
 * @param assign - receives each test's fixture (assign it to the file's variables)
 */
export function useNodeWorkspace(
  prefix: string,
  assign: (fixture: NodeWorkspaceFixture) => void,
): void {
  let created: NodeWorkspaceFixture | undefined;
  beforeEach(async () => {
    const root = await mkdtemp(join(tmpdir(), prefix));
    const outside = await mkdtemp(join(tmpdir(), `${prefix}outside-`));
    created = {
      root,
      outside,
      workspace: createWorkspace({ fileSystem: createNodeFileSystem({ root }) }),
    };
    assign(created);
  });
  afterEach(async () => {
    if (created === undefined) return;
    await rm(created.root, { recursive: true, force: true });
    await rm(created.outside, { recursive: true, force: true });
  });
}

/**
 * Whether something exists at an absolute path.
 *
 * @param path - an absolute path
 * @returns `true` when `stat` succeeds
 */
export function pathExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * A tool result reduced to `"success"` or its error code.
 *
 * @param promise - a pending `tool.run(…)`
 * @returns `"success"` or the error code
 */
export async function errorCodeOf(
  promise: Promise<{ success: boolean; error?: { code: string } }>,
): Promise<string | undefined> {
  const result = await promise;
  return result.success ? "success" : result.error?.code;
}
