import type { ErrorCode } from "@agentool/contract";
import { FileSystemError } from "../file-system.js";

/**
 * The `code` of a Node.js system error (`ENOENT`, `EACCES`, …), if it has one.
 *
 * @internal
 */
export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null
    ? (error as { code?: string }).code
    : undefined;
}

/**
 * Rethrows a system error as the seam's {@link FileSystemError} with the shared code for its
 * errno (`ENOENT` → `FILE_NOT_FOUND`, `EACCES` → `PERMISSION_DENIED`, …), naming the workspace
 * path; a {@link FileSystemError} passes through and an unknown errno is rethrown unchanged.
 *
 * @param error - what a system call threw
 * @param path - the workspace path asked for
 * @internal
 */
export function mapErrno(error: unknown, path: string): never {
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
