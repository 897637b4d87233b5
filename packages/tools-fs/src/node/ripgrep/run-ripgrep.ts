import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { FileSystemError } from "../../file-system.js";
import {
  ALLOCATION_FAILURE,
  ceilingCommand,
  memoryCeilingError,
  type RipgrepBinary,
  watchMemory,
} from "./memory-ceiling.js";
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
 * the signal's reason. rg is held under its memory ceiling ({@link ceilingCommand},
 * {@link watchMemory}): past it, rg is killed and the promise rejects with `TOO_LARGE`.
 */
export function runRipgrep(
  binary: RipgrepBinary,
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
    const command = ceilingCommand(binary, args);
    const child = spawn(command.file, command.args, {
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
    let overCeiling = false;
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
    const stopWatching =
      child.pid === undefined
        ? () => undefined
        : watchMemory(child.pid, binary.memoryCeilingBytes, () => {
            overCeiling = true;
            killGroup();
          });
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
      if (ALLOCATION_FAILURE.test(line)) overCeiling = true;
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
      stopWatching();
      signal.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      reject(
        new FileSystemError(
          "DEPENDENCY_MISSING",
          `ripgrep could not be started (${binary.rgPath}): ${error.message}.`,
          "Install @vscode/ripgrep for this platform, or use the JS search engine.",
        ),
      );
    });
    child.on("close", (exitCode) => {
      stopWatching();
      signal.removeEventListener("abort", onAbort);
      if (pendingStderr.length > 0) keepStderr(pendingStderr);
      if (settled) return;
      settled = true;
      if (overCeiling) {
        reject(memoryCeilingError(binary.memoryCeilingBytes));
        return;
      }
      if (!stopped && pending.length > 0) onRecord(pending, true);
      resolvePromise({ exitCode, stderr, stopped });
    });
  });
}
