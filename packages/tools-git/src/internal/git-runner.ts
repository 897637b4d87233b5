import { spawn } from "node:child_process";
import { lstat, readFile, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { createSecretPathMatcher, DEFAULT_SECRET_PATHS } from "@agentool/contract";
import {
  type GitConfigEntry,
  gitConfigEnvironment,
  gitNeutralConfig,
} from "@agentool/contract/policy";
import { refuse } from "./git-failure.js";
import { checkOwnership } from "./ownership.js";

/**
 * What the git tools add to the contract's neutral configuration: no transport at all (the tools
 * never fetch), and output the tools parse, neither coloured nor quoted by the repository's taste.
 * Command-scope config (`GIT_CONFIG_COUNT`) beats every config file, including the repository's
 * `.git/config` and anything it includes, and is inherited by git processes git itself starts.
 */
const OUTPUT_CONFIG: readonly GitConfigEntry[] = [
  ["protocol.allow", "never"],
  ["color.ui", "false"],
  ["color.diff", "false"],
  ["color.status", "false"],
  ["color.branch", "false"],
  ["core.quotePath", "false"],
  ["log.showRoot", "true"],
];

/** Options of {@link createGitRunner}. */
export interface GitRunnerOptions {
  /** The repository's top-level directory, as the host configured it. */
  root: string;
  /** Let the repository's hooks run (default: they never do). */
  runHooks: boolean;
  /** Secret-path globs (default: the contract's `DEFAULT_SECRET_PATHS`). */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (default: `DEFAULT_SECRET_EXCEPTIONS`). */
  secretExceptions?: readonly string[];
}

/** Options of one git call. */
export interface GitCallOptions {
  /** Kills the git process (and its process group) when aborted. */
  signal?: AbortSignal;
  /** Written to git's stdin. */
  input?: string;
  /** Stop reading (and kill git) after this many stdout bytes. Default 8 MiB. */
  maxOutputBytes?: number;
  /** The call may change the repository (index, refs, objects). Default `false`. */
  write?: boolean;
  /** Also neutralise every `filter.<name>.*` and `diff.<name>.*` driver configured. */
  workingTree?: boolean;
  /** Extra environment (e.g. author identity). */
  environment?: Record<string, string>;
  /**
   * Let pathspec magic work (for the tools' own `:(exclude,glob)` secret exclusions). Every
   * model-supplied path must then be passed as `:(literal)<path>`. Default `false`: all
   * pathspecs are literal (`GIT_LITERAL_PATHSPECS=1`).
   */
  pathspecMagic?: boolean;
}

/** What one git call produced. */
export interface GitCallResult {
  /** git's exit code (`-1` when it was killed). */
  exitCode: number;
  /** stdout decoded as UTF-8 (up to the cap). */
  stdout: string;
  /** stdout bytes (up to the cap). */
  stdoutBytes: Buffer;
  /** stderr (first 64 KiB). */
  stderr: string;
  /** Whether stdout hit the cap (git was then stopped). */
  truncated: boolean;
}

/** A hardened way to run git on one repository. */
export interface GitRunner {
  /** The root as the host configured it (absolute). */
  readonly displayRoot: string;
  /** The real (symlink-free) root. */
  realRoot(): Promise<string>;
  /** Runs git with an argv array (never a shell). */
  run(args: readonly string[], options?: GitCallOptions): Promise<GitCallResult>;
  /** Runs `work` after every earlier write on the same repository has finished. */
  withWriteLock<T>(work: () => Promise<T>): Promise<T>;
  /** The secret-path globs in force. */
  readonly secretPaths: readonly string[];
  /** Whether a repository path is a secret path (itself or inside a secret directory). */
  isSecret(relative: string): boolean;
}

const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;

/** Write locks per real root, shared by every runner in the process. */
const writeQueues = new Map<string, Promise<unknown>>();

function baseEnvironment(realRoot: string): Record<string, string> {
  const environment: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    LC_ALL: "C",
    LANG: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_EDITOR: ":",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_CEILING_DIRECTORIES: path.dirname(realRoot),
    // The repository is the root's own .git, nothing a .git file or commondir points at.
    GIT_DIR: path.join(realRoot, ".git"),
    GIT_COMMON_DIR: path.join(realRoot, ".git"),
    // Beats a hostile core.worktree: the working tree is the configured root, nothing else.
    GIT_WORK_TREE: realRoot,
  };
  // The host's own global config (identity, excludes) stays readable; nothing else leaks in.
  for (const name of ["HOME", "XDG_CONFIG_HOME", "TMPDIR", "SYSTEMROOT"]) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}

const LAYOUT_HINT =
  "Ask the user to check the repository: the git tools work only on a root whose own .git directory holds the whole repository (not a linked worktree, a submodule checkout or borrowed objects).";

