import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { BUBBLEWRAP_NAMESPACE_FLAGS } from "./bubblewrap-arguments.js";

/** Which sandbox a command ran in: bubblewrap (`bwrap`) or none (the host's own process space). */
export type CommandSandbox = "bubblewrap" | "none";

/** What {@link bubblewrapStatus} found. */
export interface BubblewrapStatus {
  /** Whether `bwrap` was found and started a sandbox here. */
  available: boolean;
  /** The `bwrap` binary (real path), when found. */
  path?: string;
  /** Whether this `bwrap` takes `--size` for a tmpfs (0.5 and later). */
  sizedTmpfs?: boolean;
  /** Why it is not available (not installed, or it failed to start a sandbox: the error). */
  reason?: string;
}

let cached: BubblewrapStatus | undefined;

/** Whether `bwrap --help` lists `--size` (a tmpfs of a given size). */
function takesSize(path: string): boolean {
  const help = spawnSync(path, ["--help"], { encoding: "utf8", timeout: 10_000 });
  return /--size\b/.test(`${help.stdout ?? ""}${help.stderr ?? ""}`);
}

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
      ...BUBBLEWRAP_NAMESPACE_FLAGS,
      "--unshare-net",
      "--",
      "true",
    ],
    { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "ignore", "pipe"] },
  );
  cached =
    probe.status === 0
      ? { available: true, path, sizedTmpfs: takesSize(path) }
      : {
          available: false,
          path,
          reason: `bwrap could not start a sandbox here: ${(probe.stderr ?? "").trim() || probe.error?.message || `exit ${probe.status}`}`,
        };
  return cached;
}
