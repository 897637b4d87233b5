import { accessSync, constants, realpathSync } from "node:fs";
import { z } from "zod";
import {
  DEFAULT_COMMAND_FILE_BYTES,
  DEFAULT_COMMAND_MEMORY_BYTES,
  DEFAULT_COMMAND_PROCESSES,
  DEFAULT_COMMAND_TMP_BYTES,
} from "./run-command-defaults.js";

/** What a sandboxed command may use of the host. */
export interface ResourceLimits {
  /** Memory: the whole sandbox's under a cgroup, else each process's address space (`RLIMIT_AS`). */
  readonly memoryBytes: number;
  /** Processes (and threads) running at once: a cgroup's `pids.max`, else `RLIMIT_NPROC`. */
  readonly processes: number;
  /** Size of one file written (`RLIMIT_FSIZE`: a larger write fails, the writer gets SIGXFSZ). */
  readonly fileBytes: number;
  /** Size of each temporary directory (`/tmp`, `/var/tmp`, `$TMPDIR`: a tmpfs of this size). */
  readonly tmpBytes: number;
}

const MIB = 1_048_576;

/** The `limits` option's schema; the defaults are stated once, here and in {@link DEFAULT_RESOURCE_LIMITS}. */
export const resourceLimitsSchema = z
  .object({
    memoryBytes: z
      .number()
      .int()
      .min(64 * MIB)
      .optional(),
    processes: z.number().int().min(8).max(1_000_000).optional(),
    fileBytes: z.number().int().min(MIB).optional(),
    tmpBytes: z.number().int().min(MIB).optional(),
  })
  .strict();

/** The defaults: 4 GiB of memory, 256 processes, 1 GiB per file, 512 MiB per temporary directory. */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  memoryBytes: DEFAULT_COMMAND_MEMORY_BYTES,
  processes: DEFAULT_COMMAND_PROCESSES,
  fileBytes: DEFAULT_COMMAND_FILE_BYTES,
  tmpBytes: DEFAULT_COMMAND_TMP_BYTES,
};

let prlimitPath: string | null | undefined;

/**
 * util-linux's `prlimit` (real path), looked up once; `undefined` when missing (the limits it sets
 * are then not applied; the cgroup's and the tmpfs size still are).
 */
export function findPrlimit(): string | undefined {
  if (prlimitPath !== undefined) return prlimitPath ?? undefined;
  prlimitPath = null;
  for (const candidate of ["/usr/bin/prlimit", "/bin/prlimit", "/usr/local/bin/prlimit"]) {
    try {
      accessSync(candidate, constants.X_OK);
      prlimitPath = realpathSync(candidate);
      break;
    } catch {
      // not here
    }
  }
  return prlimitPath ?? undefined;
}

/**
 * The argv prefix that applies the per-process limits inside the sandbox (after bubblewrap made
 * its namespaces, so `RLIMIT_NPROC` counts the sandbox's processes where it has its own user
 * namespace). Sizes are given in bytes (prlimit misreads suffixes).
 *
 * @param limits - the limits
 * @param withMemory - whether to cap each process's address space (when no cgroup caps memory)
 * @returns the prefix (`prlimit … --`), or nothing without prlimit
 */
export function prlimitPrefix(limits: ResourceLimits, withMemory: boolean): string[] {
  const path = findPrlimit();
  if (path === undefined) return [];
  return [
    path,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileBytes}`,
    ...(withMemory ? [`--as=${limits.memoryBytes}`] : []),
    "--",
  ];
}