function isInsideRoot(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** Where an alternates entry leads, symlinks followed (the lexical path when it does not exist). */
async function realLocation(location: string): Promise<string> {
  try {
    return await realpath(location);
  } catch {
    return location;
  }
}

/**
 * Refuses `objects/info/alternates` entries (and theirs, as deep as git follows them) that lead
 * out of the root.
 */
async function checkAlternates(objects: string, root: string, depth: number): Promise<void> {
  const listing = await readIfPresent(path.join(objects, "info", "alternates"));
  if (listing === undefined) return;
  for (const raw of listing.split("\n")) {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith("#")) continue;
    const target = await realLocation(path.resolve(objects, line));
    if (line.startsWith('"') || !isInsideRoot(target, root)) {
      refuse(
        "BLOCKED",
        `The repository borrows objects from outside the root (.git/objects/info/alternates names ${JSON.stringify(line)}), so the git tools would read another repository.`,
        { hint: LAYOUT_HINT },
      );
    }
    if (depth < 5) await checkAlternates(target, root, depth + 1);
  }
}

/**
 * Refuses a repository layout that would point git at another repository: a `.git` that is a
 * file (`gitdir: …`) or a symlink, a `commondir` file, or alternates leading out of the root.
 * Cheap (a few `lstat`s) and run before every call, since files can change between calls.
 */
async function checkRepositoryLayout(root: string): Promise<void> {
  const gitDirectory = path.join(root, ".git");
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(gitDirectory);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return; // git reports "not a git repository".
    throw error;
  }
  if (info.isSymbolicLink()) {
    const target = await realLocation(gitDirectory);
    refuse(
      "BLOCKED",
      `The root's .git is a symbolic link (to ${target}), so the git tools would work on a repository elsewhere.`,
      { hint: LAYOUT_HINT },
    );
  }
  if (info.isFile()) {
    const text = (await readIfPresent(gitDirectory)) ?? "";
    const pointer = /^gitdir:\s*(.*)$/m.exec(text)?.[1]?.trim() ?? "";
    const target = pointer.length > 0 ? path.resolve(root, pointer) : "";
    const where = isInsideRoot(target, root) ? "" : ", outside the root";
    refuse(
      "BLOCKED",
      `The root's .git is a file (gitdir: ${JSON.stringify(pointer)}${where}), not git's directory, so the git tools would work on a repository elsewhere.`,
      { hint: LAYOUT_HINT },
    );
  }
  if (!info.isDirectory()) return;
  const [commondir] = await Promise.all([
    lstat(path.join(gitDirectory, "commondir")).then(
      () => true,
      () => false,
    ),
    checkAlternates(path.join(gitDirectory, "objects"), root, 0),
  ]);
  if (commondir) {
    refuse(
      "BLOCKED",
      "The repository has a .git/commondir file, which would point git at another repository's refs, objects and config.",
      { hint: LAYOUT_HINT },
    );
  }
}

function addConfig(environment: Record<string, string>, entries: readonly GitConfigEntry[]): void {
  Object.assign(environment, gitConfigEnvironment(entries));
}

/**
 * Reads the names of every filter and diff driver configured for the repository (local, global,
 * included files) so that each can be switched off by name.
 */
function driverOverrides(listing: string): [string, string][] {
  const filters = new Set<string>();
  const diffs = new Set<string>();
  for (const record of listing.split("\0")) {
    const key = record.split("\n", 1)[0] ?? "";
    const lastDot = key.lastIndexOf(".");
    const firstDot = key.indexOf(".");
    if (firstDot === -1 || lastDot <= firstDot) continue;
    const section = key.slice(0, firstDot).toLowerCase();
    const name = key.slice(firstDot + 1, lastDot);
    if (section === "filter") filters.add(name);
    else if (section === "diff") diffs.add(name);
  }
  const overrides: [string, string][] = [];
  for (const name of filters) {
    overrides.push(
      [`filter.${name}.clean`, ""],
      [`filter.${name}.smudge`, ""],
      [`filter.${name}.process`, ""],
      [`filter.${name}.required`, "false"],
    );
  }
  for (const name of diffs) {
    overrides.push([`diff.${name}.textconv`, ""], [`diff.${name}.command`, ""]);
  }
  return overrides;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

function spawnGit(
  args: readonly string[],
  cwd: string,
  environment: Record<string, string>,
  options: GitCallOptions,
): Promise<GitCallResult> {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise<GitCallResult>((resolve, reject) => {
    const signal = options.signal;
    if (signal?.aborted) {
      reject(abortedFailure());
      return;
    }
    const child = spawn("git", args, {
      cwd,
      env: environment,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: true,
      windowsHide: true,
    });
    const chunks: Buffer[] = [];
    let stdoutLength = 0;
    let truncated = false;
    const errorChunks: Buffer[] = [];
    let stderrLength = 0;
    let settled = false;

    const onAbort = () => {
      killGroup(child.pid);
      if (!settled) {
        settled = true;
        reject(abortedFailure());
      }
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout?.on("data", (chunk: Buffer) => {
      if (truncated) return;
      const room = maxOutputBytes - stdoutLength;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        stdoutLength = maxOutputBytes;
        truncated = true;
        killGroup(child.pid);
        return;
      }
      chunks.push(chunk);
      stdoutLength += chunk.length;
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderrLength >= MAX_STDERR_BYTES) return;
      errorChunks.push(chunk);
      stderrLength += chunk.length;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      if (error.code === "ENOENT") {
        reject(
          missingGit(
            "git was not found on PATH, so the git tools cannot run.",
            "Ask the user to install git (https://git-scm.com) and restart the host.",
          ),
        );
      } else reject(error);
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on("error", () => {
        // git may exit before reading all of its input; its exit code tells what happened.
      });
      child.stdin.end(options.input);
    }
    child.on("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      const stdoutBytes = Buffer.concat(chunks, stdoutLength);
      let stdout = stdoutBytes.toString("utf8");
      if (truncated && stdout.endsWith("\uFFFD")) stdout = stdout.replace(/\uFFFD+$/, "");
      resolve({
        exitCode: code ?? -1,
        stdout,
        stdoutBytes,
        stderr: Buffer.concat(errorChunks).toString("utf8").slice(0, MAX_STDERR_BYTES),
        truncated,
      });
    });
  });
}

