import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { errorMessage, fail, type ToolFailure } from "@agentool/contract";
import { buildBubblewrapArguments } from "./bubblewrap-arguments.js";
import { findSecretPaths, type HiddenPath } from "./find-secret-paths.js";
import { gitControlMounts } from "./git-control-mounts.js";
import { isInside } from "./is-inside.js";
import { prlimitPrefix, type ResourceLimits } from "./resource-limits.js";

/** What {@link sandboxedSpawn} wraps in bubblewrap. */
export interface SandboxedCommand {
  /** The `bwrap` binary. */
  bubblewrapPath: string;
  /** The workspace root (real path). */
  rootReal: string;
  /** The working directory (real path). */
  cwdAbsolute: string;
  /** The workspace's secret-path test. */
  isSecret: (path: string) => boolean;
  /** Whether the command may use the network. */
  network: boolean;
  /** The program (real path) and its arguments. */
  file: string;
  args: string[];
  /** Host files bound read-only inside (`[source, destination]`), e.g. git's attributes file. */
  binds: ReadonlyArray<readonly [string, string]>;
  /** What the command may use of the host. */
  limits: ResourceLimits;
  /** Whether `bwrap` takes `--size` (else the temporary directories are tmpfs of bwrap's default size). */
  sizedTmpfs: boolean;
  /** Whether a cgroup already caps the memory (else each process's address space is capped). */
  memoryCapped: boolean;
}

/** What {@link sandboxedSpawn} returns: what to spawn, and what to clean up after the call. */
export interface SandboxedSpawn {
  file: string;
  args: string[];
  /** git control files that did not exist before the call: removed after it if created. */
  absentGitControlFiles: string[];
}

/**
 * What runs for a sandboxed command: `bwrap` with the workspace the only writable place (git's
 * control files in it read-only: hooks, info, config, commondir, worktrees, submodules' hooks
 * and config, alternates), its secret paths and the home directory's hidden, the temporary
 * directories emptied. A workspace too large to scan for secret paths is refused (`TOO_LARGE`).
 *
 * @param command - the command and where it runs
 * @returns the file and arguments to spawn, or the failure
 */
export async function sandboxedSpawn(
  command: SandboxedCommand,
): Promise<SandboxedSpawn | ToolFailure> {
  let hidden: HiddenPath[];
  const gitEntries: HiddenPath[] = [];
  try {
    hidden = await sandboxHiddenPaths(command.rootReal, command.isSecret, gitEntries);
  } catch (error) {
    return fail(
      "TOO_LARGE",
      `The workspace is too large to scan for secret paths before sandboxing the command (${errorMessage(error)}).`,
      { hint: "Ask the user to narrow the workspace root." },
    );
  }
  const gitControl = gitControlMounts(gitEntries);
  const args = buildBubblewrapArguments({
    root: command.rootReal,
    cwd: command.cwdAbsolute,
    hidden,
    network: command.network,
    file: command.file,
    args: command.args,
    extraTmpfs: privateTemporaryDirectories(command.rootReal),
    binds: command.binds,
    rootOverlays: gitControl.args,
    tmpBytes: command.sizedTmpfs ? command.limits.tmpBytes : undefined,
    programPrefix: prlimitPrefix(command.limits, !command.memoryCapped),
  });
  return {
    file: command.bubblewrapPath,
    args,
    absentGitControlFiles: gitControl.absent,
  };
}

/**
 * What the sandbox hides: secret paths in the workspace, and in the user's home (two levels deep);
 * the workspace's `.git` directories and files are collected into `gitEntries` on the way.
 */
async function sandboxHiddenPaths(
  rootReal: string,
  isSecret: (path: string) => boolean,
  gitEntries: HiddenPath[],
): Promise<HiddenPath[]> {
  const hidden = await findSecretPaths(rootReal, isSecret, Number.POSITIVE_INFINITY, gitEntries);
  const home = await realpath(homedir()).catch(() => undefined);
  if (home !== undefined && home !== "/" && !isInside(rootReal, home)) {
    for (const entry of await findSecretPaths(home, isSecret, 2)) {
      if (!isInside(rootReal, entry.path)) hidden.push(entry);
    }
  }
  return hidden;
}

/**
 * The temporary directories a sandboxed command gets empty (other commands' capture files and
 * whatever else the host keeps there stay out of sight); one inside the workspace is left alone.
 */
function privateTemporaryDirectories(rootReal: string): string[] {
  const directories: string[] = [];
  for (const candidate of [tmpdir(), "/tmp", "/var/tmp"]) {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (real === "/" || isInside(rootReal, real) || directories.includes(real)) continue;
    directories.push(real);
  }
  return directories;
}
