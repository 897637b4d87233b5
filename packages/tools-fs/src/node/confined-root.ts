import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { type FileHandle, lstat, mkdir, readdir, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  directoryNotFileError,
  type EntryType,
  type FileStat,
  FileSystemError,
  fileNotDirectoryError,
  parentNotDirectoryError,
} from "../file-system.js";
import { errorCode, mapErrno } from "./errno-mapping.js";
import {
  changedError,
  type DirectoryRef,
  directoryRef,
  hasProcFd,
  isAt,
  isDescriptorAt,
  locationOf,
  notRegularError,
  O_DIRECTORY,
  O_NOFOLLOW,
  O_NONBLOCK,
  openDirectoryHandle,
  openReadHandle,
  PROC_FD,
} from "./safe-open.js";

/**
 * Whether a `path.relative(root, candidate)` result leaves the root: `..` or `../…` (not a name
 * that merely starts with two dots, such as `..foo`), or an absolute path (another drive).
 *
 * @internal
 */
export function climbsOut(inside: string): boolean {
  return (
    inside === ".." ||
    inside.startsWith(`..${sep}`) ||
    inside.startsWith("../") ||
    isAbsolute(inside)
  );
}

const MAX_SYMLINK_HOPS = 40;

/**
 * What a directory entry or a stat is, as the seam names it.
 *
 * @internal
 */
export function typeOf(entry: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): EntryType {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  return "other";
}

/**
 * The parent of a workspace path (`""` for a top-level name).
 *
 * @internal
 */
export function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index === -1 ? "" : path.slice(0, index);
}

/**
 * The last segment of a workspace path.
 *
 * @internal
 */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Whether a seam path is normalised: no empty, "." or ".." segment. */
function isNormalised(path: string): boolean {
  return (
    path.length === 0 ||
    !path.split("/").some((segment) => segment === "" || segment === "." || segment === "..")
  );
}

/** Marks where a walk met a file (or something else) where a directory was wanted. */
export class NotDirectoryAt extends Error {
  constructor(readonly last: boolean) {
    super("not a directory");
  }
}

