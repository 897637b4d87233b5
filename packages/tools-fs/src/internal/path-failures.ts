/**
 * Path helpers the storage seams share (OPFS, the host's handler): how a workspace path is shown
 * and the failure for a path that does not exist.
 *
 * @internal
 */

import { FileSystemError } from "../file-system.js";

/** How a workspace path is shown (`.` for the root). */
export function shownOf(path: string): string {
  return path.length === 0 ? "." : path;
}

/** The failure for a missing path. */
export function notFound(path: string): FileSystemError {
  return new FileSystemError(
    "FILE_NOT_FOUND",
    `${shownOf(path)} does not exist.`,
    "Check the path with list_directory or glob_search.",
  );
}
