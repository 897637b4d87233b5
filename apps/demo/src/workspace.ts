import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The sample workspace shipped with the demo (`apps/demo/workspace`). */
export const SAMPLE_WORKSPACE_DIRECTORY = fileURLToPath(new URL("../workspace/", import.meta.url));

/** A throw-away copy of a workspace. */
export interface TemporaryWorkspace {
  /** Absolute path of the copy. */
  root: string;
  /** Deletes the copy; safe to call more than once. */
  cleanup(): Promise<void>;
}

/**
 * Copies a workspace into a fresh temporary directory, so the agent can read and edit files
 * without touching the originals.
 *
 * @param source - the directory to copy; default {@link SAMPLE_WORKSPACE_DIRECTORY}
 * @returns the copy's root and a `cleanup` that deletes it
 * @example
 * const workspace = await createTemporaryWorkspace();
 * try {
 *   // … run the agent on workspace.root …
 * } finally {
 *   await workspace.cleanup();
 * }
 */
export async function createTemporaryWorkspace(
  source: string = SAMPLE_WORKSPACE_DIRECTORY,
): Promise<TemporaryWorkspace> {
  const root = await mkdtemp(join(tmpdir(), "agentool-demo-"));
  try {
    await cp(source, root, { recursive: true, errorOnExist: true, force: false });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    root,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