/** Opens a directory without following a link at its last step; undefined when that fails. */
function openAsItIs(absolute: string): number | undefined {
  try {
    return openSync(absolute, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return undefined;
  }
}

/** A directory opened synchronously for quick metadata work (see {@link ConfinedRoot.openDirectoryQuick}). */
export interface QuickDirectory {
  /** `/proc/self/fd/N` of the opened directory. */
  path: string;
  /** The path of an entry, through the descriptor. */
  child(name: string): string;
  /** Closes the descriptor; safe to call twice. */
  close(): void;
}

/**
 * The confinement of a node seam: a root directory, workspace paths resolved on their real path
 * and refused outside it, and directories and files opened by descriptor — without following a
 * symlink at the last step (`O_NOFOLLOW`) and checked, once open, to be the object the path
 * named (`/proc/self/fd/N` on Linux) — so a path swapped for a symlink between the check and the
 * use is caught. The ORDER of the calls in each method is part of that guarantee: resolve, then
 * open without following, then check the opened descriptor, then act through it.
 *
 * @internal
 */
export class ConfinedRoot {
  /** The root's real absolute path. */
  readonly rootReal: string;

  /** @param rootReal - the root's real absolute path (an existing directory) */
  constructor(rootReal: string) {
    this.rootReal = rootReal;
  }

  /** The absolute path of a real workspace path. */
  absolute(path: string): string {
    return path.length === 0 ? this.rootReal : join(this.rootReal, ...path.split("/"));
  }

  /** The workspace path of a real absolute path; `INVALID_PATH` when it lies outside the root. */
  toWorkspacePath(realAbsolute: string, asked: string): string {
    const inside = relative(this.rootReal, realAbsolute);
    if (climbsOut(inside)) {
      throw new FileSystemError(
        "INVALID_PATH",
        `${asked.length === 0 ? "." : asked} resolves outside the workspace (through a symlink).`,
        "Use paths whose real location is inside the workspace root.",
      );
    }
    return inside.split(sep).join("/");
  }

  /**
   * The quick way into a directory for metadata work on Linux: the confined open and its check made
   * synchronously (`realpath`, `open(O_DIRECTORY | O_NOFOLLOW)`, the `/proc/self/fd` link), each a
   * few microseconds, where through libuv's thread pool each costs a hand-off, a wake-up and a
   * callback. Undefined when it cannot open the directory (missing, not one, outside the root, a
   * path to refuse): the caller then takes the asynchronous way, which gives the precise error.
   */
  openDirectoryQuick(path: string): QuickDirectory | undefined {
    if (!hasProcFd || !isNormalised(path)) return undefined;
    let descriptor: number | undefined;
    try {
      const absolute = this.absolute(path);
      // A path with no symlink in it is its own real path: opened as it is, the descriptor's
      // link names it exactly (the root is real and the path normalised, so it is inside), and
      // the realpath walk is saved. Anything else (a link on the way, a swap) takes the full way.
      descriptor = openAsItIs(absolute);
      let at = `${PROC_FD}/${descriptor}`;
      if (descriptor === undefined || readlinkSync(at) !== absolute) {
        if (descriptor !== undefined) closeSync(descriptor);
        descriptor = undefined;
        const target = realpathSync.native(absolute);
        this.toWorkspacePath(target, path);
        // Order matters: resolve and check the real path, open it without following a symlink,
        // then check that the descriptor is that very path (a swap in between is caught here).
        descriptor = openSync(target, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        at = `${PROC_FD}/${descriptor}`;
        if (readlinkSync(at) !== target) throw changedError(path);
      }
      const opened = descriptor;
      const openedAt = at;
      let closed = false;
      return {
        path: openedAt,
        child: (name) => `${openedAt}/${name}`,
        close() {
          if (closed) return;
          closed = true;
          closeSync(opened);
        },
      };
    } catch {
      if (descriptor !== undefined) closeSync(descriptor);
      return undefined;
    }
  }

  /** Opens a directory confined (refusing a non-directory), reads its entries and hands both to `work`. */
  async withDirectoryEntries<T>(
    path: string,
    work: (directory: DirectoryRef, entries: Dirent[]) => Promise<T>,
  ): Promise<T> {
    return this.withDirectory(path, async (directory) =>
      work(directory, await readdir(directory.path, { withFileTypes: true })),
    );
  }

  /** Runs `work` on the confined, opened directory `path` (closed afterwards). */
  async withDirectory<T>(path: string, work: (directory: DirectoryRef) => Promise<T>): Promise<T> {
    const real = await this.realPathOf(path);
    let directory: DirectoryRef;
    try {
      directory = await this.openDirectory(real, path);
    } catch (error) {
      if (error instanceof NotDirectoryAt) throw fileNotDirectoryError(path);
      return mapErrno(error, path);
    }
    try {
      return await work(directory);
    } catch (error) {
      return mapErrno(error, path);
    } finally {
      await directory.close();
    }
  }

  /** The real workspace path; missing tails (and dangling symlinks) are followed as far as they go. */
  async realPathOf(path: string, followLast = true): Promise<string> {
    // The seam takes normalised workspace paths only: a "..", "." or empty segment would be
    // resolved by the kernel from an opened directory (e.g. "/proc/self/fd/N/.."), outside the root.
    if (!isNormalised(path)) {
      throw new FileSystemError(
        "INVALID_PATH",
        `${path} is not a normalised workspace path (it has an empty, "." or ".." segment).`,
        "Give the path relative to the workspace root, without . or .. segments.",
      );
    }
    if (!followLast) {
      const parent = await this.realPathOf(parentOf(path));
      const name = nameOf(path);
      return name.length === 0 ? parent : parent.length === 0 ? name : `${parent}/${name}`;
    }
    let pending = this.absolute(path);
    // The common case synchronously (a few microseconds, where the thread pool costs a hand-off
    // each way); anything unusual (missing, dangling, a loop) takes the careful way below.
    try {
      return this.toWorkspacePath(realpathSync.native(pending), path);
    } catch (error) {
      if (FileSystemError.isInstance(error)) throw error;
    }
    // Each step synchronously too (a missing ignore file or a new file's path is common: four
    // thread-pool hand-offs become four system calls).
    let missing: string[] = [];
    for (let hop = 0; hop < MAX_SYMLINK_HOPS * 4; hop += 1) {
      try {
        const found = realpathSync.native(pending);
        return this.toWorkspacePath(missing.length === 0 ? found : join(found, ...missing), path);
      } catch (error) {
        if (FileSystemError.isInstance(error)) throw error;
        const code = errorCode(error);
        if (code === "ELOOP") mapErrno(error, path);
        if (code !== "ENOENT" && code !== "ENOTDIR") mapErrno(error, path);
      }
      // Something in `pending` is missing: a dangling symlink, or a path not created yet.
      let entry: Stats | undefined;
      try {
        entry = lstatSync(pending);
      } catch {
        entry = undefined;
      }
      if (entry?.isSymbolicLink()) {
        const target = readlinkSync(pending);
        pending = resolve(dirname(pending), target);
        continue;
      }
      if (pending === dirname(pending)) break;
      missing = [basename(pending), ...missing];
      pending = dirname(pending);
    }
    throw new FileSystemError(
      "INVALID_PATH",
      `${path} could not be resolved (too many levels of symlinks).`,
    );
  }

  async statOf(path: string): Promise<FileStat | undefined> {
    try {
      const real = this.absolute(await this.realPathOf(path));
      // Synchronous: one statx, no thread-pool hand-off (an error takes the same way as before).
      let info: Stats;
      try {
        info = statSync(real);
      } catch {
        info = await stat(real);
      }
      return {
        type: typeOf(info),
        size: info.isFile() ? info.size : 0,
        modifiedMs: info.mtimeMs,
        mode: info.mode & 0o7777,
        identity: `${info.dev}:${info.ino}`,
      };
    } catch (error) {
      if (FileSystemError.isInstance(error)) throw error;
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return undefined;
      return mapErrno(error, path);
    }
  }

  /** Whether an absolute real location lies inside the root. */
  isInside(location: string): boolean {
    return !climbsOut(relative(this.rootReal, location));
  }

  /**
   * Opens the directory at the real workspace path `real`, checked to be that very object
   * (`/proc/self/fd/N` on Linux). With `create`, missing directories are made one component at a
   * time from the root, each opened without following a symlink before the next is made in it.
   */
  async openDirectory(real: string, shown: string, create = false): Promise<DirectoryRef> {
    const target = this.absolute(real);
    let handle: FileHandle;
    try {
      handle = await openDirectoryHandle(target);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" && create) return this.walkCreating(real, shown);
      if (code === "ENOTDIR" || code === "ELOOP") {
        const info = await lstat(target).catch(() => undefined);
        if (info?.isSymbolicLink()) throw changedError(shown);
        throw new NotDirectoryAt(info !== undefined);
      }
      throw error;
    }
    // Opened without following the last symlink; now checked to be the directory `target`
    // named (not one swapped in meanwhile) before anything is done through it.
    if (!(await isAt(handle, target))) {
      await handle.close().catch(() => undefined);
      throw changedError(shown);
    }
    return directoryRef(handle, target);
  }

  async walkCreating(real: string, shown: string): Promise<DirectoryRef> {
    let current = directoryRef(await openDirectoryHandle(this.rootReal), this.rootReal);
    const parts = real.length === 0 ? [] : real.split("/");
    let at = this.rootReal;
    try {
      for (let index = 0; index < parts.length; index += 1) {
        const name = parts[index] as string;
        at = join(at, name);
        // Order matters: make the component through the opened parent, then open it without
        // following a symlink before making the next one inside it.
        await mkdir(current.child(name)).catch((error: unknown) => {
          if (errorCode(error) !== "EEXIST") throw error;
        });
        let next: FileHandle;
        try {
          next = await openDirectoryHandle(current.child(name));
        } catch (error) {
          const code = errorCode(error);
          if (code === "ENOTDIR" || code === "ELOOP") {
            const info = await lstat(current.child(name)).catch(() => undefined);
            if (info?.isSymbolicLink()) throw changedError(shown);
            throw new NotDirectoryAt(index === parts.length - 1);
          }
          throw error;
        }
        await current.close();
        current = directoryRef(next, at);
      }
    } catch (error) {
      await current.close();
      throw error;
    }
    return current;
  }

  /** Before a rename into `directory`: it must still lie inside the root. */
  async ensureInside(directory: DirectoryRef, shown: string): Promise<void> {
    const location = hasProcFd ? await locationOf(directory.handle) : undefined;
    if (
      location !== undefined
        ? !this.isInside(location)
        : !(await isAt(directory.handle, directory.path))
    )
      throw changedError(shown);
  }

  /**
   * {@link openRegular} made synchronously (open without following, the descriptor checked to be
   * that path, fstat): a descriptor and its stat, or undefined when anything is unusual (the
   * caller then takes {@link openRegular}, which gives the precise error).
   */
  openRegularQuick(real: string): { descriptor: number; info: Stats } | undefined {
    const target = this.absolute(real);
    let descriptor: number | undefined;
    try {
      descriptor = openSync(target, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      if (!isDescriptorAt(descriptor, target)) throw changedError(real);
      const info = fstatSync(descriptor);
      if (!info.isFile()) throw notRegularError(real, info);
      return { descriptor, info };
    } catch {
      if (descriptor !== undefined) closeSync(descriptor);
      return undefined;
    }
  }

  /** Opens a regular file for reading: no symlink followed at the end, no blocking on a FIFO. */
  async openRegular(real: string, shown: string): Promise<{ handle: FileHandle; info: Stats }> {
    const target = this.absolute(real);
    let handle: FileHandle;
    try {
      handle = await openReadHandle(target);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ELOOP") throw changedError(shown);
      if (code === "ENXIO" || code === "EOPNOTSUPP") {
        const info = await lstat(target).catch(() => undefined);
        if (info !== undefined) throw notRegularError(shown, info);
      }
      throw error;
    }
    try {
      // Check the descriptor first, then stat through it (not through the path).
      if (!(await isAt(handle, target))) throw changedError(shown);
      const info = await handle.stat();
      if (info.isDirectory()) throw directoryNotFileError(shown);
      if (!info.isFile()) throw notRegularError(shown, info);
      return { handle, info };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** Maps a walk's "not a directory" to the seam's failure for the path asked. */
  mapNotDirectory(error: unknown, path: string): never {
    if (error instanceof NotDirectoryAt) throw parentNotDirectoryError(path);
    return mapErrno(error, path);
  }
}