function abortedFailure(): Error {
  try {
    refuse("ABORTED", "The git command was cancelled and its process stopped.", {
      retryable: true,
    });
  } catch (error) {
    return error as Error;
  }
}

function missingGit(message: string, hint: string): Error {
  try {
    refuse("DEPENDENCY_MISSING", message, { hint });
  } catch (error) {
    return error as Error;
  }
}

/**
 * Creates the hardened git runner every tool uses: argv only (no shell), a scrubbed environment,
 * command-scope config that switches off every config-driven command (fsmonitor, pager, editor,
 * ssh, credential helpers, external diff, gpg, hooks unless `runHooks`, and — for calls that read
 * the working tree — each configured filter and diff driver by name), the process group killed
 * on abort, and stdout capped.
 *
 * @param options - the root and whether hooks may run
 * @returns the runner
 */
export function createGitRunner(options: GitRunnerOptions): GitRunner {
  const displayRoot = path.resolve(options.root);
  let realRootPromise: Promise<string> | undefined;

  async function resolveRoot(): Promise<string> {
    let real: string;
    try {
      real = await realpath(displayRoot);
    } catch {
      refuse("NOT_CONFIGURED", `The repository root ${displayRoot} does not exist.`, {
        hint: "Ask the user to fix the git tools' root option: it must be an existing repository.",
      });
    }
    const info = await stat(real);
    if (!info.isDirectory()) {
      refuse("NOT_CONFIGURED", `The repository root ${displayRoot} is not a directory.`, {
        hint: "Ask the user to point the git tools' root option at a repository directory.",
      });
    }
    return real;
  }

  function realRoot(): Promise<string> {
    if (realRootPromise === undefined) {
      realRootPromise = resolveRoot();
      realRootPromise.catch(() => {
        realRootPromise = undefined;
      });
    }
    return realRootPromise;
  }

  const config = gitNeutralConfig({ hooks: options.runHooks, extra: OUTPUT_CONFIG });

  async function run(
    args: readonly string[],
    callOptions: GitCallOptions = {},
  ): Promise<GitCallResult> {
    const root = await realRoot();
    await checkRepositoryLayout(root);
    // GIT_DIR skips git's own ownership check, so the runner makes it.
    await checkOwnership(root);
    const environment = baseEnvironment(root);
    if (!callOptions.write) environment.GIT_OPTIONAL_LOCKS = "0";
    if (callOptions.pathspecMagic) delete environment.GIT_LITERAL_PATHSPECS;
    let entries = config;
    if (callOptions.workingTree) {
      const probeEnvironment = { ...environment };
      addConfig(probeEnvironment, config);
      const listing = await spawnGit(
        ["config", "--null", "--get-regexp", "^(filter|diff)\\."],
        root,
        probeEnvironment,
        { signal: callOptions.signal, maxOutputBytes: 1024 * 1024 },
      );
      if (listing.exitCode !== 0 && listing.exitCode !== 1) {
        refuse("GIT_ERROR", `git could not read the repository configuration: ${listing.stderr}`, {
          hint: "Check that the repository's .git/config is valid (git_status shows the error too).",
        });
      }
      entries = [...config, ...driverOverrides(listing.stdout)];
    }
    addConfig(environment, entries);
    Object.assign(environment, callOptions.environment ?? {});
    return spawnGit(args, root, environment, callOptions);
  }

  async function withWriteLock<T>(work: () => Promise<T>): Promise<T> {
    const key = await realRoot();
    const previous = writeQueues.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.then(
      () => undefined,
      () => undefined,
    );
    writeQueues.set(key, settled);
    settled.then(() => {
      if (writeQueues.get(key) === settled) writeQueues.delete(key);
    });
    return current;
  }

  const secretPaths = Object.freeze([...(options.secretPaths ?? DEFAULT_SECRET_PATHS)]);
  const isSecret = createSecretPathMatcher({
    secretPaths,
    ...(options.secretExceptions === undefined
      ? {}
      : { secretExceptions: options.secretExceptions }),
  });
  return { displayRoot, realRoot, run, withWriteLock, secretPaths, isSecret };
}
