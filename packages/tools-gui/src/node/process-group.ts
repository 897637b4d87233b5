import type { ChildProcess } from "node:child_process";
import { sleep } from "@agentool/contract";

/**
 * Sends a signal to a child's whole process group (the child was spawned `detached`, so it
 * leads one). Does nothing when the child has exited or the group is gone.
 *
 * @param child - the group's leader
 * @param signal - the signal
 */
export function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Resolves when a child has exited.
 *
 * @param child - the child
 * @returns when it is gone
 */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Stops a process group: SIGTERM, then SIGKILL after `graceMs`, then SIGKILL to whatever else
 * is left in the group (a child the leader started).
 *
 * @param child - the group's leader
 * @param graceMs - milliseconds between SIGTERM and SIGKILL
 * @returns when the leader has exited
 */
export async function stopGroup(child: ChildProcess | undefined, graceMs: number): Promise<void> {
  if (child === undefined) return;
  killGroup(child, "SIGTERM");
  const done = exited(child);
  const late = await Promise.race([done.then(() => false), sleep(graceMs).then(() => true)]);
  if (late) {
    killGroup(child, "SIGKILL");
    await done;
  }
  // The leader is gone; a member that outlived SIGTERM still holds the group id (Linux reuses no
  // id a group still holds), so this reaches only that group.
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Nothing left.
    }
  }
}
