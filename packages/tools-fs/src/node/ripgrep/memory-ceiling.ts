import { accessSync, constants, readFileSync } from "node:fs";
import { AgentoolError, formatCount } from "@agentool/contract";
import { FileSystemError } from "../../file-system.js";

/** The default memory ceiling of one rg process: 1 GiB (resident, and data segment where enforced). */
export const DEFAULT_MEMORY_CEILING_BYTES = 1024 * 1024 * 1024;

/** How often the watchdog reads rg's resident size. */
const WATCH_INTERVAL_MS = 50;

/** The rg binary of a search and the memory it may use. */
export interface RipgrepBinary {
  readonly rgPath: string;
  /** Most bytes one rg process may hold (see {@link watchMemory}, {@link ceilingCommand}). */
  readonly memoryCeilingBytes: number;
}

/** util-linux's `prlimit`, when this machine has one (it sets the limit, then execs rg). */
const PRLIMIT: string | undefined = (() => {
  if (process.platform !== "linux") return undefined;
  for (const candidate of ["/usr/bin/prlimit", "/bin/prlimit"]) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
})();

/**
 * The command that starts rg under its memory ceiling: `prlimit --data=<ceiling> -- rg …` where
 * util-linux's prlimit exists (the kernel then refuses rg's allocations past the ceiling and rg
 * aborts), else rg itself (the watchdog alone holds the ceiling).
 *
 * @param binary - rg and its ceiling
 * @param args - rg's arguments
 * @returns the file to execute and its arguments
 */
export function ceilingCommand(
  binary: RipgrepBinary,
  args: readonly string[],
): { file: string; args: string[] } {
  if (PRLIMIT === undefined || !isExecutableFile(binary.rgPath))
    return { file: binary.rgPath, args: [...args] };
  return {
    file: PRLIMIT,
    args: [`--data=${binary.memoryCeilingBytes}`, "--", binary.rgPath, ...args],
  };
}

/** An absolute path to an executable (else rg is started directly, and fails as it would). */
function isExecutableFile(path: string): boolean {
  if (!path.startsWith("/")) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The resident size of a process in bytes (`undefined` when it is gone or unreadable). */
function residentBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Reads a process's resident size (`/proc/<pid>/status`, every {@link WATCH_INTERVAL_MS}) and
 * calls `onExceeded` once when it passes `ceilingBytes`. A no-op where `/proc` is missing.
 *
 * @param pid - the process
 * @param ceilingBytes - the ceiling
 * @param onExceeded - called once, with the size seen
 * @returns stops watching
 */
export function watchMemory(
  pid: number,
  ceilingBytes: number,
  onExceeded: (bytes: number) => void,
): () => void {
  if (process.platform !== "linux") return () => undefined;
  const timer = setInterval(() => {
    const bytes = residentBytes(pid);
    if (bytes !== undefined && bytes > ceilingBytes) {
      clearInterval(timer);
      onExceeded(bytes);
    }
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The line Rust prints before it aborts on a refused allocation. */
export const ALLOCATION_FAILURE = /^memory allocation of \d+ bytes failed/;

/** The `TOO_LARGE` error of an rg stopped at its memory ceiling. */
export class MemoryCeilingError extends FileSystemError {}

/**
 * The error of an rg stopped at its memory ceiling.
 *
 * @param ceilingBytes - the ceiling it reached
 * @returns a `TOO_LARGE` error that names the likely cause and the next step
 */
export function memoryCeilingError(ceilingBytes: number): MemoryCeilingError {
  const mebibytes = formatCount(Math.round(ceilingBytes / (1024 * 1024)));
  return new MemoryCeilingError(
    "TOO_LARGE",
    `ripgrep was stopped at its memory ceiling (${mebibytes} MiB): something it read grew without end, most likely an ignore file (.gitignore, .ignore, .rgignore, .git/info/exclude) that is a link to a device or a huge file, or a file with an enormous line.`,
    "Search a narrower path that avoids it, or remove the offending file.",
  );
}

/**
 * The rg binary and ceiling of a factory's options.
 *
 * @param options - `rgPath` (default: the one of `@vscode/ripgrep`) and `memoryCeilingBytes`
 * @param bundledRgPath - the default rg
 * @returns the binary
 * @throws AgentoolError when the ceiling is not a positive whole number of bytes
 */
export function ripgrepBinary(
  options: { rgPath?: string; memoryCeilingBytes?: number },
  bundledRgPath: string,
): RipgrepBinary {
  const memoryCeilingBytes = options.memoryCeilingBytes ?? DEFAULT_MEMORY_CEILING_BYTES;
  if (!Number.isSafeInteger(memoryCeilingBytes) || memoryCeilingBytes < 16 * 1024 * 1024) {
    throw new AgentoolError(
      `createRipgrepSearcher: memoryCeilingBytes must be a whole number of bytes of at least 16 MiB, got ${String(memoryCeilingBytes)}.`,
    );
  }
  return { rgPath: options.rgPath ?? bundledRgPath, memoryCeilingBytes };
}
