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

/** What {@link stageEveryChange} staged, and what it left out because it holds a private key. */
export interface StagedChanges {
  /** The files it staged (edits, deletions, new files), in git's order. */
  files: string[];
  /** Changed files left unstaged because their content holds a private key. */
  skipped: string[];
}

/**
 * Stages every change of the working tree — edits, deletions and new untracked files — as
 * `git add --all` does, but never an ignored path, a secret path (the secret-path globs, as
 * pathspec exclusions) or a file whose content holds a private key. Refuses during an unresolved
 * merge: staging a conflicted file would mark it resolved, its conflict markers included.
 *
 * @param runner - the repository's runner
 * @param signal - cancels the calls
 * @param mounted - the tools a hint may name
 * @returns what was staged and what was left out
 */
export async function stageEveryChange(
  runner: GitRunner,
  signal: AbortSignal,
  mounted: MountedTools = mountedTools(undefined),
): Promise<StagedChanges> {
  const options = { signal, workingTree: true, pathspecMagic: true } as const;
  const unmerged = await runner.run(["diff", "--name-only", "-z", "--diff-filter=U"], options);
  if (unmerged.exitCode !== 0) failFromGit(unmerged, "git diff", mounted);
  const conflicted = unmerged.stdout.split("\0").filter((file) => file.length > 0);
  if (conflicted.length > 0) {
    refuse(
      "GIT_ERROR",
      `Unresolved merge conflicts in ${conflicted.join(", ")}: staging every change would commit the conflict markers.`,
      {
        hint: `Resolve the conflicted files${mounted.when("git_status", " git_status lists")} (edit them${mounted.when("git_add", ", then git_add them")}) and call again.`,
      },
    );
  }
  const skipped = await filesHoldingPrivateKeys(runner, signal, mounted);
  const pathspecs = [
    "--",
    ".",
    ...secretExclusionPathspecs(runner),
    ...skipped.map((file) => `:(exclude,literal)${file}`),
  ];
  const changed = await runner.run(
    ["diff", "--name-only", "-z", "--no-renames", "--ignore-submodules=dirty", ...pathspecs],
    options,
  );
  if (changed.exitCode !== 0) failFromGit(changed, "git diff", mounted);
  const untracked = await runner.run(
    ["ls-files", "-z", "--others", "--exclude-standard", ...pathspecs],
    options,
  );
  if (untracked.exitCode !== 0) failFromGit(untracked, "git ls-files", mounted);
  const added = await runner.run(["add", "--all", ...pathspecs], { ...options, write: true });
  if (added.exitCode !== 0) failFromGit(added, "git add --all", mounted);
  const files = [
    ...new Set(
      `${changed.stdout}\0${untracked.stdout}`.split("\0").filter((file) => file.length > 0),
    ),
  ].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  return { files, skipped };
}
