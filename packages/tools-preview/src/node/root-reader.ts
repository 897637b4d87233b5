import { constants } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { createSecretPathMatcher } from "@agentool/contract";
import type { PreviewReadFunction } from "../engine/engine-options.js";
import { DEFAULT_MAX_ARTIFACT_BYTES } from "../engine/limits.js";
import { tooLargeArtifact } from "../engine/read-artifact.js";
import { PreviewError } from "../preview-backend.js";

/**
 * Opening flags: read-only, never blocking (a FIFO or a device opens at once, then fstat refuses
 * it) and never through a symlink swapped in after `realpath`. Windows has neither flag.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The real path of `path` under `base`, refused when it is secret or leads outside. */
async function confinedTarget(
  base: string,
  path: string,
  isSecret: (path: string) => boolean,
): Promise<string> {
  if (isSecret(path))
    throw new PreviewError(
      "BLOCKED",
      `${path} is a secret path; preview does not open it.`,
      "This is policy, not a typo: open an HTML artifact instead.",
    );
  let target: string;
  try {
    target = await realpath(resolve(base, path));
  } catch {
    throw new PreviewError(
      "FILE_NOT_FOUND",
      `${path} does not exist in the workspace.`,
      "Write the artifact first, or check the path by listing the workspace.",
    );
  }
  const inside = relative(base, target);
  if (inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside))
    throw new PreviewError(
      "INVALID_PATH",
      `${path} leads outside the workspace (through a symlink).`,
      "Open a file inside the workspace.",
    );
  if (isSecret(inside.split(sep).join("/")))
    throw new PreviewError(
      "BLOCKED",
      `${path} leads to a secret path; preview does not open it.`,
      "This is policy, not a typo: open an HTML artifact instead.",
    );
  return target;
}

/** Reads an open regular file: refused by its size first, then at most `maxBytes + 1` bytes read. */
async function readCapped(
  handle: FileHandle,
  path: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const info = await handle.stat();
  if (info.isDirectory())
    throw new PreviewError(
      "INVALID_PATH",
      `${path} is a directory.`,
      "Open an HTML file in it, e.g. index.html.",
    );
  if (!info.isFile())
    throw new PreviewError(
      "INVALID_PATH",
      `${path} is not a regular file (a FIFO, socket or device); preview opens files only.`,
      "Write the artifact to a regular file and open that.",
    );
  if (info.size > maxBytes) throw tooLargeArtifact(path, info.size, maxBytes);
  // One byte more than the cap, so a file that grew since fstat is still refused.
  const buffer = new Uint8Array(Math.min(info.size, maxBytes) + 1);
  let filled = 0;
  while (filled < buffer.byteLength) {
    signal.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, filled, buffer.byteLength - filled, null);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  if (filled > maxBytes) throw tooLargeArtifact(path, filled, maxBytes);
  return buffer.subarray(0, filled);
}

/**
 * Reads artifacts from a folder: the path is confined to the root after `realpath` (symlinks
 * and `..` cannot leave it) and secret paths (`.env`, keys…) are refused. The file is opened
 * non-blocking and without following a symlink, and must be a regular file no larger than
 * `maxBytes` by `fstat` before a byte is read; at most `maxBytes + 1` bytes are read.
 *
 * @param root - the workspace folder
 * @param maxBytes - the largest artifact read, in bytes (default {@link DEFAULT_MAX_ARTIFACT_BYTES})
 * @returns a `read(path, signal)` for the preview
 */
export function createRootReader(
  root: string,
  maxBytes: number = DEFAULT_MAX_ARTIFACT_BYTES,
): PreviewReadFunction {
  const isSecret = createSecretPathMatcher();
  let realRoot: Promise<string> | undefined;
  return async (path, signal) => {
    realRoot ??= realpath(root);
    const target = await confinedTarget(await realRoot, path, isSecret);
    let handle: FileHandle;
    try {
      handle = await open(target, OPEN_FLAGS);
    } catch (error) {
      if ((error as { code?: unknown }).code === "ELOOP")
        throw new PreviewError(
          "INVALID_PATH",
          `${path} was replaced by a symlink while it was opened.`,
          "Open the artifact again.",
        );
      throw error;
    }
    try {
      return await readCapped(handle, path, maxBytes, signal);
    } finally {
      await handle.close();
    }
  };
}
