import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ResourceLimits } from "./resource-limits.js";

const CGROUP_ROOT = "/sys/fs/cgroup";

/** A script that moves itself into each cgroup (`cgroup.procs` files before `--`), then runs the rest. */
const ENTER_SCRIPT =
  'for p in "$@"; do [ "$p" = -- ] && break; echo $$ > "$p" || exit 125; shift; done; shift; exec "$@"';

let sequence = 0;

/** This process's cgroups: the v2 path (`0::/x`) and the v1 paths by controller. */
async function ownCgroups(): Promise<{ unified?: string; v1: Map<string, string> }> {
  const text = await readFile("/proc/self/cgroup", "utf8").catch(() => "");
  const v1 = new Map<string, string>();
  let unified: string | undefined;
  for (const line of text.split("\n")) {
    const [id, controllers, path] = line.split(":", 3) as [string, string, string];
    if (path === undefined) continue;
    if (id === "0" && controllers === "") unified = path;
    else for (const controller of controllers.split(",")) v1.set(controller, path);
  }
  return { unified, v1 };
}

/** Writes a limit; `false` when the file is missing or refuses it. */
async function writeLimit(directory: string, file: string, value: number): Promise<boolean> {
  if (!existsSync(join(directory, file))) return false;
  return writeFile(join(directory, file), String(value)).then(
    () => true,
    () => false,
  );
}

/** Makes a fresh child cgroup under `parent`; `undefined` when it cannot be made (not writable). */
async function makeChild(parent: string): Promise<string | undefined> {
  sequence += 1;
  const directory = join(parent, `agentool-run-${process.pid}-${sequence}`);
  return mkdir(directory).then(
    () => directory,
    () => undefined,
  );
}

/**
 * A cgroup (or, on a v1 hierarchy, one per controller) made for one sandboxed command, where this
 * process may make one: `pids.max` and `memory.max` on cgroup v2, `pids.max` and
 * `memory.limit_in_bytes` on v1. The limit then holds for the command's whole process tree, root
 * included (`RLIMIT_NPROC` does not bind root). Where none can be made, {@link create} returns a
 * cgroup that limits nothing and the per-process limits (prlimit) stand alone.
 */
export class CommandCgroup {
  private constructor(
    private readonly directories: readonly string[],
    /** Whether the cgroup caps the command's memory. */
    readonly capsMemory: boolean,
    /** Whether the cgroup caps the command's processes. */
    readonly capsProcesses: boolean,
  ) {}

  /**
   * Makes the cgroups for one command and writes its limits.
   *
   * @param limits - the memory and process caps
   * @returns the cgroup (empty where none could be made)
   */
  static async create(limits: ResourceLimits): Promise<CommandCgroup> {
    if (process.platform !== "linux") return new CommandCgroup([], false, false);
    const own = await ownCgroups();
    const directories: string[] = [];
    let memory = false;
    let pids = false;
    if (own.unified !== undefined) {
      const base = existsSync(join(CGROUP_ROOT, "cgroup.controllers"))
        ? CGROUP_ROOT
        : join(CGROUP_ROOT, "unified");
      const directory = await makeChild(join(base, own.unified));
      if (directory !== undefined) {
        pids = await writeLimit(directory, "pids.max", limits.processes);
        memory = await writeLimit(directory, "memory.max", limits.memoryBytes);
        if (memory) await writeLimit(directory, "memory.swap.max", 0);
        if (pids || memory) directories.push(directory);
        else await rmdir(directory).catch(() => undefined);
      }
    }
    const v1: Array<[string, string, number, () => void]> = [
      ["pids", "pids.max", limits.processes, () => (pids = true)],
      ["memory", "memory.limit_in_bytes", limits.memoryBytes, () => (memory = true)],
    ];
    for (const [controller, file, value, mark] of v1) {
      const path = own.v1.get(controller);
      if (path === undefined || (controller === "pids" ? pids : memory)) continue;
      const directory = await makeChild(join(CGROUP_ROOT, controller, path));
      if (directory === undefined) continue;
      if (await writeLimit(directory, file, value)) {
        directories.push(directory);
        mark();
      } else await rmdir(directory).catch(() => undefined);
    }
    return new CommandCgroup(directories, memory, pids);
  }

  /**
   * What to spawn so the command starts inside the cgroup (a fixed `sh` script that moves itself
   * in, then execs the command); the command itself when there is no cgroup.
   *
   * @param file - the program (here `bwrap`)
   * @param args - its arguments
   * @returns the file and arguments to spawn
   */
  wrap(file: string, args: readonly string[]): { file: string; args: string[] } {
    if (this.directories.length === 0) return { file, args: [...args] };
    const procs = this.directories.map((directory) => join(directory, "cgroup.procs"));
    return { file: "/bin/sh", args: ["-c", ENTER_SCRIPT, "sh", ...procs, "--", file, ...args] };
  }

  /** Kills what is left in the cgroups and removes them (retried while the last processes exit). */
  async remove(): Promise<void> {
    for (const directory of this.directories) {
      await writeFile(join(directory, "cgroup.kill"), "1").catch(async () => {
        const procs = await readFile(join(directory, "cgroup.procs"), "utf8").catch(() => "");
        for (const pid of procs.split("\n").filter(Boolean)) {
          try {
            process.kill(Number(pid), "SIGKILL");
          } catch {
            // gone
          }
        }
      });
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const removed = await rmdir(directory).then(
          () => true,
          (error: NodeJS.ErrnoException) => error.code === "ENOENT",
        );
        if (removed) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
}
