import {
  type DirectoryEntry,
  directoryNotFileError,
  type FileReader,
  type FileStat,
  type FileSystem,
  FileSystemError,
  fileNotDirectoryError,
  parentNotDirectoryError,
} from "./file-system.js";
import {
  childOf,
  childrenOf,
  countChildren,
  type Handle,
  joinSegments,
  type Lookup,
  mapError,
  nameOfError,
  notFound,
  type OpfsDirectoryHandleLike,
  type OpfsFileHandleLike,
  type OpfsWritableLike,
  segmentsOf,
  sizeAndTime,
  type Walk,
} from "./internal/opfs-handles.js";

export type {
  OpfsDirectoryHandleLike,
  OpfsFileHandleLike,
  OpfsWritableLike,
} from "./internal/opfs-handles.js";

/** Options of {@link createOpfsFileSystem}. */
export interface OpfsFileSystemOptions {
  /**
   * The directory to work in. Default: `navigator.storage.getDirectory()`, the origin private
   * file system. Any `FileSystemDirectoryHandle` works, e.g. one from `showDirectoryPicker()`.
   */
  root?: OpfsDirectoryHandleLike;
  /** How the root is shown to the model and recognised in absolute paths. Default `"/"`. */
  displayRoot?: string;
}

/** Options of {@link OpfsFileSystem.scope}. */
export interface OpfsScopeOptions {
  /** Create the directory (and its parents) when missing. Default `true`. */
  create?: boolean;
  /** The scoped seam's `displayRoot`. Default `"/"`: a tenant never sees where it lives. */
  displayRoot?: string;
}

/**
 * A {@link FileSystem} over the browser's File System Access handles (OPFS by default), with
 * {@link OpfsFileSystem.scope} for sub-roots.
 */
export interface OpfsFileSystem extends FileSystem {
  /** `"opfs"`. */
  readonly kind: "opfs";
  /** The directory handle this seam is confined to. */
  readonly root: OpfsDirectoryHandleLike;
  /**
   * A seam rooted at a sub-directory's handle: everything it does happens inside that
   * directory, and no path it is given can reach a parent or a sibling (there is no way up from
   * a directory handle). `..`, `.`, empty segments, absolute paths, `\` and NUL are refused with
   * `INVALID_PATH`.
   *
   * @param path - the sub-directory, relative to this seam's root (`"projects/alpha"`)
   * @param options - `create` (default `true`) and the scoped `displayRoot`
   * @returns the scoped seam
   * @example
   * const projects = await createOpfsFileSystem();
   * const alpha = await projects.scope("projects/alpha");
   * const tools = createFsTools({ fileSystem: alpha, mode: "read-write" });
   */
  scope(path: string, options?: OpfsScopeOptions): Promise<OpfsFileSystem>;
}

interface Shared {
  /** Write generations per root-absolute path, shared by a seam and its scopes. */
  versions: Map<string, number>;
}

/**
 * A seam over one directory handle: the walks from it, the writes through writables and the
 * write generations it shares with its scopes. {@link build} hands out a plain object over it.
 */
class OpfsTree {
  readonly #root: OpfsDirectoryHandleLike;
  readonly #base: readonly string[];
  readonly #shared: Shared;

  constructor(root: OpfsDirectoryHandleLike, base: readonly string[], shared: Shared) {
    this.#root = root;
    this.#base = base;
    this.#shared = shared;
  }

