import { execFile } from "node:child_process";
import { lstat, realpath } from "node:fs/promises";
import * as path from "node:path";
import { refuse } from "./git-failure.js";

/**
 * The hint of every "belongs to another user" refusal (the runner's own check and git's
 * "dubious ownership" message alike).
 */
export const OWNERSHIP_HINT =
  "The repository belongs to another user; ask the user to mark it safe (safe.directory), e.g. `git config --global --add safe.directory <root>`, or to fix its owner, then call again.";

/** What the ownership check needs to know about the process (the defaults are the real ones). */
export interface ProcessIdentity {
  /** The effective user id, or `undefined` where there are none (Windows). */
  euid: number | undefined;
  /** The environment the host's own git would see (`SUDO_UID`, `HOME`, `GIT_CONFIG_*`). */
  environment: NodeJS.ProcessEnv;
}

function currentIdentity(): ProcessIdentity {
  return { euid: process.geteuid?.(), environment: process.env };
}

/**
 * Whether a path is owned by the user git would accept, as git's `is_path_owned_by_current_uid`
 * decides: the effective uid; when that is root, a root-owned path, else the uid `sudo` recorded
 * in `SUDO_UID`.
 */
function ownedByCurrentUser(owner: number, identity: ProcessIdentity): boolean {
  let euid = identity.euid;
  if (euid === 0) {
    if (owner === 0) return true;
    const sudo = identity.environment.SUDO_UID;
    if (sudo !== undefined && /^\d+$/.test(sudo)) euid = Number(sudo);
  }
  return owner === euid;
}

/** Runs one `git config` read of the host's own (not the repository's) configuration. */
function readHostConfig(
  scope: "--system" | "--global",
  cwd: string,
  hostEnvironment: NodeJS.ProcessEnv,
): Promise<string[]> {
  const environment: Record<string, string> = { LC_ALL: "C", GIT_TERMINAL_PROMPT: "0" };
  for (const name of [
    "PATH",
    "HOME",
    "XDG_CONFIG_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "SYSTEMROOT",
  ]) {
    const value = hostEnvironment[name];
    if (value !== undefined) environment[name] = value;
  }
  const args = [
    "config",
    scope,
    "--null",
    "--includes",
    "--type=path",
    "--get-all",
    "safe.directory",
  ];
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      { cwd, env: environment, timeout: 10_000, maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        // Exit code 1 means "no such key"; any failure leaves the repository unsafe.
        // Values end with NUL; an empty value (a reset) stays an empty entry.
        resolve(error ? [] : stdout.split("\0").slice(0, -1));
      },
    );
  });
}

/**
 * The `safe.directory` values of the host's git configuration in git's reading order (system,
 * then global), never the repository's own config: only "protected" configuration counts.
 */
async function safeDirectoryEntries(identity: ProcessIdentity, cwd: string): Promise<string[]> {
  const noSystem = identity.environment.GIT_CONFIG_NOSYSTEM;
  const skipSystem = noSystem !== undefined && !/^(0|false|no|off|)$/i.test(noSystem.trim());
  const [system, global] = await Promise.all([
    skipSystem ? Promise.resolve([]) : readHostConfig("--system", cwd, identity.environment),
    readHostConfig("--global", cwd, identity.environment),
  ]);
  return [...system, ...global];
}

async function realOrSelf(location: string): Promise<string> {
  try {
    return await realpath(location);
  } catch {
    return location;
  }
}

/**
 * Whether one `safe.directory` value names the repository: `*` (everything), `<dir>/*` (every
 * repository below `<dir>`), or the repository's own top-level directory (symlinks resolved).
 * Relative values — `.` included — are ignored: the tools' working directory is not the host's.
 */
async function entryMatches(entry: string, realRoot: string): Promise<boolean> {
  if (entry === "*") return true;
  if (!path.isAbsolute(entry)) return false;
  if (entry.endsWith("/*")) {
    const directory = entry.slice(0, -2);
    const prefixes = [directory, await realOrSelf(directory)];
    return prefixes.some((prefix) => realRoot.startsWith(`${prefix.replace(/\/+$/, "")}/`));
  }
  return entry === realRoot || (await realOrSelf(entry)) === realRoot;
}

/** Applies the entries as git does: each match marks the repository safe, an empty value resets. */
async function markedSafe(entries: readonly string[], realRoot: string): Promise<boolean> {
  let safe = false;
  for (const entry of entries) {
    if (entry.length === 0) safe = false;
    else if (!safe && (await entryMatches(entry, realRoot))) safe = true;
  }
  return safe;
}

/**
 * Refuses (`PERMISSION_DENIED`) a repository whose top-level directory or `.git` directory
 * belongs to another user, unless the host's git configuration marks it safe — the check git
 * itself makes while discovering a repository ("detected dubious ownership"), which it skips
 * when `GIT_DIR` is given, as the runner does. Cheap (two `lstat`s) unless the owners differ.
 *
 * @param realRoot - the repository's real top-level directory
 * @param identity - the process identity (tests pass their own)
 */
export async function checkOwnership(
  realRoot: string,
  identity: ProcessIdentity = currentIdentity(),
): Promise<void> {
  if (identity.euid === undefined) return; // No uids to compare (Windows).
  const gitDirectory = path.join(realRoot, ".git");
  const owners = await Promise.all(
    [realRoot, gitDirectory].map((location) =>
      lstat(location).then(
        (info) => ({ location, owner: info.uid }),
        () => undefined,
      ),
    ),
  );
  const foreign = owners.find((entry) => entry && !ownedByCurrentUser(entry.owner, identity));
  if (foreign === undefined) return;
  const entries = await safeDirectoryEntries(identity, path.parse(realRoot).root);
  if (await markedSafe(entries, realRoot)) return;
  refuse(
    "PERMISSION_DENIED",
    `The repository at ${realRoot} belongs to another user (${foreign.location} is owned by uid ${foreign.owner}; the tools run as uid ${identity.euid}), so git would refuse it as "dubious ownership": its configuration is someone else's.`,
    { hint: OWNERSHIP_HINT.replace("<root>", realRoot) },
  );
}
