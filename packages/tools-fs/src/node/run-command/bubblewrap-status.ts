import { spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  type Dirent,
  mkdtempSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join, relative } from "node:path";
import { climbsOut } from "./node-file-system.js";

/** Which sandbox a command ran in: bubblewrap (`bwrap`) or none (the host's own process space). */
export type CommandSandbox = "bubblewrap" | "none";

/** What {@link bubblewrapStatus} found. */
export interface BubblewrapStatus {
  /** Whether `bwrap` was found and started a sandbox here. */
  available: boolean;
  /** The `bwrap` binary (real path), when found. */
  path?: string;
  /** Why it is not available (not installed, or it failed to start a sandbox: the error). */
  reason?: string;
}

/**
 * The namespace and mount options every sandboxed command gets, before the bind mounts: a new
 * pid namespace (a fresh `/proc` that shows no host process), IPC, UTS and cgroup namespaces, no
 * network (unless the host shares it), a new session (no `TIOCSTI` into the host's terminal),
 * killed with its parent, every capability dropped (root outside stays powerless inside).
 */
const NAMESPACE_FLAGS = [
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
];

let cached: BubblewrapStatus | undefined;

/**
 * Replaces the detected status (`undefined`: detect again). For tests of the fallback.
 *
 * @internal
 */
export function setBubblewrapStatusForTesting(status: BubblewrapStatus | undefined): void {
  cached = status;
}

function findOnPath(name: string): string | undefined {
  for (const entry of (process.env.PATH ?? "").split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const candidate = join(entry, name);
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // not here
    }
  }
  for (const fallback of ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"]) {
    try {
      accessSync(fallback, constants.X_OK);
      return realpathSync(fallback);
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Whether bubblewrap works on this machine: `bwrap` found on the PATH (or in /usr/bin) and able
 * to start a sandbox with the options commands get (user namespaces may be off in a container).
 * Detected once per process (a ~10 ms start), then cached.
 *
 * @returns the status
 * @example
 * bubblewrapStatus(); // { available: true, path: "/usr/bin/bwrap" }
 */
export function bubblewrapStatus(): BubblewrapStatus {
  if (cached !== undefined) return cached;
  if (process.platform !== "linux") {
    cached = { available: false, reason: "bubblewrap runs on Linux only" };
    return cached;
  }
  const path = findOnPath("bwrap");
  if (path === undefined) {
    cached = {
      available: false,
      reason: "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)",
    };
    return cached;
  }
  const probe = spawnSync(
    path,
    [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      ...NAMESPACE_FLAGS,
      "--unshare-net",
      "--",
      "true",
    ],
    { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "ignore", "pipe"] },
  );
  cached =
    probe.status === 0
      ? { available: true, path }
      : {
          available: false,
          path,
          reason: `bwrap could not start a sandbox here: ${(probe.stderr ?? "").trim() || probe.error?.message || `exit ${probe.status}`}`,
        };
  return cached;
}

/** What {@link buildBubblewrapArguments} needs. */
export interface BubblewrapPlan {
  /** The workspace root (real path): bound read-write, the only writable place. */
  root: string;
  /** The working directory (real path, inside the root). */
  cwd: string;
  /** Paths to hide (absolute real paths): a file gets an empty file over it, a directory an empty read-only one. */
  hidden: readonly HiddenPath[];
  /** Share the host's network (default: a network namespace with loopback only). */
  network: boolean;
  /** The program (absolute path, resolved by the caller) and its arguments. */
  file: string;
  args: readonly string[];
  /** Directories emptied (a fresh tmpfs each): the temporary directories. Default `["/tmp"]`. */
  extraTmpfs?: readonly string[];
  /** Host files bound read-only at a path inside the sandbox (`[source, destination]`). */
  binds?: ReadonlyArray<readonly [string, string]>;
}

/** A path the sandbox hides. */
export interface HiddenPath {
  path: string;
  directory: boolean;
}

/**
 * The `bwrap` argv for one command: the whole file system read-only, a fresh `/dev`, `/proc`
 * (its own pid namespace: no host process is visible) and `/tmp`, `/run` emptied (no host
 * sockets: docker, dbus), the workspace root bound read-write, secret paths hidden, the command
 * run in `cwd`. The environment is the one `bwrap` itself is started with.
 */
export function buildBubblewrapArguments(plan: BubblewrapPlan): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run"];
  const emptied = [...new Set(["/tmp", ...(plan.extraTmpfs ?? [])])].sort(
    (first, second) => first.length - second.length,
  );
  for (const directory of emptied) args.push("--tmpfs", directory);
  const program = programTree(plan.file, emptied);
  if (program !== undefined) args.push("--ro-bind", program, program);
  if (plan.network) args.push("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve");
  for (const [source, destination] of plan.binds ?? []) args.push("--ro-bind", source, destination);
  // Hidden paths outside the root first (the user's home secrets), then the root, then its secrets.
  const outsideRoot = plan.hidden.filter((entry) => !isInsidePath(plan.root, entry.path));
  const insideRoot = plan.hidden.filter((entry) => isInsidePath(plan.root, entry.path));
  for (const entry of outsideRoot) args.push(...hide(entry));
  args.push("--bind", plan.root, plan.root);
  for (const entry of insideRoot) args.push(...hide(entry));
  args.push(...NAMESPACE_FLAGS);
  if (!plan.network) args.push("--unshare-net");
  args.push("--chdir", plan.cwd, "--", plan.file, ...plan.args);
  return args;
}