  /** The root-absolute key of a path, for the write generations. */
  keyOf(segments: readonly string[]): string {
    return joinSegments([...this.#base, ...segments]);
  }

  /** Counts a write to `segments` (its identity changes). */
  bump(segments: readonly string[]): void {
    const key = this.keyOf(segments);
    this.#shared.versions.set(key, (this.#shared.versions.get(key) ?? 0) + 1);
  }

  /** Walks `segments` from the root, optionally creating directories. */
  async walk(segments: readonly string[], path: string, create = false): Promise<Walk> {
    let directory = this.#root;
    for (let index = 0; index < segments.length; index += 1) {
      const name = segments[index] as string;
      try {
        directory = await directory.getDirectoryHandle(name, { create });
      } catch (error) {
        const kind = nameOfError(error);
        if (kind === "NotFoundError") return { found: false, missingAt: index };
        if (kind === "TypeMismatchError") return { found: false, fileAt: index };
        return mapError(error, path);
      }
    }
    return { found: true, directory };
  }

  /** The directory at `segments`, or the seam's failure for `path`. */
  async directoryAt(
    segments: readonly string[],
    path: string,
    options: { create?: boolean; wanted?: "directory" | "parent" } = {},
  ): Promise<OpfsDirectoryHandleLike> {
    const walked = await this.walk(segments, path, options.create);
    if (walked.found) return walked.directory;
    if (walked.fileAt !== undefined) {
      const at = joinSegments(segments.slice(0, walked.fileAt + 1));
      if (options.wanted === "directory" && walked.fileAt === segments.length - 1) {
        throw fileNotDirectoryError(path);
      }
      throw parentNotDirectoryError(path, at);
    }
    throw notFound(path);
  }

  /** The entry at `segments` (root included), or why there is none. */
  async lookup(segments: readonly string[], path: string): Promise<Lookup> {
    if (segments.length === 0) return { handle: this.#root };
    const walked = await this.walk(segments.slice(0, -1), path);
    if (!walked.found) {
      return walked.fileAt !== undefined
        ? {
            handle: undefined,
            missing: true,
            parentFile: joinSegments(segments.slice(0, walked.fileAt + 1)),
          }
        : { handle: undefined, missing: true, parentMissing: true };
    }
    const handle = await childOf(walked.directory, segments.at(-1) as string, path);
    return handle === undefined ? { handle: undefined, missing: true } : { handle };
  }

  async fileAt(path: string): Promise<OpfsFileHandleLike> {
    const found = await this.lookup(segmentsOf(path), path);
    if (found.handle === undefined) {
      if (found.parentFile !== undefined) throw parentNotDirectoryError(path, found.parentFile);
      throw notFound(path);
    }
    if (found.handle.kind !== "file") throw directoryNotFileError(path);
    return found.handle;
  }

  async snapshot(path: string) {
    const handle = await this.fileAt(path);
    try {
      return await handle.getFile();
    } catch (error) {
      return mapError(error, path);
    }
  }

  /** Creates `segments` as directories; a file at the last one is `FILE_ALREADY_EXISTS`. */
  async ensureDirectory(
    segments: readonly string[],
    path: string,
    inside?: string,
  ): Promise<OpfsDirectoryHandleLike> {
    const walked = await this.walk(segments, path, true);
    if (walked.found) return walked.directory;
    if (walked.fileAt === undefined) throw notFound(path);
    const at = joinSegments(segments.slice(0, walked.fileAt + 1));
    if (inside === undefined && walked.fileAt === segments.length - 1) {
      throw new FileSystemError(
        "FILE_ALREADY_EXISTS",
        `${path} already exists and is a file, not a directory.`,
        "Choose another path, or delete or move the file first.",
      );
    }
    throw parentNotDirectoryError(inside ?? path, at);
  }

  /** Writes `data` to `name` in `directory` through a writable that commits on close. */
  async writeInto(
    directory: OpfsDirectoryHandleLike,
    name: string,
    path: string,
    write: (writable: OpfsWritableLike) => Promise<void>,
  ): Promise<void> {
    const existing = await childOf(directory, name, path);
    if (existing?.kind === "directory") throw directoryNotFileError(path);
    let handle: OpfsFileHandleLike;
    try {
      handle = existing ?? (await directory.getFileHandle(name, { create: true }));
    } catch (error) {
      return mapError(error, path);
    }
    let writable: OpfsWritableLike | undefined;
    try {
      writable = await handle.createWritable({ keepExistingData: false });
      await write(writable);
      writable = undefined;
    } catch (error) {
      await writable?.abort(error).catch(() => undefined);
      // A file created for this write is empty until the write commits: take it away again.
      if (existing === undefined) await directory.removeEntry(name).catch(() => undefined);
      mapError(error, path);
    }
  }

  async writeBytes(
    directory: OpfsDirectoryHandleLike,
    name: string,
    path: string,
    data: Uint8Array,
  ): Promise<void> {
    await this.writeInto(directory, name, path, async (writable) => {
      await writable.write(data as Uint8Array<ArrayBuffer>);
      await writable.close();
    });
  }

  /** Copies `handle` to `name` in `target`, byte for byte; directories merge. */
  async copyHandle(
    handle: Handle,
    target: OpfsDirectoryHandleLike,
    name: string,
    targetSegments: readonly string[],
    shown: string,
  ): Promise<void> {
    const destinationPath = joinSegments(targetSegments);
    if (handle.kind === "file") {
      let file: Blob;
      try {
        file = await handle.getFile();
      } catch (error) {
        return mapError(error, shown);
      }
      await this.writeBytes(
        target,
        name,
        destinationPath,
        new Uint8Array(await file.arrayBuffer()),
      );
      this.bump(targetSegments);
      return;
    }
    let directory: OpfsDirectoryHandleLike;
    try {
      directory = await target.getDirectoryHandle(name, { create: true });
    } catch (error) {
      if (nameOfError(error) === "TypeMismatchError") {
        throw new FileSystemError(
          "FILE_ALREADY_EXISTS",
          `${destinationPath} already exists and is a file, not a directory.`,
          "Choose another destination, or delete or move the file first.",
        );
      }
      return mapError(error, destinationPath);
    }
    for await (const child of childrenOf(handle)) {
      await this.copyHandle(child, directory, child.name, [...targetSegments, child.name], shown);
    }
  }

  async listHandles(path: string): Promise<Handle[]> {
    const directory = await this.directoryAt(segmentsOf(path), path, { wanted: "directory" });
    const children: Handle[] = [];
    try {
      for await (const child of childrenOf(directory)) children.push(child);
    } catch (error) {
      mapError(error, path);
    }
    return children;
  }

  async sourceOf(from: readonly string[], source: string): Promise<Handle> {
    const found = await this.lookup(from, source);
    if (found.handle === undefined) {
      if (found.parentFile !== undefined) throw parentNotDirectoryError(source, found.parentFile);
      throw notFound(source);
    }
    return found.handle;
  }

  async realPath(path: string): Promise<string> {
    return joinSegments(segmentsOf(path));
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const segments = segmentsOf(path);
    const found = await this.lookup(segments, path);
    if (found.handle === undefined) return undefined;
    let figures: { size: number; modifiedMs: number };
    try {
      figures = await sizeAndTime(found.handle);
    } catch (error) {
      if (nameOfError(error) === "NotFoundError") return undefined;
      return mapError(error, path);
    }
    return found.handle.kind === "file"
      ? {
          type: "file",
          ...figures,
          identity: String(this.#shared.versions.get(this.keyOf(segments)) ?? 0),
        }
      : { type: "directory", ...figures };
  }

  async readFile(path: string): Promise<Uint8Array> {
    const file = await this.snapshot(path);
    try {
      return new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      return mapError(error, path);
    }
  }

  async openReader(path: string): Promise<FileReader> {
    const file = await this.snapshot(path);
    return {
      size: file.size,
      async read(position, length) {
        const end = Math.min(file.size, position + length);
        if (end <= position) return new Uint8Array(0);
        try {
          return new Uint8Array(await file.slice(position, end).arrayBuffer());
        } catch (error) {
          return mapError(error, path);
        }
      },
      async close() {},
    };
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const segments = segmentsOf(path);
    if (segments.length === 0) throw directoryNotFileError(path);
    const directory = await this.ensureDirectory(segments.slice(0, -1), path, path);
    await this.writeBytes(directory, segments.at(-1) as string, path, data);
    this.bump(segments);
  }

  async createDirectory(path: string): Promise<void> {
    await this.ensureDirectory(segmentsOf(path), path);
  }

  async readDirectory(path: string): Promise<DirectoryEntry[]> {
    const children = await this.listHandles(path);
    return Promise.all(
      children.map(async (child) => {
        const figures = await sizeAndTime(child).catch(() => ({ size: 0, modifiedMs: 0 }));
        return { name: child.name, type: child.kind, ...figures };
      }),
    );
  }

  async readDirectoryNames(path: string): Promise<Array<Pick<DirectoryEntry, "name" | "type">>> {
    const children = await this.listHandles(path);
    return children.map((child) => ({ name: child.name, type: child.kind }));
  }

  async remove(path: string, removeOptions: { recursive: boolean }): Promise<void> {
    const segments = segmentsOf(path);
    if (segments.length === 0) {
      throw new FileSystemError("INVALID_PATH", "The workspace root cannot be removed.");
    }
    const found = await this.lookup(segments, path);
    if (found.handle === undefined) {
      if (found.parentFile !== undefined) throw parentNotDirectoryError(path, found.parentFile);
      throw notFound(path);
    }
    if (found.handle.kind === "directory" && !removeOptions.recursive) {
      const count = await countChildren(found.handle, path);
      if (count > 0) {
        throw new FileSystemError(
          "DIRECTORY_NOT_EMPTY",
          `${path} is a directory with ${count} ${count === 1 ? "entry" : "entries"} inside.`,
          "Pass recursive: true to delete it with everything inside.",
        );
      }
    }
    const parent = await this.directoryAt(segments.slice(0, -1), path);
    try {
      await parent.removeEntry(segments.at(-1) as string, {
        recursive: removeOptions.recursive,
      });
    } catch (error) {
      mapError(error, path);
    }
    this.bump(segments);
  }

  async rename(source: string, destination: string): Promise<void> {
    const { from, to } = transferSegments(source, destination, "move");
    const handle = await this.sourceOf(from, source);
    const target = await this.directoryAt(to.slice(0, -1), destination);
    const name = to.at(-1) as string;
    const existing = await childOf(target, name, destination);
    if (existing !== undefined) {
      if (existing.kind === "directory") {
        if (handle.kind === "file") throw directoryNotFileError(destination);
        if ((await countChildren(existing, destination)) > 0) {
          throw new FileSystemError(
            "DIRECTORY_NOT_EMPTY",
            `${destination} is not empty.`,
            "Choose another destination, or delete it first.",
          );
        }
        await target.removeEntry(name).catch((error: unknown) => mapError(error, destination));
      } else if (handle.kind === "directory") {
        throw new FileSystemError(
          "INVALID_PATH",
          `${destination} is a file; a directory cannot replace it.`,
          "Choose another destination, or delete the file first.",
        );
      }
    }
    // The File System API has no rename for every handle: copy byte for byte, then delete.
    try {
      await this.copyHandle(handle, target, name, to, source);
    } catch (error) {
      if (handle.kind === "directory" && existing === undefined) {
        await target.removeEntry(name, { recursive: true }).catch(() => undefined);
      }
      throw error;
    }
    const parent = await this.directoryAt(from.slice(0, -1), source);
    try {
      await parent.removeEntry(from.at(-1) as string, { recursive: handle.kind === "directory" });
    } catch (error) {
      mapError(error, source);
    }
    this.bump(from);
    this.bump(to);
  }

  async copy(source: string, destination: string): Promise<void> {
    const { from, to } = transferSegments(source, destination, "copy");
    const handle = await this.sourceOf(from, source);
    const target = await this.ensureDirectory(to.slice(0, -1), destination, destination);
    await this.copyHandle(handle, target, to.at(-1) as string, to, source);
  }

  async digest(path: string): Promise<string> {
    const file = await this.snapshot(path);
    let bytes: ArrayBuffer;
    try {
      bytes = await file.arrayBuffer();
    } catch (error) {
      return mapError(error, path);
    }
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    let hex = "";
    for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
    return hex;
  }

  async scope(path: string, scopeOptions: OpfsScopeOptions = {}): Promise<OpfsFileSystem> {
    const segments = segmentsOf(path);
    const directory =
      scopeOptions.create === false
        ? await this.directoryAt(segments, path, { wanted: "directory" })
        : await this.ensureDirectory(segments, path);
    return build(
      directory,
      [...this.#base, ...segments],
      scopeOptions.displayRoot ?? "/",
      this.#shared,
    );
  }
}

/** Checks a move or copy: not the root, not into itself. */
function transferSegments(source: string, destination: string, verb: "move" | "copy") {
  const from = segmentsOf(source);
  const to = segmentsOf(destination);
  if (from.length === 0 || to.length === 0) {
    throw new FileSystemError(
      "INVALID_PATH",
      `The workspace root cannot be ${verb === "move" ? "moved" : "copied"}.`,
    );
  }
  const fromPath = joinSegments(from);
  const toPath = joinSegments(to);
  if (toPath === fromPath || toPath.startsWith(`${fromPath}/`)) {
    throw new FileSystemError("INVALID_PATH", `Cannot ${verb} ${source} into itself.`);
  }
  return { from, to };
}

function build(
  root: OpfsDirectoryHandleLike,
  base: readonly string[],
  displayRoot: string,
  shared: Shared,
): OpfsFileSystem {
  const tree = new OpfsTree(root, base, shared);
  // A plain object (not the class instance), so a host may spread it to wrap some methods.
  return {
    kind: "opfs",
    displayRoot,
    root,
    realPath: (path) => tree.realPath(path),
    stat: (path) => tree.stat(path),
    readFile: (path) => tree.readFile(path),
    openReader: (path) => tree.openReader(path),
    writeFile: (path, data) => tree.writeFile(path, data),
    createDirectory: (path) => tree.createDirectory(path),
    readDirectory: (path) => tree.readDirectory(path),
    readDirectoryNames: (path) => tree.readDirectoryNames(path),
    remove: (path, removeOptions) => tree.remove(path, removeOptions),
    rename: (source, destination) => tree.rename(source, destination),
    copy: (source, destination) => tree.copy(source, destination),
    digest: (path) => tree.digest(path),
    scope: (path, scopeOptions) => tree.scope(path, scopeOptions),
  };
}

function isDirectoryHandle(value: unknown): value is OpfsDirectoryHandleLike {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "directory" &&
    typeof (value as { getDirectoryHandle?: unknown }).getDirectoryHandle === "function" &&
    typeof (value as { getFileHandle?: unknown }).getFileHandle === "function"
  );
}

/**
 * Creates a {@link FileSystem} over the browser's origin private file system (OPFS), or over
 * any `FileSystemDirectoryHandle` you pass as `root`. Same semantics and error codes as
 * {@link createMemoryFileSystem}: writes go through `createWritable()` (in Chromium the file
 * changes only when the stream closes; a failed write is aborted and leaves the file as it
 * was), a move is a byte-exact copy followed by deleting the source, a non-empty directory is
 * removed only with `recursive`. OPFS has no symlinks and no permission bits; directories
 * report `modifiedMs: 0`.
 *
 * Where there is no OPFS (Node, a page that is not a secure context) it rejects with a
 * {@link FileSystemError} `UNSUPPORTED` naming what to use instead; importing it never fails.
 *
 * @param options - `root` (default `navigator.storage.getDirectory()`) and `displayRoot`
 * @returns the seam, with {@link OpfsFileSystem.scope} for sub-roots
 * @example
 * import { createFsTools, createOpfsFileSystem } from "@agentool/tools-fs";
 *
 * const fileSystem = await createOpfsFileSystem();
 * const project = await fileSystem.scope("projects/demo");
 * const tools = createFsTools({ fileSystem: project, mode: "read-write" });
 */
export async function createOpfsFileSystem(
  options: OpfsFileSystemOptions = {},
): Promise<OpfsFileSystem> {
  if (typeof options !== "object" || options === null) {
    throw new FileSystemError(
      "INVALID_INPUT",
      "createOpfsFileSystem: options must be an object like { root, displayRoot }.",
    );
  }
  const unknown = Object.keys(options).filter((key) => key !== "root" && key !== "displayRoot");
  if (unknown.length > 0) {
    throw new FileSystemError(
      "INVALID_INPUT",
      `createOpfsFileSystem: unknown option ${unknown.map((key) => `"${key}"`).join(", ")}; the options are root and displayRoot.`,
    );
  }
  if (options.displayRoot !== undefined && typeof options.displayRoot !== "string") {
    throw new FileSystemError(
      "INVALID_INPUT",
      "createOpfsFileSystem: displayRoot must be a string such as '/'.",
    );
  }
  let root = options.root;
  if (root === undefined) {
    const storage = (
      globalThis as { navigator?: { storage?: { getDirectory?: () => Promise<unknown> } } }
    ).navigator?.storage;
    if (typeof storage?.getDirectory !== "function") {
      throw new FileSystemError(
        "UNSUPPORTED",
        "createOpfsFileSystem: this runtime has no origin private file system (navigator.storage.getDirectory is missing: Node, or a page that is not a secure context).",
        "In Node use createNodeFileSystem or createNodeFsTools from @agentool/tools-fs/node; in a browser serve the page over https or from localhost, or pass { root } with a FileSystemDirectoryHandle; for tests use createMemoryFileSystem.",
      );
    }
    let opened: unknown;
    try {
      opened = await storage.getDirectory();
    } catch (error) {
      throw new FileSystemError(
        "UNSUPPORTED",
        `createOpfsFileSystem: the browser refused the origin private file system (${nameOfError(error) ?? "error"}: ${error instanceof Error ? error.message : String(error)}).`,
        "Private windows and sandboxed or opaque-origin frames may have no OPFS; use createMemoryFileSystem there.",
      );
    }
    root = opened as OpfsDirectoryHandleLike;
  }
  if (!isDirectoryHandle(root)) {
    throw new FileSystemError(
      "INVALID_INPUT",
      "createOpfsFileSystem: root must be a FileSystemDirectoryHandle (from navigator.storage.getDirectory() or showDirectoryPicker()).",
    );
  }
  return build(root, [], options.displayRoot ?? "/", { versions: new Map() });
}
