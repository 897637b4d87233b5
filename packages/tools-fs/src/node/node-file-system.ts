import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  opendirSync,
  read as readCallback,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import { lstat, open, rename, rmdir, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import { AgentoolError, errorMessage } from "@agentool/contract";
import {
  type DirectoryEntry,
  directoryNotFileError,
  type FileReader,
  type FileStat,
  type FileSystem,
  FileSystemError,
  parentNotDirectoryError,
  type WriteFileOptions,
} from "../file-system.js";
import {
  ConfinedRoot,
  climbsOut,
  NotDirectoryAt,
  nameOf,
  parentOf,
  typeOf,
} from "./confined-root.js";
import { DirectoryNameCache } from "./directory-name-cache.js";
import { isPlainName, sizeNamedEntries } from "./entry-sizes.js";
import { errorCode, mapErrno } from "./errno-mapping.js";
import type { DirectoryRef } from "./safe-open.js";
import { O_NOFOLLOW } from "./safe-open.js";
import { copyEntryAt, removeTree, temporaryName } from "./tree-copy.js";

export { climbsOut };

/** Entries a quick directory pass handles between yields to the event loop (~1 ms warm). */
const QUICK_BATCH = 256;

/** Lets the event loop run (a quick pass over a huge directory never holds it long). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Options of {@link createNodeFileSystem}. */
export interface NodeFileSystemOptions {
  /** The directory the tools are confined to (absolute, or relative to the process's cwd). */
  root: string;
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
      `createNodeFileSystem: root ${JSON.stringify(options.root)} must be an existing directory (${errorMessage(error)}).`,
    );
  }
  const seam = new NodeFileSystem(new ConfinedRoot(rootReal));
  // A plain object (not the class instance), so a host may spread it to wrap some methods.
  return {
    kind: "node",
    displayRoot: resolve(options.root),
    realPath: (path) => seam.realPath(path),
    stat: (path) => seam.stat(path),
    readFile: (path) => seam.readFile(path),
    openReader: (path) => seam.openReader(path),
    writeFile: (path, data, writeOptions) => seam.writeFile(path, data, writeOptions),
    createDirectory: (path) => seam.createDirectory(path),
    readDirectory: (path) => seam.readDirectory(path),
    readDirectoryNames: (path) => seam.readDirectoryNames(path),
    readEntrySizes: (path, names) => seam.readEntrySizes(path, names),
    remove: (path, removeOptions) => seam.remove(path, removeOptions),
    rename: (source, destination) => seam.rename(source, destination),
    copy: (source, destination) => seam.copy(source, destination),
    digest: (path) => seam.digest(path),
  };
}

/**
 * The methods of the node seam, over a {@link ConfinedRoot}: every directory and file is reached
 * through a descriptor opened without following a symlink and checked to be what the path named.
 */
class NodeFileSystem {
  readonly #root: ConfinedRoot;
  /** Names of directories read before, kept while each one's stamp is unchanged. */
  readonly #names = new DirectoryNameCache();

  constructor(root: ConfinedRoot) {
    this.#root = root;
  }

  realPath(path: string): Promise<string> {
    return this.#root.realPathOf(path);
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.#root.statOf(path);
  }

  async readFile(path: string): Promise<Uint8Array> {
    try {
      const real = await this.#root.realPathOf(path);
      // A small file synchronously through the same confined open and check (no thread-pool
      // hand-off for the open, its check, the stat, the read and the close); anything else the
      // usual way.
      const quick = this.#root.openRegularQuick(real);
      if (quick !== undefined) {
        const bytes = readWholeQuick(quick.descriptor, quick.info.size);
        if (bytes !== undefined) return bytes;
      }
      const { handle } = await this.#root.openRegular(real, path);
      try {
        const buffer = await handle.readFile();
        return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
      } finally {
        await handle.close();
      }
    } catch (error) {
      return mapErrno(error, path);
    }
  }

  async openReader(path: string): Promise<FileReader> {
    try {
      const real = await this.#root.realPathOf(path);
      const quick = this.#root.openRegularQuick(real);
      if (quick !== undefined) return descriptorReader(quick.descriptor, quick.info.size);
      const { handle, info } = await this.#root.openRegular(real, path);
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
      return mapErrno(error, path);
    }
  }

