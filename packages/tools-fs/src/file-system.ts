import { type ErrorCode, ToolFailureError } from "@agentool/contract";

/**
 * The `FileSystem` seam every file tool works over. Paths given to a seam are
 * **workspace paths**: relative, POSIX (`/`-separated), normalised, without `.`/`..` segments;
 * `""` is the root. The tools never hand a seam anything else — {@link Workspace} turns what a
 * model sends into workspace paths and refuses escapes and secret paths first.
 *
 * Implementations: {@link createMemoryFileSystem} (any runtime) and `createNodeFileSystem` from
 * `@agentool/tools-fs/node` (confined to a directory on disk, symlinks resolved on the real path).
 */

/** What a directory entry or a path is. */
export type EntryType = "file" | "directory" | "symlink" | "other";

/** What {@link FileSystem.stat} reports (symlinks followed). */
export interface FileStat {
  /** `"file"`, `"directory"` or `"other"` (a stat follows symlinks, so never `"symlink"`). */
  type: EntryType;
  /** Size in bytes (0 for directories). */
  size: number;
  /** Last modification, milliseconds since the epoch. */
  modifiedMs: number;
  /** Unix permission bits, when the seam has them. */
  mode?: number;
  /**
   * Changes whenever the content may have changed without size and time changing (an inode
   * number, a version counter). Used with size and time to key caches.
   */
  identity?: string;
}

/** One entry of {@link FileSystem.readDirectory} (symlinks not followed). */
export interface DirectoryEntry {
  /** The entry's name (no slashes). */
  name: string;
  /** What it is; a symlink is reported as `"symlink"`. */
  type: EntryType;
  /** Size in bytes (0 for directories). */
  size: number;
  /** Last modification, milliseconds since the epoch. */
  modifiedMs: number;
}

