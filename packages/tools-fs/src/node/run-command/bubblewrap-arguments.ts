import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HiddenPath } from "./find-secret-paths.js";
import { isInside } from "./is-inside.js";

/**
 * The namespace and mount options every sandboxed command gets, before the bind mounts: a new
 * pid namespace (a fresh `/proc` that shows no host process), IPC, UTS and cgroup namespaces, no
 * network (unless the host shares it), a new session (no `TIOCSTI` into the host's terminal),
 * killed with its parent, every capability dropped (root outside stays powerless inside).
 *
 * @internal
 */
export const BUBBLEWRAP_NAMESPACE_FLAGS = [
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
];

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
  /** Size of each emptied temporary directory's tmpfs, in bytes (default: bwrap's, half the RAM). */
  tmpBytes?: number;
  /** Run before the program inside the sandbox (e.g. `prlimit … --`). */
  programPrefix?: readonly string[];
  /** bwrap mount arguments applied over the writable root, before its secrets are hidden (git's control files read-only). */
  rootOverlays?: readonly string[];
}

/**
 * The `bwrap` argv for one command: the whole file system read-only, a fresh `/dev`, `/proc`
 * (its own pid namespace: no host process is visible) and `/tmp`, `/run` emptied (no host
 * sockets: docker, dbus), the workspace root bound read-write (git's control files in it
 * read-only), secret paths hidden, the command
 * run in `cwd`. The environment is the one `bwrap` itself is started with.
 */
export function buildBubblewrapArguments(plan: BubblewrapPlan): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run"];
  const emptied = [...new Set(["/tmp", ...(plan.extraTmpfs ?? [])])].sort(
    (first, second) => first.length - second.length,
  );
  const size = plan.tmpBytes === undefined ? [] : ["--size", String(plan.tmpBytes)];
  for (const directory of emptied) args.push(...size, "--tmpfs", directory);
  const program = programTree(plan.file, emptied);
  if (program !== undefined) args.push("--ro-bind", program, program);
  if (plan.network) args.push("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve");
  for (const [source, destination] of plan.binds ?? []) args.push("--ro-bind", source, destination);
  // Hidden paths outside the root first (the user's home secrets), then the root, then its secrets.
  const outsideRoot = plan.hidden.filter((entry) => !isInside(plan.root, entry.path));
  const insideRoot = plan.hidden.filter((entry) => isInside(plan.root, entry.path));
  for (const entry of outsideRoot) args.push(...hide(entry));
  args.push("--bind", plan.root, plan.root, ...(plan.rootOverlays ?? []));
  for (const entry of insideRoot) args.push(...hide(entry));
  args.push(...BUBBLEWRAP_NAMESPACE_FLAGS);
  if (!plan.network) args.push("--unshare-net");
  args.push("--chdir", plan.cwd, "--", ...(plan.programPrefix ?? []), plan.file, ...plan.args);
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
  if (!emptied.some((directory) => isInside(directory, file) && directory !== file)) {
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