  async writeFile(
    path: string,
    data: Uint8Array,
    writeOptions: WriteFileOptions = {},
  ): Promise<void> {
    const real = await this.#root.realPathOf(path);
    const name = nameOf(real);
    if (real.length === 0) throw directoryNotFileError(path);
    let directory: DirectoryRef;
    try {
      directory = await this.#root.openDirectory(parentOf(real), path, true);
    } catch (error) {
      return this.#root.mapNotDirectory(error, path);
    }
    // Order matters: the parent is opened (confined) first; the temporary file is created in it
    // with O_EXCL | O_NOFOLLOW, written, flushed, then the parent is checked to be still inside
    // the root right before the rename over the target.
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
      await this.#root.ensureInside(directory, path);
      await rename(temporary, directory.child(name));
      created = false;
    } catch (error) {
      if (created) await unlink(temporary).catch(() => undefined);
      mapErrno(error, path);
    } finally {
      await directory.close();
    }
  }

  async createDirectory(path: string): Promise<void> {
    const real = await this.#root.realPathOf(path);
    let directory: DirectoryRef;
    try {
      directory = await this.#root.openDirectory(real, path, true);
    } catch (error) {
      if (error instanceof NotDirectoryAt) {
        const info = await lstat(this.#root.absolute(real)).catch(() => undefined);
        if (info !== undefined && !info.isDirectory()) {
          throw new FileSystemError(
            "FILE_ALREADY_EXISTS",
            `${path} already exists and is a file, not a directory.`,
            "Choose another path, or delete or move the file first.",
          );
        }
        throw parentNotDirectoryError(path);
      }
      return mapErrno(error, path);
    }
    await directory.close();
  }

  async readDirectory(path: string): Promise<DirectoryEntry[]> {
    return this.#root.withDirectoryEntries(path, (directory, entries) =>
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
  }

  async readDirectoryNames(path: string): Promise<Array<Pick<DirectoryEntry, "name" | "type">>> {
    const quick = this.#root.openDirectoryQuick(path);
    if (quick === undefined) {
      return this.#root.withDirectoryEntries(path, async (_directory, entries) =>
        entries.map((entry) => ({ name: entry.name, type: typeOf(entry) })),
      );
    }
    try {
      // The stamp is read on the open descriptor before the names: a change while they are read
      // leaves a stamp that no later read matches.
      const stamp = this.#names.stampOf(quick.path);
      const known = stamp === undefined ? undefined : this.#names.get(path, stamp);
      if (known !== undefined) return known;
      const directory = opendirSync(quick.path, { bufferSize: 128 });
      try {
        const entries: Array<Pick<DirectoryEntry, "name" | "type">> = [];
        for (let entry = directory.readSync(); entry !== null; entry = directory.readSync()) {
          entries.push({ name: entry.name, type: typeOf(entry) });
          if (entries.length % QUICK_BATCH === 0) await yieldToEventLoop();
        }
        return stamp === undefined ? entries : this.#names.set(path, stamp, entries);
      } finally {
        directory.closeSync();
      }
    } catch (error) {
      return mapErrno(error, path);
    } finally {
      quick.close();
    }
  }

  async readEntrySizes(path: string, names: readonly string[]): Promise<number[]> {
    // One confined open of the directory; each name is lstat'ed through it (no realpath each).
    const quick = this.#root.openDirectoryQuick(path);
    if (quick === undefined) {
      // Off Linux (or when the quick way cannot open it): asynchronous, as before.
      return this.#root.withDirectory(path, (directory) =>
        Promise.all(
          names.map(async (name) => {
            if (!isPlainName(name)) return 0;
            const info = await lstat(directory.child(name)).catch(() => undefined);
            return info?.isFile() ? info.size : 0;
          }),
        ),
      );
    }
    try {
      return await sizeNamedEntries(quick, names);
    } finally {
      quick.close();
    }
  }

  async remove(path: string, removeOptions: { recursive: boolean }): Promise<void> {
    const real = await this.#root.realPathOf(path, false);
    if (real.length === 0)
      throw new FileSystemError("INVALID_PATH", "The workspace root cannot be removed.");
    let parent: DirectoryRef;
    try {
      parent = await this.#root.openDirectory(parentOf(real), path);
    } catch (error) {
      return this.#root.mapNotDirectory(error, path);
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
      mapErrno(error, path);
    } finally {
      await parent.close();
    }
  }

  async rename(source: string, destination: string): Promise<void> {
    const from = await this.#root.realPathOf(source, false);
    const to = await this.#root.realPathOf(destination, false);
    if (from.length === 0 || to.length === 0)
      throw new FileSystemError("INVALID_PATH", "The workspace root cannot be moved.");
    if (to === from || to.startsWith(`${from}/`)) {
      throw new FileSystemError("INVALID_PATH", `Cannot move ${source} into itself.`);
    }
    let fromParent: DirectoryRef | undefined;
    let toParent: DirectoryRef | undefined;
    try {
      fromParent = await this.#root
        .openDirectory(parentOf(from), source)
        .catch((error: unknown) => this.#root.mapNotDirectory(error, source));
      toParent = await this.#root
        .openDirectory(parentOf(to), destination)
        .catch((error: unknown) => this.#root.mapNotDirectory(error, destination));
      try {
        await rename(fromParent.child(nameOf(from)), toParent.child(nameOf(to)));
      } catch (error) {
        if (errorCode(error) !== "EXDEV") throw error;
        await copyEntryAt(this.#root, fromParent, nameOf(from), toParent, nameOf(to), source, true);
        const info = await lstat(fromParent.child(nameOf(from)));
        if (info.isDirectory()) await removeTree(fromParent, nameOf(from), info, source);
        else await unlink(fromParent.child(nameOf(from)));
      }
    } catch (error) {
      mapErrno(error, errorCode(error) === "ENOENT" ? source : destination);
    } finally {
      await fromParent?.close();
      await toParent?.close();
    }
  }

  async copy(source: string, destination: string): Promise<void> {
    const from = await this.#root.realPathOf(source);
    const to = await this.#root.realPathOf(destination, false);
    if (from.length === 0 || to.length === 0)
      throw new FileSystemError("INVALID_PATH", "The workspace root cannot be copied.");
    if (to === from || to.startsWith(`${from}/`)) {
      throw new FileSystemError("INVALID_PATH", `Cannot copy ${source} into itself.`);
    }
    let fromParent: DirectoryRef | undefined;
    let toParent: DirectoryRef | undefined;
    try {
      fromParent = await this.#root
        .openDirectory(parentOf(from), source)
        .catch((error: unknown) => this.#root.mapNotDirectory(error, source));
      toParent = await this.#root
        .openDirectory(parentOf(to), destination, true)
        .catch((error: unknown) => this.#root.mapNotDirectory(error, destination));
      await copyEntryAt(this.#root, fromParent, nameOf(from), toParent, nameOf(to), source, true);
    } catch (error) {
      mapErrno(error, source);
    } finally {
      await fromParent?.close();
      await toParent?.close();
    }
  }

  async digest(path: string): Promise<string> {
    try {
      const { handle } = await this.#root.openRegular(await this.#root.realPathOf(path), path);
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
      return mapErrno(error, path);
    }
  }
}

/** Reads up to this many bytes synchronously (a page's chunk); larger reads go to the thread pool. */
const QUICK_READ_BYTES = 262_144;

/**
 * The whole of a small file (at most {@link QUICK_READ_BYTES}) through a descriptor from
 * `openRegularQuick`, synchronously, and closes the descriptor; undefined when it is larger or
 * grew while read (the caller then reads it the usual way).
 */
function readWholeQuick(descriptor: number, size: number): Uint8Array | undefined {
  try {
    if (size > QUICK_READ_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(descriptor, bytes, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (filled === size && readSync(descriptor, Buffer.allocUnsafe(1), 0, 1, size) > 0) {
      return undefined;
    }
    return new Uint8Array(bytes.buffer, bytes.byteOffset, filled);
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/** Reads `length` bytes at `position` into `target`, on the thread pool. */
function readAsync(
  descriptor: number,
  target: Uint8Array,
  length: number,
  position: number,
): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    readCallback(descriptor, target, 0, length, position, (error, bytesRead) => {
      if (error) reject(error);
      else resolvePromise(bytesRead);
    });
  });
}

/**
 * A {@link FileReader} over a descriptor opened and checked by `openRegularQuick`: a page's
 * small reads are made synchronously (no thread-pool hand-off), large scans on the thread pool.
 */
function descriptorReader(descriptor: number, size: number): FileReader {
  let closed = false;
  const readInto = async (target: Uint8Array, position: number, length: number) => {
    const wanted = Math.max(0, Math.min(length, target.length, size - position));
    if (wanted === 0) return 0;
    return wanted <= QUICK_READ_BYTES
      ? readSync(descriptor, target, 0, wanted, position)
      : readAsync(descriptor, target, wanted, position);
  };
  return {
    size,
    async read(position, length) {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - position)));
      if (buffer.length === 0) return new Uint8Array(0);
      const bytesRead = await readInto(buffer, position, buffer.length);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
    },
    readInto,
    async close() {
      if (closed) return;
      closed = true;
      closeSync(descriptor);
    },
  };
}
