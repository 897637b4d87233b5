import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { lstat, rm } from "node:fs/promises";
import { join } from "node:path";
import type { HiddenPath } from "./find-secret-paths.js";

/**
 * Directories of a git directory that hold what git runs or where it reads config from: bound
 * read-only in the sandbox, or, when missing, shadowed by an empty read-only directory (so a
 * command cannot create them: an empty directory is what git itself makes there).
 */
const CONTROL_DIRECTORIES = ["hooks", "info", "worktrees"];

/** Files git reads config or other repositories from; bound read-only when they exist. */
const CONTROL_FILES = ["commondir", "objects/info/alternates"];

/**
 * What the sandbox does to keep git's control files in the workspace read-only, while objects,
 * refs, the index, `HEAD` and the logs stay writable (`git add` and `git commit` work).
 */
export interface GitControlPlan {
  /** bwrap arguments: read-only binds over existing control files and directories. */
  readonly args: string[];
  /**
   * Control files that did not exist before the call (`commondir`, `config.worktree`,
   * `objects/info/alternates`): removed after it if the command created them.
   */
  readonly absent: string[];
}

function kind(path: string): "file" | "directory" | undefined {
  try {
    const stats = statSync(realpathSync(path));
    return stats.isDirectory() ? "directory" : stats.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}

function readOnly(path: string): string[] {
  return ["--ro-bind", path, path];
}

function emptyReadOnlyDirectory(path: string): string[] {
  return ["--tmpfs", path, "--remount-ro", path];
}

function listing(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The mounts for one git directory (`.git`, or a submodule's `modules/<name>`): `hooks`, `info`
 * and `worktrees` read-only (empty read-only when missing), every `config*` file, `commondir` and
 * `objects/info/alternates` read-only, and each submodule's git directory under `modules/` the
 * same way (depth-limited).
 */
function mountsForGitDirectory(gitDirectory: string, plan: GitControlPlan, depth: number): void {
  for (const name of CONTROL_DIRECTORIES) {
    const path = join(gitDirectory, name);
    const found = kind(path);
    if (found === "directory") plan.args.push(...readOnly(path));
    else if (found === undefined) plan.args.push(...emptyReadOnlyDirectory(path));
  }
  const entries = listing(gitDirectory);
  for (const entry of entries) {
    if (!entry.name.toLowerCase().startsWith("config")) continue;
    const path = join(gitDirectory, entry.name);
    if (kind(path) !== undefined) plan.args.push(...readOnly(path));
  }
  if (!entries.some((entry) => entry.name === "config.worktree")) {
    plan.absent.push(join(gitDirectory, "config.worktree"));
  }
  for (const name of CONTROL_FILES) {
    const path = join(gitDirectory, name);
    if (kind(path) !== undefined) plan.args.push(...readOnly(path));
    else plan.absent.push(path);
  }
  const modules = join(gitDirectory, "modules");
  if (kind(modules) !== "directory") {
    plan.args.push(...emptyReadOnlyDirectory(modules));
    return;
  }
  if (depth >= 4) {
    plan.args.push(...readOnly(modules));
    return;
  }
  for (const entry of listing(modules)) {
    if (entry.isDirectory()) mountsForGitDirectory(join(modules, entry.name), plan, depth + 1);
  }
}

/**
 * The read-only mounts over git's control files for every `.git` found in the workspace: a `.git`
 * directory gets {@link mountsForGitDirectory}; a `.git` file (a worktree's or submodule's pointer
 * to its git directory) is bound read-only itself. Bound after the workspace, before its secret
 * paths are hidden (so a hidden `.git/config` stays hidden).
 *
 * @param gitEntries - the `.git` directories and files found by the secret scan
 * @returns the bwrap arguments and the control files to remove after the call if created
 */
export function gitControlMounts(gitEntries: readonly HiddenPath[]): GitControlPlan {
  const plan: GitControlPlan = { args: [], absent: [] };
  for (const entry of gitEntries) {
    if (entry.directory) mountsForGitDirectory(entry.path, plan, 0);
    else plan.args.push(...readOnly(entry.path));
  }
  return plan;
}

/**
 * Removes the git control files a sandboxed command created where none existed before the call
 * (`commondir`, `config.worktree`, `objects/info/alternates`): read-only binds cannot cover a file
 * that is not there, so it is undone on the host right after the command ends.
 *
 * @param absent - the paths {@link gitControlMounts} found missing
 * @returns the paths removed
 */
export async function removeCreatedControlFiles(absent: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const path of absent) {
    const existed = await lstat(path).then(
      () => true,
      () => false,
    );
    if (!existed) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
