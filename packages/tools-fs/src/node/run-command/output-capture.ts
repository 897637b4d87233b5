import type { ChildProcess } from "node:child_process";
import { type FileHandle, mkdtemp, open, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandOutputCollector } from "./command-output-collector.js";
import { isInside } from "./is-inside.js";
import { openPipeCapture } from "./pipe-capture.js";

/** Where a command's output goes while it runs, and how it is read back. */
export interface OutputCapture {
  /** The stdout and stderr of `spawn`'s `stdio`. */
  stdio: [number | "pipe", number | "pipe"];
  /** Connects a spawned child's pipes to the collectors (pipe capture only). */
  attach(child: ChildProcess, stdout: CommandOutputCollector, stderr: CommandOutputCollector): void;
  /** Bytes written so far (both streams). */
  size(): Promise<number>;
  /**
   * Reads what the command wrote into the collectors and ends them; `false` when some output may
   * be missing (a pipe still held open by a background process).
   */
  drain(stdout: CommandOutputCollector, stderr: CommandOutputCollector): Promise<boolean>;
  /** Releases the files. */
  close(): Promise<void>;
}

const CAPTURE_CHUNK_BYTES = 262_144;

async function readCaptured(
  handle: FileHandle,
  end: number,
  collector: CommandOutputCollector,
): Promise<void> {
  const buffer = Buffer.alloc(Math.min(CAPTURE_CHUNK_BYTES, Math.max(1, end)));
  let position = 0;
  while (position < end) {
    const { bytesRead } = await handle.read(
      buffer,
      0,
      Math.min(buffer.length, end - position),
      position,
    );
    if (bytesRead === 0) break;
    collector.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  collector.finish();
}

/**
 * Makes the private directory (mode 0700) and the two capture files (mode 0600) in the first
 * temporary directory that lies outside the workspace — never inside it, where the model's file
 * tools could read another command's output while it runs (a `TMPDIR` under the root, or the root
 * being `/tmp` itself). `undefined` when none can be made.
 */
async function openCaptureFiles(
  workspaceRoots: readonly string[],
): Promise<{ directory: string; handles: FileHandle[] } | undefined> {
  const candidates = [tmpdir(), ...(process.platform === "win32" ? [] : ["/tmp", "/var/tmp"])];
  for (const candidate of new Set(candidates)) {
    let base: string;
    try {
      base = await realpath(candidate);
    } catch {
      continue;
    }
    if (workspaceRoots.some((workspaceRoot) => isInside(workspaceRoot, base))) continue;
    let directory: string | undefined;
    const handles: FileHandle[] = [];
    try {
      directory = await mkdtemp(join(base, "agentool-run-"));
      for (const name of ["stdout", "stderr"]) {
        handles.push(await open(join(directory, name), "w+", 0o600));
      }
      return { directory, handles };
    } catch {
      await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    }
  }
  return undefined;
}

/**
 * Output goes to two private temporary files, not pipes: a program that exits right after
 * writing (a Node child calling `process.exit`) loses nothing — writes to a file are complete
 * when they return, while pending writes to a pipe die with the process — and background jobs
 * holding the output open cannot keep the call waiting. The files live outside the workspace
 * roots given (see {@link openCaptureFiles}) and are removed by `close`. Falls back to pipes (drained after the
 * exit for up to {@link DEFAULT_OUTPUT_DRAIN_MS}) when no temporary file can be made.
 */
export async function openCapture(workspaceRoots: readonly string[]): Promise<OutputCapture> {
  const files = await openCaptureFiles(workspaceRoots);
  if (files === undefined) return openPipeCapture();
  const { directory, handles } = files;
  const [out, err] = handles as [FileHandle, FileHandle];
  const root = directory;
  return {
    stdio: [out.fd, err.fd],
    attach: () => undefined,
    size: async () => {
      const [first, second] = await Promise.all([out.stat(), err.stat()]);
      return first.size + second.size;
    },
    drain: async (stdout, stderr) => {
      const [first, second] = await Promise.all([out.stat(), err.stat()]);
      await readCaptured(out, first.size, stdout);
      await readCaptured(err, second.size, stderr);
      return true;
    },
    close: async () => {
      await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
      await rm(root, { recursive: true, force: true });
    },
  };
}
