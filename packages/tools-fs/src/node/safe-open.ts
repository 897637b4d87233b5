import {
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { FileSystemError } from "../file-system.js";

/**
 * Opening by object rather than by name. On Linux a directory is opened once (`O_DIRECTORY |
 * O_NOFOLLOW`), its real location checked on `/proc/self/fd/N`, and everything inside it is then
 * reached through `/proc/self/fd/N/<name>`: the kernel resolves that prefix to the directory
 * *object* already opened, so a path component swapped for a symlink afterwards is never
 * followed (the effect of `openat`, which Node lacks). Elsewhere the path string is used after
 * the same check, with `dev:ino` compared — narrower, not airtight.
 *
 * @internal
 */

/** Where Linux shows a process's open descriptors as links to their objects. */
export const PROC_FD = "/proc/self/fd";

/** Whether `/proc/self/fd` names open descriptors (Linux). */
export const hasProcFd: boolean = process.platform === "linux" && existsSync(PROC_FD);

export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
export const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** The failure when a path changed between its check and its use (a swapped component). */
export function changedError(path: string): FileSystemError {
  return new FileSystemError(
    "INVALID_PATH",
    `${path.length === 0 ? "." : path} changed while it was being used (a directory replaced by a symlink, or moved); nothing was done through it.`,
    "Try again; if it keeps happening, something else is changing the workspace.",
  );
}

/** What a non-regular file is, for messages. */
export function kindOf(info: Stats): string {
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isDirectory()) return "a directory";
  if (info.isSymbolicLink()) return "a symlink";
  return "not a regular file";
}

/** The failure for a non-regular file where a file is wanted. */
export function notRegularError(path: string, info: Stats): FileSystemError {
  return new FileSystemError(
    "UNSUPPORTED",
    `${path.length === 0 ? "." : path} is ${kindOf(info)}, not a regular file; the file tools only read and copy regular files.`,
    "Pick a regular file (list_directory shows what each entry is).",
  );
}

/** A directory opened for work inside it. `path` prefixes names inside it. */
export interface DirectoryRef {
  /** `/proc/self/fd/N` on Linux, else the absolute path. */
  readonly path: string;
  /** The open directory. */
  readonly handle: FileHandle;
  /** The entry `name` inside the directory. */
  child(name: string): string;
  close(): Promise<void>;
}

/** The absolute real location of an open descriptor (Linux), or undefined elsewhere. */
export async function locationOf(handle: FileHandle): Promise<string | undefined> {
  if (!hasProcFd) return undefined;
  return readlink(`${PROC_FD}/${handle.fd}`);
}

/**
 * Checks that an open handle is the object at `expected` (an absolute real path): on Linux by its
 * `/proc/self/fd` link; elsewhere by `realpath` of the name and `dev:ino`.
 *
 * @returns whether it is
 */
export async function isAt(handle: FileHandle, expected: string): Promise<boolean> {
  if (hasProcFd) return (await locationOf(handle)) === expected;
  try {
    if ((await realpath(expected)) !== expected) return false;
    const [a, b] = await Promise.all([handle.stat(), lstat(expected)]);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** Wraps an open directory handle. */
export function directoryRef(handle: FileHandle, absolutePath: string): DirectoryRef {
  const path = hasProcFd ? `${PROC_FD}/${handle.fd}` : absolutePath;
  let closed = false;
  return {
    path,
    handle,
    child: (name) => `${path}/${name}`,
    async close() {
      if (closed) return;
      closed = true;
      await handle.close().catch(() => undefined);
    },
  };
}

/**
 * {@link isAt} for a raw descriptor, synchronously (a few microseconds, where the thread pool
 * costs a hand-off each way).
 *
 * @returns whether the descriptor is the object at `expected`
 */
export function isDescriptorAt(descriptor: number, expected: string): boolean {
  try {
    if (hasProcFd) return readlinkSync(`${PROC_FD}/${descriptor}`) === expected;
    if (realpathSync(expected) !== expected) return false;
    const opened = fstatSync(descriptor);
    const named = lstatSync(expected);
    return opened.dev === named.dev && opened.ino === named.ino;
  } catch {
    return false;
  }
}

/** Opens a directory without following a final symlink. */
export function openDirectoryHandle(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

/** Opens a file for reading without following a final symlink and without blocking on a FIFO. */
export function openReadHandle(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
}
