import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  type Dirent,
  lstatSync,
  opendirSync,
  openSync,
  readlinkSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import {
  copyFile,
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  rmdir,
  stat,
  symlink,
  unlink,
} from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { AgentoolError, type ErrorCode } from "@agentool/contract";
import {
  type DirectoryEntry,
  directoryNotFileError,
  type EntryType,
  type FileReader,
  type FileStat,
  type FileSystem,
  FileSystemError,
  fileNotDirectoryError,
  parentNotDirectoryError,
  type WriteFileOptions,
} from "../file-system.js";
import {
  changedError,
  type DirectoryRef,
  directoryRef,
  hasProcFd,
  isAt,
  locationOf,
  notRegularError,
  O_DIRECTORY,
  O_NOFOLLOW,
  openDirectoryHandle,
  openReadHandle,
  PROC_FD,
} from "./safe-open.js";

/** Entries a quick directory pass handles between yields to the event loop (~1 ms warm). */
const QUICK_BATCH = 256;

/** Lets the event loop run (a quick pass over a huge directory never holds it long). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

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

/** Options of {@link createNodeFileSystem}. */
export interface NodeFileSystemOptions {
  /** The directory the tools are confined to (absolute, or relative to the process's cwd). */
  root: string;
}

const MAX_SYMLINK_HOPS = 40;

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null
    ? (error as { code?: string }).code
    : undefined;
}

function typeOf(entry: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): EntryType {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  return "other";
}

function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index === -1 ? "" : path.slice(0, index);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * A {@link FileSystem} over a directory on disk, confined on the real path: every path is
 * resolved with `realpath` (symlinks in any segment, dangling ones included) and refused with
 * `INVALID_PATH` when it lands outside the root. Writes are atomic: a temporary file in the same
 * directory, `fsync`, then `rename` over the target; an existing file keeps its mode.
 *
 * @param options - the root directory
 * @returns the seam
 * @throws AgentoolError when the root does not exist or is not a directory
 * @example
 * const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root: process.cwd() }) });
 */
