import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { FileSystemError } from "../../file-system.js";
import type { PinnedScope } from "./pin-scope.js";

/** Most bytes of rg's standard error kept for messages. */
const MAX_STDERR_CHARACTERS = 4_000;

export interface RipgrepRun {
  /** rg's exit code (`null` when it was killed). */
  exitCode: number | null;
  /** What rg wrote to standard error, without its `--debug` lines (capped). */
  stderr: string;
  /** Whether the run was stopped early by the record handler. */
  stopped: boolean;
}

const DEBUG_PREFIX = "rg: DEBUG|";

/**
 * Runs rg in its own process group with an empty environment and no config file, feeding each
 * output record (split on `separator`) to `onRecord` (`final` for what follows the last
 * separator); `onRecord` returning `false` kills rg (and its group) at once. With `--debug`,
 * each debug line of standard error goes to `onDebug`. The signal kills rg too and rejects with
 * the signal's reason.
 */
export function runRipgrep(
  rgPath: string,
  where: PinnedScope,
  args: readonly string[],
  separator: string,
  signal: AbortSignal,
  onRecord: (record: string, final: boolean) => boolean,
  onDebug?: (line: string) => void,
): Promise<RipgrepRun> {
  return new Promise<RipgrepRun>((resolvePromise, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    // rg inherits the pinned object as fd 3 (see withPinnedScope).
    const child = spawn(rgPath, args, {
      cwd: where.cwd,
      detached: true,
      stdio:
        where.fd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", "pipe", "pipe", where.fd],
      env: {},
      windowsHide: true,
    }) as ChildProcessByStdio<null, Readable, Readable>;
    let stopped = false;
    let stderr = "";
    let pendingStderr = "";
    let pending = "";
    let settled = false;
    const killGroup = () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
      }
    };
    const onAbort = () => {
      killGroup();
      if (!settled) {
        settled = true;
        reject(signal.reason);
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      pending += chunk;
      let start = 0;
      let index = pending.indexOf(separator, start);
      while (index !== -1) {
        const record = pending.slice(start, index);
        start = index + separator.length;
        if (record.length > 0 && !onRecord(record, false)) {
          stopped = true;
          killGroup();
          pending = "";
          return;
        }
        index = pending.indexOf(separator, start);
      }
      pending = pending.slice(start);
    });
    const keepStderr = (line: string) => {
      if (line.startsWith(DEBUG_PREFIX)) {
        onDebug?.(line);
        return;
      }
      if (stderr.length < MAX_STDERR_CHARACTERS)
        stderr += `${line}\n`.slice(0, MAX_STDERR_CHARACTERS - stderr.length);
    };
    child.stderr.on("data", (chunk: string) => {
      pendingStderr += chunk;
      let start = 0;
      let newline = pendingStderr.indexOf("\n", start);
      while (newline !== -1) {
        keepStderr(pendingStderr.slice(start, newline));
        start = newline + 1;
        newline = pendingStderr.indexOf("\n", start);
      }
      pendingStderr = pendingStderr.slice(start);
    });
    child.on("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      reject(
        new FileSystemError(
          "DEPENDENCY_MISSING",
          `ripgrep could not be started (${rgPath}): ${error.message}.`,
          "Install @vscode/ripgrep for this platform, or use the JS search engine.",
        ),
      );
    });
    child.on("close", (exitCode) => {
      signal.removeEventListener("abort", onAbort);
      if (pendingStderr.length > 0) keepStderr(pendingStderr);
      if (!stopped && pending.length > 0) onRecord(pending, true);
      if (settled) return;
      settled = true;
      resolvePromise({ exitCode, stderr, stopped });
    });
  });
}
