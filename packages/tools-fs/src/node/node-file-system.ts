import { createHash, randomBytes } from "node:crypto";
import { createReadStream, realpathSync, statSync } from "node:fs";
import {
  copyFile,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
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
    if (inside.startsWith("..") || isAbsolute(inside)) {
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

  /** The real workspace path; missing tails (and dangling symlinks) are followed as far as they go. */
  async function realPathOf(path: string, followLast = true): Promise<string> {
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

  async function copyTree(from: string, to: string): Promise<void> {
    const info = await lstat(from);
    if (info.isSymbolicLink()) {
      await rm(to, { force: true, recursive: false }).catch(() => undefined);
      await symlink(await readlink(from), to);
    } else if (info.isDirectory()) {
      await mkdir(to, { recursive: true });
      for (const name of await readdir(from)) await copyTree(join(from, name), join(to, name));
    } else {
      await copyFile(from, to);
    }
  }

  return {
    kind: "node",
    displayRoot,
    realPath: (path) => realPathOf(path),
    stat: statOf,
    async readFile(path) {
      try {
        const buffer = await readFile(absolute(await realPathOf(path)));
        return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
      } catch (error) {
        return mapError(error, path);
      }
    },
    async openReader(path): Promise<FileReader> {
      try {
        const handle = await open(absolute(await realPathOf(path)), "r");
        const info = await handle.stat();
        if (info.isDirectory()) {
          await handle.close();
          throw directoryNotFileError(path);
        }
        let closed = false;
        return {
          size: info.size,
          async read(position, length) {
            const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, info.size - position)));
            if (buffer.length === 0) return new Uint8Array(0);
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
            return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
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
      const target = absolute(await realPathOf(path));
      const temporary = join(
        dirname(target),
        `.${basename(target)}.${randomBytes(6).toString("hex")}.agentool-tmp`,
      );
      try {
        await mkdir(dirname(target), { recursive: true }).catch((error: unknown) => {
          const code = errorCode(error);
          if (code === "EEXIST" || code === "ENOTDIR") throw parentNotDirectoryError(path);
          throw error;
        });
        let mode = writeOptions.mode ?? 0o644;
        try {
          const existing = await stat(target);
          if (existing.isDirectory()) throw directoryNotFileError(path);
          mode = existing.mode & 0o7777;
        } catch (error) {
          if (FileSystemError.isInstance(error)) throw error;
        }
        const handle = await open(temporary, "wx", mode);
        try {
          await handle.writeFile(data);
          await handle.chmod(mode);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, target);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        mapError(error, path);
      }
    },
    async createDirectory(path) {
      const target = absolute(await realPathOf(path));
      try {
        await mkdir(target, { recursive: true });
      } catch (error) {
        if (errorCode(error) === "EEXIST" || errorCode(error) === "ENOTDIR") {
          const existing = await stat(target).catch(() => undefined);
          if (existing !== undefined && !existing.isDirectory()) {
            throw new FileSystemError(
              "FILE_ALREADY_EXISTS",
              `${path} already exists and is a file, not a directory.`,
              "Choose another path, or delete or move the file first.",
            );
          }
          throw parentNotDirectoryError(path);
        }
        mapError(error, path);
      }
    },
    async readDirectory(path): Promise<DirectoryEntry[]> {
      const directory = absolute(await realPathOf(path));
      try {
        const entries = await readdir(directory, { withFileTypes: true });
        return await Promise.all(
          entries.map(async (entry) => {
            const info = await lstat(join(directory, entry.name)).catch(() => undefined);
            return {
              name: entry.name,
              type: typeOf(entry),
              size: info?.isFile() ? info.size : 0,
              modifiedMs: info?.mtimeMs ?? 0,
            };
          }),
        );
      } catch (error) {
        if (errorCode(error) === "ENOTDIR") {
          const info = await stat(directory).catch(() => undefined);
          if (info !== undefined && !info.isDirectory()) throw fileNotDirectoryError(path);
        }
        return mapError(error, path);
      }
    },
    async remove(path, removeOptions) {
      const target = absolute(await realPathOf(path, false));
      if (target === rootReal)
        throw new FileSystemError("INVALID_PATH", "The workspace root cannot be removed.");
      try {
        const info = await lstat(target);
        if (info.isDirectory()) {
          if (removeOptions.recursive) await rm(target, { recursive: true });
          else await rmdir(target);
        } else {
          await unlink(target);
        }
      } catch (error) {
        mapError(error, path);
      }
    },
    async rename(source, destination) {
      const from = absolute(await realPathOf(source, false));
      const to = absolute(await realPathOf(destination, false));
      if (to === from || to.startsWith(`${from}${sep}`)) {
        throw new FileSystemError("INVALID_PATH", `Cannot move ${source} into itself.`);
      }
      try {
        await rename(from, to);
      } catch (error) {
        if (errorCode(error) === "EXDEV") {
          await copyTree(from, to);
          await rm(from, { recursive: true });
          return;
        }
        mapError(error, errorCode(error) === "ENOENT" ? source : destination);
      }
    },
    async copy(source, destination) {
      const from = absolute(await realPathOf(source));
      const to = absolute(await realPathOf(destination, false));
      if (to === from || to.startsWith(`${from}${sep}`)) {
        throw new FileSystemError("INVALID_PATH", `Cannot copy ${source} into itself.`);
      }
      try {
        await mkdir(dirname(to), { recursive: true });
        await copyTree(from, to);
      } catch (error) {
        mapError(error, source);
      }
    },
    async digest(path) {
      const file = absolute(await realPathOf(path));
      try {
        const hash = createHash("sha256");
        for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }))
          hash.update(chunk as Buffer);
        return hash.digest("hex");
      } catch (error) {
        return mapError(error, path);
      }
    },
  };
}