/**
 * What of the program must stay visible when it lives in a directory the sandbox empties (a clone
 * under `/tmp`, a tool cache in `$TMPDIR`): its outermost `node_modules` folder when it is an npm
 * package's binary (a script needs its package and dependencies, which pnpm keeps as siblings in
 * `node_modules/.pnpm`), else the program file alone. `undefined` when the program is outside
 * every emptied directory. The rest of the temporary directory stays hidden.
 *
 * @param file - the program (absolute real path)
 * @param emptied - the directories the sandbox empties
 * @returns the path to bind read-only, if any
 * @example
 * programTree("/tmp/x/node_modules/.pnpm/a@1/node_modules/a/bin/a", ["/tmp"]); // "/tmp/x/node_modules"
 */
export function programTree(file: string, emptied: readonly string[]): string | undefined {
  if (!emptied.some((directory) => isInsidePath(directory, file) && directory !== file)) {
    return undefined;
  }
  const marker = "/node_modules/";
  const first = file.indexOf(marker);
  return first === -1 ? file : file.slice(0, first + marker.length - 1);
}

let emptyFilePath: string | undefined;

/** An empty read-only regular file (a device like /dev/null upsets programs such as git). */
function emptyFile(): string {
  if (emptyFilePath !== undefined) return emptyFilePath;
  const directory = mkdtempSync(join(tmpdir(), "agentool-sandbox-"));
  const file = join(directory, "empty");
  writeFileSync(file, "", { mode: 0o400 });
  emptyFilePath = file;
  return file;
}

function hide(entry: HiddenPath): string[] {
  return entry.directory
    ? ["--tmpfs", entry.path, "--remount-ro", entry.path]
    : ["--ro-bind", emptyFile(), entry.path];
}

function isInsidePath(root: string, candidate: string): boolean {
  const inside = relative(root, candidate);
  return inside === "" || !climbsOut(inside);
}

/** Most directory entries one secret scan reads before it gives up (and the command is refused). */
export const MAX_SECRET_SCAN_ENTRIES = 2_000_000;

/**
 * Every existing secret path under `base` (absolute real paths), found by walking it with the
 * workspace's secret matcher: a secret directory is listed and not entered; symlinks are not
 * followed (a symlink that is itself secret is hidden on its target, when that exists). Directory
 * reads run in parallel.
 *
 * @param base - the directory to scan (real path)
 * @param isSecret - the matcher, over paths relative to `base`
 * @param maxDepth - how deep to look (default: all the way)
 * @returns the paths to hide
 * @throws Error when the tree has more than {@link MAX_SECRET_SCAN_ENTRIES} entries
 */
export async function findSecretPaths(
  base: string,
  isSecret: (path: string) => boolean,
  maxDepth = Number.POSITIVE_INFINITY,
): Promise<HiddenPath[]> {
  const found: HiddenPath[] = [];
  let entries = 0;
  let level: Array<{ absolute: string; relativePath: string }> = [
    { absolute: base, relativePath: "" },
  ];
  for (let depth = 0; level.length > 0 && depth < maxDepth; depth += 1) {
    const next: typeof level = [];
    const listings: Array<Dirent[] | undefined> = new Array(level.length);
    let cursor = 0;
    const worker = async () => {
      while (cursor < level.length) {
        const index = cursor;
        cursor += 1;
        listings[index] = await readdir((level[index] as { absolute: string }).absolute, {
          withFileTypes: true,
        }).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: Math.min(32, level.length) }, worker));
    for (let index = 0; index < level.length; index += 1) {
      const directory = level[index] as { absolute: string; relativePath: string };
      for (const dirent of listings[index] ?? []) {
        entries += 1;
        if (entries > MAX_SECRET_SCAN_ENTRIES) {
          throw new Error(`more than ${MAX_SECRET_SCAN_ENTRIES} entries to scan for secret paths`);
        }
        const relativePath =
          directory.relativePath.length === 0
            ? dirent.name
            : `${directory.relativePath}/${dirent.name}`;
        const absolute = join(directory.absolute, dirent.name);
        if (isSecret(relativePath)) {
          if (dirent.isSymbolicLink()) {
            const target = await realpath(absolute).catch(() => undefined);
            if (target === undefined) continue;
            const stats = await lstat(target).catch(() => undefined);
            if (stats !== undefined) found.push({ path: absolute, directory: stats.isDirectory() });
          } else found.push({ path: absolute, directory: dirent.isDirectory() });
        } else if (dirent.isDirectory()) next.push({ absolute, relativePath });
      }
    }
    level = next;
  }
  return found;
}