/** A handle for reading parts of a file without reading it whole. */
export interface FileReader {
  /** The file's size in bytes when it was opened. */
  readonly size: number;
  /** Reads up to `length` bytes from `position`; fewer at the end of the file. */
  read(position: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: reads up to `length` bytes from `position` into `target` (from its start) and
   * resolves to the bytes read — long scans then reuse one buffer instead of allocating a chunk
   * per read.
   */
  readInto?(target: Uint8Array, position: number, length: number): Promise<number>;
  /** Releases the handle. Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link FileSystem.writeFile}. */
export interface WriteFileOptions {
  /** Permission bits for a new file; an existing file keeps its own. */
  mode?: number;
}

/**
 * A file system the tools can work over. Every method throws {@link FileSystemError} (with an
 * error code from the shared list) for expected failures: missing files, a path that escapes the
 * root on its real path, permissions, an existing destination, a non-empty directory.
 */
export interface FileSystem {
  /** A label for messages and capability checks: `"node"`, `"memory"`, … */
  readonly kind: string;
  /**
   * How the root is shown to the model and how absolute paths from the model are recognised
   * (e.g. `/home/me/project`); `"/"` for a seam without a place on disk.
   */
  readonly displayRoot: string;
  /**
   * The canonical workspace path: symlinks followed (for missing paths, as far as they exist).
   * Throws `INVALID_PATH` when the real path lies outside the root.
   */
  realPath(path: string): Promise<string>;
  /** Stat with symlinks followed, or `undefined` when nothing is there. */
  stat(path: string): Promise<FileStat | undefined>;
  /** The whole file. */
  readFile(path: string): Promise<Uint8Array>;
  /** A handle for ranged reads (paging huge files). */
  openReader(path: string): Promise<FileReader>;
  /**
   * Writes atomically (temporary file in the same directory, flushed, renamed over the target),
   * creating parent directories. An existing file keeps its permission bits.
   */
  writeFile(path: string, data: Uint8Array, options?: WriteFileOptions): Promise<void>;
  /** Creates a directory and its parents; no error when it exists. */
  createDirectory(path: string): Promise<void>;
  /** The entries of a directory, in no particular order. */
  readDirectory(path: string): Promise<DirectoryEntry[]>;
  /**
   * Optional fast path: the names and types of a directory's entries without a stat of each
   * (`size` and `modifiedMs` left out). Listings that show a page of a large folder use it and
   * stat only the entries they show; seams without it are read with {@link readDirectory}.
   */
  readDirectoryNames?(path: string): Promise<Array<Pick<DirectoryEntry, "name" | "type">>>;
  /**
   * Optional fast path beside {@link readDirectoryNames}: the sizes of the named entries of one
   * directory (0 for anything not a regular file, or gone), in the order asked, with one confined
   * open of the directory instead of a confined `stat` of each path. A listing past its page
   * sizes only the files it shows this way.
   */
  readEntrySizes?(path: string, names: readonly string[]): Promise<number[]>;
  /** Removes a file, or a directory (non-empty only with `recursive`; else `DIRECTORY_NOT_EMPTY`). */
  remove(path: string, options: { recursive: boolean }): Promise<void>;
  /** Moves a file or directory; the destination's parents must exist; replaces a file there. */
  rename(source: string, destination: string): Promise<void>;
  /** Copies a file or a directory tree; replaces files that exist at the destination. */
  copy(source: string, destination: string): Promise<void>;
  /** SHA-256 of the file as lower-case hex, streamed where the seam can. */
  digest(path: string): Promise<string>;
}

const fileSystemErrorMarker = Symbol.for("agentool.fs.error");

/**
 * An expected failure of a {@link FileSystem} call, carrying a shared error code. A
 * `ToolFailureError` from the contract: a tool's `run` maps it (thrown anywhere, or as the cause
 * of another error) to the failure envelope with its code, message and hint.
 */
export class FileSystemError extends ToolFailureError {
  /** @internal */
  readonly [fileSystemErrorMarker] = true;

  /**
   * @param code - a shared error code (`FILE_NOT_FOUND`, `INVALID_PATH`, …)
   * @param message - what went wrong, naming the workspace path
   * @param hint - what to do next
   */
  constructor(code: ErrorCode, message: string, hint?: string) {
    super(code, message, hint === undefined ? {} : { hint });
    this.name = "FileSystemError";
  }

  /**
   * Tells whether a value is a {@link FileSystemError}, even from another copy of the package.
   *
   * @param value - anything
   * @returns `true` for a file system error
   */
  static override isInstance(value: unknown): value is FileSystemError {
    return typeof value === "object" && value !== null && fileSystemErrorMarker in value;
  }
}

/**
 * The seam's failure for a directory where a file is wanted (reading or writing a directory as
 * a file): `INVALID_PATH`, naming the tool for directories, as the contract's table says.
 *
 * @param path - the workspace path
 * @returns the error to throw
 * @internal
 */
export function directoryNotFileError(path: string): FileSystemError {
  return new FileSystemError(
    "INVALID_PATH",
    `${path.length === 0 ? "." : path} is a directory, not a file.`,
    "List it with list_directory and pick a file inside it.",
  );
}

/**
 * The seam's failure for a file where a directory is wanted (listing a file): `INVALID_PATH`,
 * naming the tool for files.
 *
 * @param path - the workspace path
 * @returns the error to throw
 * @internal
 */
export function fileNotDirectoryError(path: string): FileSystemError {
  return new FileSystemError(
    "INVALID_PATH",
    `${path.length === 0 ? "." : path} is a file, not a directory.`,
    "Read it with read_file, or get its size and line count with file_stats.",
  );
}

/**
 * The seam's failure for a path under a file (`notes.txt/a.md`): a file is where a directory is
 * wanted, so `INVALID_PATH` (not `FILE_NOT_FOUND`).
 *
 * @param path - the workspace path asked for
 * @param parent - the file on its way, when known
 * @returns the error to throw
 * @internal
 */
export function parentNotDirectoryError(path: string, parent?: string): FileSystemError {
  return new FileSystemError(
    "INVALID_PATH",
    parent === undefined
      ? `A parent of ${path} is a file, not a directory.`
      : `${parent} is a file, not a directory, so ${path} cannot be inside it.`,
    "Use a path whose parents are directories; check them with list_directory.",
  );
}