export function createNodeFileSystem(options: NodeFileSystemOptions): FileSystem {
  let rootReal: string;
  try {
    rootReal = realpathSync(resolve(options.root));
    if (!statSync(rootReal).isDirectory()) throw new Error("not a directory");
  } catch (error) {
    throw new AgentoolError(
      `createNodeFileSystem: root ${JSON.stringify(options.root)} must be an existing directory (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const displayRoot = resolve(options.root);

  const absolute = (path: string): string =>
    path.length === 0 ? rootReal : join(rootReal, ...path.split("/"));

  function toWorkspacePath(realAbsolute: string, asked: string): string {
    const inside = relative(rootReal, realAbsolute);
    if (climbsOut(inside)) {
      throw new FileSystemError(
        "INVALID_PATH",
        `${asked.length === 0 ? "." : asked} resolves outside the workspace (through a symlink).`,
        "Use paths whose real location is inside the workspace root.",
      );
    }
    return inside.split(sep).join("/");
  }

  function mapError(error: unknown, path: string): never {
    if (FileSystemError.isInstance(error)) throw error;
    const shown = path.length === 0 ? "." : path;
    const code = errorCode(error);
    const known: Record<string, [ErrorCode, string, string?]> = {
      ENOENT: [
        "FILE_NOT_FOUND",
        `${shown} does not exist.`,
        "Check the path with list_directory or glob_search.",
      ],
      ENOTDIR: [
        "INVALID_PATH",
        `A parent of ${shown} is a file, not a directory.`,
        "Use a path whose parents are directories; check them with list_directory.",
      ],
      EISDIR: [
        "INVALID_PATH",
        `${shown} is a directory, not a file.`,
        "List it with list_directory and pick a file inside it.",
      ],
      EACCES: [
        "PERMISSION_DENIED",
        `Permission denied for ${shown}.`,
        "Ask the user to fix the permissions, or use another path.",
      ],
      EPERM: [
        "PERMISSION_DENIED",
        `Operation not permitted on ${shown}.`,
        "Ask the user to fix the permissions, or use another path.",
      ],
      EEXIST: ["FILE_ALREADY_EXISTS", `${shown} already exists.`],
      ENOTEMPTY: [
        "DIRECTORY_NOT_EMPTY",
        `${shown} is not empty.`,
        "Pass recursive: true to delete it with everything inside.",
      ],
      ELOOP: ["INVALID_PATH", `${shown} has too many levels of symlinks.`],
      ENAMETOOLONG: ["INVALID_PATH", `${shown} is too long a path.`],
      ENOSPC: ["INTERNAL", `No space left on the device while writing ${shown}.`],
    };
    const mapped = code === undefined ? undefined : known[code];
    if (mapped !== undefined) throw new FileSystemError(mapped[0], mapped[1], mapped[2]);
    throw error;
  }

  /**
   * The quick way into a directory for metadata work on Linux: the confined open and its check made
   * synchronously (`realpath`, `open(O_DIRECTORY | O_NOFOLLOW)`, the `/proc/self/fd` link), each a
   * few microseconds, where through libuv's thread pool each costs a hand-off, a wake-up and a
   * callback. Undefined when it cannot open the directory (missing, not one, outside the root, a
   * path to refuse): the caller then takes the asynchronous way, which gives the precise error.
   */
  function openDirectoryQuick(
    path: string,
  ): { path: string; child(name: string): string; close(): void } | undefined {
    if (!hasProcFd || !isNormalised(path)) return undefined;
    let descriptor: number | undefined;
    try {
      const target = realpathSync.native(absolute(path));
      toWorkspacePath(target, path);
      descriptor = openSync(target, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      const at = `${PROC_FD}/${descriptor}`;
      if (readlinkSync(at) !== target) throw changedError(path);
      const opened = descriptor;
      let closed = false;
      return {
        path: at,
        child: (name) => `${at}/${name}`,
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
  async function withDirectoryEntries<T>(
    path: string,
    work: (directory: DirectoryRef, entries: Dirent[]) => Promise<T>,
  ): Promise<T> {
    return withDirectory(path, async (directory) =>
      work(directory, await readdir(directory.path, { withFileTypes: true })),
    );
  }

  /** Runs `work` on the confined, opened directory `path` (closed afterwards). */
  async function withDirectory<T>(
    path: string,
    work: (directory: DirectoryRef) => Promise<T>,
  ): Promise<T> {
    const real = await realPathOf(path);
    let directory: DirectoryRef;
    try {
      directory = await openDirectory(real, path);
    } catch (error) {
      if (error instanceof NotDirectoryAt) throw fileNotDirectoryError(path);
      return mapError(error, path);
    }
    try {
      return await work(directory);
    } catch (error) {
      return mapError(error, path);
    } finally {
      await directory.close();
    }
  }

  /** Whether a seam path is normalised: no empty, "." or ".." segment. */
  const isNormalised = (path: string): boolean =>
    path.length === 0 ||
    !path.split("/").some((segment) => segment === "" || segment === "." || segment === "..");

  /** The real workspace path; missing tails (and dangling symlinks) are followed as far as they go. */
  async function realPathOf(path: string, followLast = true): Promise<string> {
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
      const parent = await realPathOf(parentOf(path));
      const name = nameOf(path);
      return name.length === 0 ? parent : parent.length === 0 ? name : `${parent}/${name}`;
    }
    let pending = absolute(path);
    let missing: string[] = [];
    for (let hop = 0; hop < MAX_SYMLINK_HOPS * 4; hop += 1) {
      try {
        const found = await realpath(pending);
        return toWorkspacePath(missing.length === 0 ? found : join(found, ...missing), path);
      } catch (error) {
        const code = errorCode(error);
        if (code === "ELOOP") mapError(error, path);
        if (code !== "ENOENT" && code !== "ENOTDIR") mapError(error, path);
      }
      // Something in `pending` is missing: a dangling symlink, or a path not created yet.
      let entry: Awaited<ReturnType<typeof lstat>> | undefined;
      try {
        entry = await lstat(pending);
      } catch {
        entry = undefined;
      }
      if (entry?.isSymbolicLink()) {
        const target = await readlink(pending);
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

  async function statOf(path: string): Promise<FileStat | undefined> {
    try {
      const info = await stat(absolute(await realPathOf(path)));
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
      return mapError(error, path);
    }
  }

  const isInside = (location: string): boolean => {
    return !climbsOut(relative(rootReal, location));
  };

  /** Marks where a walk met a file (or something else) where a directory was wanted. */
  class NotDirectoryAt extends Error {
    constructor(readonly last: boolean) {
      super("not a directory");
    }
  }

  /**
   * Opens the directory at the real workspace path `real`, checked to be that very object
   * (`/proc/self/fd/N` on Linux). With `create`, missing directories are made one component at a
   * time from the root, each opened without following a symlink before the next is made in it.
   */
  async function openDirectory(real: string, shown: string, create = false): Promise<DirectoryRef> {
    const target = absolute(real);
    let handle: FileHandle;
    try {
      handle = await openDirectoryHandle(target);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" && create) return walkCreating(real, shown);
      if (code === "ENOTDIR" || code === "ELOOP") {
        const info = await lstat(target).catch(() => undefined);
        if (info?.isSymbolicLink()) throw changedError(shown);
        throw new NotDirectoryAt(info !== undefined);
      }
      throw error;
    }
    if (!(await isAt(handle, target))) {
      await handle.close().catch(() => undefined);
      throw changedError(shown);
    }
    return directoryRef(handle, target);
  }

  async function walkCreating(real: string, shown: string): Promise<DirectoryRef> {
    let current = directoryRef(await openDirectoryHandle(rootReal), rootReal);
    const parts = real.length === 0 ? [] : real.split("/");
    let at = rootReal;
    try {
      for (let index = 0; index < parts.length; index += 1) {
        const name = parts[index] as string;
        at = join(at, name);
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
  async function ensureInside(directory: DirectoryRef, shown: string): Promise<void> {
    const location = hasProcFd ? await locationOf(directory.handle) : undefined;
    if (
      location !== undefined ? !isInside(location) : !(await isAt(directory.handle, directory.path))
    )
      throw changedError(shown);
  }

  /** Opens a regular file for reading: no symlink followed at the end, no blocking on a FIFO. */
  async function openRegular(
    real: string,
    shown: string,
  ): Promise<{ handle: FileHandle; info: Stats }> {
    const target = absolute(real);
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

  const temporaryName = (name: string): string =>
    `.${name}.${randomBytes(6).toString("hex")}.agentool-tmp`;

  /**
   * Copies an open regular file to `name` in `directory` as a new inode: a temporary file made
   * with `COPYFILE_EXCL`, then renamed over the name (never written into an existing file, so a
   * hard link elsewhere is untouched).
   */
  async function copyRegular(
    source: FileHandle,
    info: Stats,
    directory: DirectoryRef,
    name: string,
    shown: string,
  ): Promise<void> {
    const temporary = directory.child(temporaryName(name));
    try {
      if (hasProcFd) {
        await copyFile(`/proc/self/fd/${source.fd}`, temporary, constants.COPYFILE_EXCL);
      } else {
        const target = await open(
          temporary,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
          info.mode & 0o7777,
        );
        try {
          const buffer = Buffer.allocUnsafe(1 << 20);
          for (let position = 0; ; ) {
            const { bytesRead } = await source.read(buffer, 0, buffer.length, position);
            if (bytesRead === 0) break;
            await target.write(buffer, 0, bytesRead);
            position += bytesRead;
          }
        } finally {
          await target.close();
        }
      }
      const created = await open(temporary, constants.O_RDONLY | O_NOFOLLOW);
      try {
        await created.chmod(info.mode & 0o7777);
      } finally {
        await created.close();
      }
      await ensureInside(directory, shown);
      await rename(temporary, directory.child(name));
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Copies the entry `name` of `source` to `targetName` in `target`: symlinks recreated as links,
   * directories walked through opened handles (`dev:ino` compared before descending), regular
   * files as new inodes; FIFOs, sockets and devices inside a tree skipped (at the top: refused).
   */
  async function copyEntryAt(
    source: DirectoryRef,
    name: string,
    target: DirectoryRef,
    targetName: string,
    shown: string,
    top: boolean,
  ): Promise<void> {
    const from = source.child(name);
    const info = await lstat(from);
    if (info.isSymbolicLink()) {
      await unlink(target.child(targetName)).catch(() => undefined);
      await symlink(await readlink(from), target.child(targetName));
      return;
    }
    if (info.isDirectory()) {
      let handle: FileHandle;
      try {
        handle = await openDirectoryHandle(from);
      } catch (error) {
        if (errorCode(error) === "ENOTDIR" || errorCode(error) === "ELOOP")
          throw changedError(shown);
        throw error;
      }
      const ref = directoryRef(handle, join(source.path, name));
      try {
        const opened = await handle.stat();
        if (opened.dev !== info.dev || opened.ino !== info.ino) throw changedError(shown);
        await mkdir(target.child(targetName)).catch((error: unknown) => {
          if (errorCode(error) !== "EEXIST") throw error;
        });
        const into = directoryRef(
          await openDirectoryHandle(target.child(targetName)),
          join(target.path, targetName),
        );
        try {
          for (const entry of await readdir(ref.path))
            await copyEntryAt(ref, entry, into, entry, shown, false);
        } finally {
          await into.close();
        }
      } finally {
        await ref.close();
      }
      return;
    }
    if (!info.isFile()) {
      if (top) throw notRegularError(shown, info);
      return;
    }
    let handle: FileHandle;
    try {
      handle = await openReadHandle(from);
    } catch (error) {
      if (errorCode(error) === "ELOOP") throw changedError(shown);
      throw error;
    }
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.dev !== info.dev || opened.ino !== info.ino)
        throw changedError(shown);
      await copyRegular(handle, opened, target, targetName, shown);
    } finally {
      await handle.close();
    }
  }

  /**
   * Removes the directory `name` of `parent` and everything inside it, walking opened handles:
   * each directory is opened without following a symlink and its `dev:ino` compared with the
   * `lstat` taken before, so a directory swapped for a symlink is never descended into.
   */
  async function removeTree(
    parent: DirectoryRef,
    name: string,
    before: Stats,
    shown: string,
  ): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await openDirectoryHandle(parent.child(name));
    } catch (error) {
      if (errorCode(error) === "ENOTDIR" || errorCode(error) === "ELOOP") throw changedError(shown);
      throw error;
    }
    const ref = directoryRef(handle, join(parent.path, name));
    try {
      const opened = await handle.stat();
      if (opened.dev !== before.dev || opened.ino !== before.ino) throw changedError(shown);
      if (!hasProcFd && !(await isAt(handle, ref.path))) throw changedError(shown);
      for (const entry of await readdir(ref.path)) {
        const info = await lstat(ref.child(entry));
        if (info.isDirectory()) await removeTree(ref, entry, info, shown);
        else await unlink(ref.child(entry));
      }
    } finally {
      await ref.close();
    }
    await rmdir(parent.child(name));
  }

  /** Maps a walk's "not a directory" to the seam's failure for the path asked. */
  function mapNotDirectory(error: unknown, path: string): never {
    if (error instanceof NotDirectoryAt) throw parentNotDirectoryError(path);
    return mapError(error, path);
  }

  return {
    kind: "node",
    displayRoot,
    realPath: (path) => realPathOf(path),
    stat: statOf,
    async readFile(path) {
      try {
        const { handle } = await openRegular(await realPathOf(path), path);
        try {
          const buffer = await handle.readFile();
          return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
        } finally {
          await handle.close();
        }
      } catch (error) {
        return mapError(error, path);
      }
    },
    async openReader(path): Promise<FileReader> {
      try {
        const { handle, info } = await openRegular(await realPathOf(path), path);
        let closed = false;
        return {
          size: info.size,
          async read(position, length) {
            const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, info.size - position)));
            if (buffer.length === 0) return new Uint8Array(0);
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
            return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
          },
          async readInto(target, position, length) {
            const wanted = Math.max(0, Math.min(length, target.length, info.size - position));
            if (wanted === 0) return 0;
            const { bytesRead } = await handle.read(target, 0, wanted, position);
            return bytesRead;
          },
          async close() {
            if (closed) return;
            closed = true;
            await handle.close();
          },
        };
      } catch (error) {
        return mapError(error, path);
      }
    },
    async writeFile(path, data, writeOptions: WriteFileOptions = {}) {
      const real = await realPathOf(path);
      const name = nameOf(real);
      if (real.length === 0) throw directoryNotFileError(path);
      let directory: DirectoryRef;
      try {
        directory = await openDirectory(parentOf(real), path, true);
      } catch (error) {
        return mapNotDirectory(error, path);
      }
      const temporary = directory.child(temporaryName(name));
      let created = false;
      try {
        let mode = writeOptions.mode ?? 0o644;
        const existing = await lstat(directory.child(name)).catch(() => undefined);
        if (existing?.isDirectory()) throw directoryNotFileError(path);
        if (existing?.isFile()) mode = existing.mode & 0o7777;
        const handle = await open(
          temporary,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
          mode,
        );
        created = true;
        try {
          await handle.writeFile(data);
          await handle.chmod(mode);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await ensureInside(directory, path);
        await rename(temporary, directory.child(name));
        created = false;
      } catch (error) {
        if (created) await unlink(temporary).catch(() => undefined);
        mapError(error, path);
      } finally {
        await directory.close();
      }
    },
    async createDirectory(path) {
      const real = await realPathOf(path);
      let directory: DirectoryRef;
      try {
        directory = await openDirectory(real, path, true);
      } catch (error) {
        if (error instanceof NotDirectoryAt) {
          const info = await lstat(absolute(real)).catch(() => undefined);
          if (info !== undefined && !info.isDirectory()) {
            throw new FileSystemError(
              "FILE_ALREADY_EXISTS",
              `${path} already exists and is a file, not a directory.`,
              "Choose another path, or delete or move the file first.",
            );
          }
          throw parentNotDirectoryError(path);
        }
        return mapError(error, path);
      }
      await directory.close();
    },
    async readDirectory(path): Promise<DirectoryEntry[]> {
      return withDirectoryEntries(path, (directory, entries) =>
        Promise.all(
          entries.map(async (entry) => {
            const info = await lstat(directory.child(entry.name)).catch(() => undefined);
            return {
              name: entry.name,
              type: typeOf(entry),
              size: info?.isFile() ? info.size : 0,
              modifiedMs: info?.mtimeMs ?? 0,
            };
          }),
        ),
      );
    },
    async readDirectoryNames(path) {
      const quick = openDirectoryQuick(path);
      if (quick === undefined) {
        return withDirectoryEntries(path, async (_directory, entries) =>
          entries.map((entry) => ({ name: entry.name, type: typeOf(entry) })),
        );
      }
      try {
        const directory = opendirSync(quick.path, { bufferSize: 128 });
        try {
          const entries: Array<Pick<DirectoryEntry, "name" | "type">> = [];
          for (let entry = directory.readSync(); entry !== null; entry = directory.readSync()) {
            entries.push({ name: entry.name, type: typeOf(entry) });
            if (entries.length % QUICK_BATCH === 0) await yieldToEventLoop();
          }
          return entries;
        } finally {
          directory.closeSync();
        }
      } catch (error) {
        return mapError(error, path);
      } finally {
        quick.close();
      }
    },
    async readEntrySizes(path, names) {
      // One confined open of the directory; each name is lstat'ed through it (no realpath each).
      // A name is one entry of the directory: never a path into or out of another one.
      const plain = (name: string): boolean =>
        name.length > 0 && name !== "." && name !== ".." && !name.includes("/");
      const sizeOf = (child: (name: string) => string, name: string): number => {
        if (!plain(name)) return 0;
        try {
          const info = lstatSync(child(name), { throwIfNoEntry: false });
          return info?.isFile() ? info.size : 0;
        } catch {
          return 0;
        }
      };
      const quick = openDirectoryQuick(path);
      if (quick === undefined) {
        // Off Linux (or when the quick way cannot open it): asynchronous, as before.
        return withDirectory(path, (directory) =>
          Promise.all(
            names.map(async (name) => {
              if (!plain(name)) return 0;
              const info = await lstat(directory.child(name)).catch(() => undefined);
              return info?.isFile() ? info.size : 0;
            }),
          ),
        );
      }
      try {
        const sizes: number[] = [];
        for (const name of names) {
          sizes.push(sizeOf(quick.child, name));
          if (sizes.length % QUICK_BATCH === 0) await yieldToEventLoop();
        }
        return sizes;
      } finally {
        quick.close();
      }
    },
    async remove(path, removeOptions) {
      const real = await realPathOf(path, false);
      if (real.length === 0)
        throw new FileSystemError("INVALID_PATH", "The workspace root cannot be removed.");
      let parent: DirectoryRef;
      try {
        parent = await openDirectory(parentOf(real), path);
      } catch (error) {
        return mapNotDirectory(error, path);
      }
      try {
        const name = nameOf(real);
        const info = await lstat(parent.child(name));
        if (info.isDirectory()) {
          if (removeOptions.recursive) await removeTree(parent, name, info, path);
          else await rmdir(parent.child(name));
        } else {
          await unlink(parent.child(name));
        }
      } catch (error) {
        mapError(error, path);
      } finally {
        await parent.close();
      }
    },
    async rename(source, destination) {
      const from = await realPathOf(source, false);
      const to = await realPathOf(destination, false);
      if (from.length === 0 || to.length === 0)
        throw new FileSystemError("INVALID_PATH", "The workspace root cannot be moved.");
      if (to === from || to.startsWith(`${from}/`)) {
        throw new FileSystemError("INVALID_PATH", `Cannot move ${source} into itself.`);
      }
      let fromParent: DirectoryRef | undefined;
      let toParent: DirectoryRef | undefined;
      try {
        fromParent = await openDirectory(parentOf(from), source).catch((error: unknown) =>
          mapNotDirectory(error, source),
        );
        toParent = await openDirectory(parentOf(to), destination).catch((error: unknown) =>
          mapNotDirectory(error, destination),
        );
        try {
          await rename(fromParent.child(nameOf(from)), toParent.child(nameOf(to)));
        } catch (error) {
          if (errorCode(error) !== "EXDEV") throw error;
          await copyEntryAt(fromParent, nameOf(from), toParent, nameOf(to), source, true);
          const info = await lstat(fromParent.child(nameOf(from)));
          if (info.isDirectory()) await removeTree(fromParent, nameOf(from), info, source);
          else await unlink(fromParent.child(nameOf(from)));
        }
      } catch (error) {
        mapError(error, errorCode(error) === "ENOENT" ? source : destination);
      } finally {
        await fromParent?.close();
        await toParent?.close();
      }
    },
    async copy(source, destination) {
      const from = await realPathOf(source);
      const to = await realPathOf(destination, false);
      if (from.length === 0 || to.length === 0)
        throw new FileSystemError("INVALID_PATH", "The workspace root cannot be copied.");
      if (to === from || to.startsWith(`${from}/`)) {
        throw new FileSystemError("INVALID_PATH", `Cannot copy ${source} into itself.`);
      }
      let fromParent: DirectoryRef | undefined;
      let toParent: DirectoryRef | undefined;
      try {
        fromParent = await openDirectory(parentOf(from), source).catch((error: unknown) =>
          mapNotDirectory(error, source),
        );
        toParent = await openDirectory(parentOf(to), destination, true).catch((error: unknown) =>
          mapNotDirectory(error, destination),
        );
        await copyEntryAt(fromParent, nameOf(from), toParent, nameOf(to), source, true);
      } catch (error) {
        mapError(error, source);
      } finally {
        await fromParent?.close();
        await toParent?.close();
      }
    },
    async digest(path) {
      try {
        const { handle } = await openRegular(await realPathOf(path), path);
        try {
          const hash = createHash("sha256");
          const buffer = Buffer.allocUnsafe(1 << 20);
          for (let position = 0; ; ) {
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
            if (bytesRead === 0) break;
            hash.update(buffer.subarray(0, bytesRead));
            position += bytesRead;
          }
          return hash.digest("hex");
        } finally {
          await handle.close();
        }
      } catch (error) {
        return mapError(error, path);
      }
    },
  };
}
