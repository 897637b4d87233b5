import type { ChildProcess } from "node:child_process";

/** The process group a command was started as the leader of (`detached: true`). */
export class ProcessGroup {
  /** @param child - the group's leader */
  constructor(private readonly child: ChildProcess) {}

  /**
   * Sends a signal to the whole group (to the leader alone when the group cannot be signalled).
   *
   * @param name - the signal
   * @returns whether it was sent
   */
  signal(name: NodeJS.Signals): boolean {
    if (this.child.pid === undefined) return false;
    try {
      process.kill(-this.child.pid, name);
      return true;
    } catch {
      try {
        return this.child.kill(name);
      } catch {
        return false;
      }
    }
  }

  /** Whether any process of the group is still running. */
  alive(): boolean {
    if (this.child.pid === undefined) return false;
    try {
      process.kill(-this.child.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}
