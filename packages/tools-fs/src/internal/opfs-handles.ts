/**
 * The OPFS seam's handle types and the helpers below its tree: errors mapped from DOMException
 * names, path segments checked, children listed.
 *
 * @internal
 */

import { FileSystemError, parentNotDirectoryError } from "../file-system.js";
import { notFound, shownOf } from "./path-failures.js";

/**
 * The part of the browser's `FileSystemWritableFileStream` the OPFS seam uses. A real
 * `FileSystemWritableFileStream` fits it; Chromium writes to a swap file and replaces the
 * target only when `close()` resolves, and `abort()` discards the swap file.
 */
export interface OpfsWritableLike {
  /** Writes bytes at the current position. */
  write(data: Uint8Array<ArrayBuffer>): Promise<void>;
  /** Commits the write: the file changes now. */
  close(): Promise<void>;
  /** Discards everything written; the file stays as it was. */
  abort(reason?: unknown): Promise<void>;
}

/** The part of the browser's `FileSystemFileHandle` the OPFS seam uses. */
export interface OpfsFileHandleLike {
  /** Always `"file"`. */
  readonly kind: "file";
  /** The entry's name. */
  readonly name: string;
  /** A snapshot of the file (`size`, `lastModified`, `slice`, `arrayBuffer`, `stream`). */
  getFile(): Promise<Blob & { readonly lastModified: number }>;
  /** A writable stream that replaces the file when it closes. */
  createWritable(options?: { keepExistingData?: boolean }): Promise<OpfsWritableLike>;
}

/**
 * The part of the browser's `FileSystemDirectoryHandle` the OPFS seam uses. The directory from
 * `navigator.storage.getDirectory()` (the origin private file system) fits it, and so does a
 * folder the user granted with `showDirectoryPicker({ mode: "readwrite" })`.
 */
export interface OpfsDirectoryHandleLike {
  /** Always `"directory"`. */
  readonly kind: "directory";
  /** The entry's name (`""` for the OPFS root). */
  readonly name: string;
  /** A child directory; `create` makes it when missing. */
  getDirectoryHandle(
    name: string,
    options?: { create?: boolean },
  ): Promise<OpfsDirectoryHandleLike>;
  /** A child file; `create` makes an empty one when missing. */
  getFileHandle(name: string, options?: { create?: boolean }): Promise<OpfsFileHandleLike>;
  /** Removes a child; a non-empty directory only with `recursive`. */
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
  /**
   * The children, in no particular order. Each is a file or directory handle (typed loosely so
   * a real `FileSystemDirectoryHandle` fits without a cast).
   */
  values(): AsyncIterable<{ readonly kind: "file" | "directory"; readonly name: string }>;
}

export type Handle = OpfsFileHandleLike | OpfsDirectoryHandleLike;

export function nameOfError(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "name" in error
    ? String((error as { name: unknown }).name)
    : undefined;
}

/** Maps a DOMException of the File System API to the seam's failure for `path`. */
export function mapError(error: unknown, path: string): never {
  if (FileSystemError.isInstance(error)) throw error;
  const shown = shownOf(path);
  switch (nameOfError(error)) {
    case "NotFoundError":
      throw notFound(path);
    case "TypeMismatchError":
      throw parentNotDirectoryError(path);
    case "InvalidModificationError":
      throw new FileSystemError(
        "DIRECTORY_NOT_EMPTY",
        `${shown} is not empty.`,
        "Pass recursive: true to delete it with everything inside.",
      );
    case "NoModificationAllowedError":
      throw new FileSystemError(
        "PERMISSION_DENIED",
        `${shown} is locked by another tab or worker (an open sync access handle or a write in progress).`,
        "Try again when the other writer is done.",
      );
    case "NotAllowedError":
    case "SecurityError":
      throw new FileSystemError(
        "PERMISSION_DENIED",
        `The browser refused access to ${shown}.`,
        "Ask the user to grant read-write access to the folder again.",
      );
    case "QuotaExceededError":
      throw new FileSystemError(
        "TOO_LARGE",
        `The origin's storage quota is exhausted while writing ${shown}.`,
        "Delete files that are no longer needed, or ask the user to free browser storage.",
      );
    case "NotReadableError":
      throw new FileSystemError(
        "CONFLICT",
        `${shown} changed while it was being read.`,
        "Read it again.",
      );
    case "TypeError":
      throw new FileSystemError(
        "INVALID_PATH",
        `${shown} is not a name this browser's file system accepts.`,
        "Use plain file and folder names.",
      );
    default:
      throw error;
  }
}

/**
 * Splits a workspace path into names, refusing anything that is not a plain relative path.
 *
 * @internal
 */
export function segmentsOf(path: string): string[] {
  if (path.length === 0) return [];
  const segments = path.split("/");
  for (const segment of segments) {
    if (
      segment.length === 0 ||
      segment === "." ||
      segment === ".." ||
      segment.includes("\\") ||
      segment.includes("\0")
    ) {
      throw new FileSystemError(
        "INVALID_PATH",
        `${path} is not a relative path inside the root (no leading /, no . or .. segments, no \\ or NUL).`,
        "Give a path relative to the workspace root, e.g. src/app.ts.",
      );
    }
  }
  return segments;
}

export function joinSegments(segments: readonly string[]): string {
  return segments.join("/");
}

/** The outcome of walking directories: the handle, or where the walk stopped. */
export type Walk =
  | { found: true; directory: OpfsDirectoryHandleLike }
  | { found: false; missingAt: number; fileAt?: undefined }
  | { found: false; fileAt: number; missingAt?: undefined };

/** The outcome of looking up one entry. */
export type Lookup =
  | { handle: Handle }
  | { handle: undefined; parentFile?: string; missing: boolean; parentMissing?: boolean };

export async function childOf(
  directory: OpfsDirectoryHandleLike,
  name: string,
  path: string,
): Promise<Handle | undefined> {
  try {
    return await directory.getFileHandle(name);
  } catch (error) {
    const kind = nameOfError(error);
    if (kind === "NotFoundError") return undefined;
    if (kind !== "TypeMismatchError") mapError(error, path);
  }
  try {
    return await directory.getDirectoryHandle(name);
  } catch (error) {
    if (nameOfError(error) === "NotFoundError") return undefined;
    return mapError(error, path);
  }
}

/** The children of a directory handle, as handles. */
export function childrenOf(directory: OpfsDirectoryHandleLike): AsyncIterable<Handle> {
  return directory.values() as AsyncIterable<Handle>;
}

export async function countChildren(
  directory: OpfsDirectoryHandleLike,
  path: string,
): Promise<number> {
  let count = 0;
  try {
    for await (const _child of childrenOf(directory)) count += 1;
  } catch (error) {
    mapError(error, path);
  }
  return count;
}

export async function sizeAndTime(handle: Handle): Promise<{ size: number; modifiedMs: number }> {
  if (handle.kind === "directory") return { size: 0, modifiedMs: 0 };
  const file = await handle.getFile();
  return { size: file.size, modifiedMs: file.lastModified };
}

export { notFound, shownOf } from "./path-failures.js";
