import { lstat, readFile } from "node:fs/promises";
import * as path from "node:path";
import { containsPrivateKey, type MountedTools, mountedTools } from "@agentool/contract";
import { refuse } from "./git-failure.js";
import type { GitRunner } from "./git-runner.js";
import { type FileChange, parsePorcelainStatus } from "./parse-status.js";
import { secretExclusionPathspecs } from "./paths.js";
import { failFromGit } from "./tool-support.js";

/**
 * Stages confined paths and reports what is staged under them; shared by `git_add` and
 * `git_commit { files }`.
 *
 * @param runner - the repository's runner
 * @param paths - confined repository paths
 * @param signal - cancels the call
 * @param mounted - the tools a hint may name
 */
export async function stagePaths(
  runner: GitRunner,
  paths: readonly string[],
  signal: AbortSignal,
  mounted: MountedTools = mountedTools(undefined),
): Promise<void> {
  const result = await runner.run(["add", "--", ...paths], {
    signal,
    write: true,
    workingTree: true,
  });
  if (result.exitCode === 0) return;
  const missing = /pathspec '(.*)' did not match any files/.exec(result.stderr);
  if (missing) {
    refuse("FILE_NOT_FOUND", `${missing[1]} does not exist and is not tracked by git.`, {
      hint: `Check the name${mounted.when("git_status", " with git_status (it lists changed and untracked files)")} and call again.`,
    });
  }
  if (/ignored by one of your \.gitignore files/.test(result.stderr)) {
    refuse(
      "GIT_ERROR",
      `Some paths are ignored by .gitignore and were not staged: ${result.stderr
        .split("\n")
        .filter((line) => line.length > 0 && !/^(hint|The following)/.test(line))
        .join(", ")}.`,
      {
        hint: "Leave ignored files out (they are usually build output or secrets), or ask the user to change .gitignore.",
      },
    );
  }
  failFromGit(result, "git add", mounted);
}

/**
 * Reads what is staged under some paths.
 *
 * @param runner - the repository's runner
 * @param paths - confined repository paths
 * @param signal - cancels the call
 * @param mounted - the tools a hint may name
 * @returns the staged changes
 */
export async function stagedUnder(
  runner: GitRunner,
  paths: readonly string[],
  signal: AbortSignal,
  mounted: MountedTools = mountedTools(undefined),
): Promise<FileChange[]> {
  const status = await runner.run(
    ["status", "--porcelain=v2", "-z", "--untracked-files=no", "--renames", "--", ...paths],
    { signal, workingTree: true },
  );
  if (status.exitCode !== 0) failFromGit(status, "git status", mounted);
  return parsePorcelainStatus(status.stdout).changes.filter((change) => change.staged);
}

/**
 * Lists the changed and new files `add --all` would stage whose working-tree content holds a
 * private key (`containsPrivateKey`), so that `git_commit all` leaves them out. Only the
 * changes are read (modified and untracked, not ignored, not secret), never the whole tree.
 *
 * @param runner - the repository's runner
 * @param signal - cancels the call
 * @param mounted - the tools a hint may name
 * @returns repository paths, in git's order
 */
export async function filesHoldingPrivateKeys(
  runner: GitRunner,
  signal: AbortSignal,
  mounted: MountedTools = mountedTools(undefined),
): Promise<string[]> {
  const listing = await runner.run(
    [
      "ls-files",
      "-z",
      "--modified",
      "--others",
      "--exclude-standard",
      "--",
      ".",
      ...secretExclusionPathspecs(runner),
    ],
    { signal, pathspecMagic: true, workingTree: true },
  );
  if (listing.exitCode !== 0) failFromGit(listing, "git ls-files", mounted);
  const root = await runner.realRoot();
  const found: string[] = [];
  const seen = new Set<string>();
  for (const file of listing.stdout.split("\0")) {
    if (file.length === 0 || seen.has(file)) continue;
    seen.add(file);
    const location = path.join(root, ...file.split("/"));
    const info = await lstat(location).catch(() => undefined);
    if (info === undefined || !info.isFile()) continue;
    const content = await readFile(location, "latin1").catch(() => "");
    if (containsPrivateKey(content)) found.push(file);
  }
  return found;
}
