/**
 * The failures of the handler seam ({@link createHandlerFileSystem}): what a host's `read`,
 * `write`, `list` or `remove` threw, mapped to the shared error codes by its `code` (Node-style
 * errno strings) or its `name` (DOMException names), and the seam's own refusals.
 *
 * @internal
 */

import { type ErrorCode, errorMessage, ToolFailureError } from "@agentool/contract";
import {
  directoryNotFileError,
  FileSystemError,
  fileNotDirectoryError,
  parentNotDirectoryError,
} from "../file-system.js";
import { notFound, shownOf } from "./path-failures.js";

/** The handler functions a host gives, by the name the messages use. */
export type HandlerOperation = "read" | "write" | "list" | "remove";

/** Longest quote of a host's error message in a model-facing message. */
const MAX_QUOTED_CHARACTERS = 300;

const VERBS: Record<HandlerOperation, string> = {
  read: "read",
  write: "write",
  list: "list",
  remove: "delete",
};

/** `"QuotaExceededError: the disk is full"`: a thrown value's name and message, cut for quoting. */
export function describeThrown(error: unknown): string {
  const message = messageOf(error);
  const name = nameOf(error);
  return name === undefined || name === "Error" || message.startsWith(name)
    ? message
    : `${name}: ${message}`;
}

/** A thrown value's message (a plain object's `message` too), without ever throwing. */
function messageOf(error: unknown): string {
  try {
    if (typeof error === "object" && error !== null && !(error instanceof Error)) {
      const message = (error as { message?: unknown }).message;
      if (typeof message === "string" && message.length > 0) {
        return errorMessage(message, MAX_QUOTED_CHARACTERS);
      }
    }
  } catch {
    // a hostile getter: fall through to the plain description
  }
  return errorMessage(error, MAX_QUOTED_CHARACTERS);
}

/** A thrown value's `name` (DOMException names live here), without ever throwing. */
function nameOf(error: unknown): string | undefined {
  try {
    if (typeof error !== "object" || error === null) return undefined;
    const name = (error as { name?: unknown }).name;
    return typeof name === "string" && name.length > 0 ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A thrown value's string `code` (Node-style `ENOENT`; a DOMException's numeric code is not one). */
function codeOf(error: unknown): string | undefined {
  try {
    if (typeof error !== "object" || error === null) return undefined;
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && code.length > 0 ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a host's error says the path is a directory (`EISDIR`): reading it as a file failed. */
export function isDirectoryError(error: unknown): boolean {
  return codeOf(error) === "EISDIR";
}

/** Whether a host's error says a path is a file where a directory is wanted (`ENOTDIR`). */
export function isNotDirectoryError(error: unknown): boolean {
  const name = nameOf(error);
  return codeOf(error) === "ENOTDIR" || name === "TypeMismatchError";
}

/** Error codes and DOMException names, and the shared code each stands for. */
const KNOWN_FAILURES: Readonly<Record<string, ErrorCode>> = {
  ENOENT: "FILE_NOT_FOUND",
  NotFoundError: "FILE_NOT_FOUND",
  EACCES: "PERMISSION_DENIED",
  EPERM: "PERMISSION_DENIED",
  EROFS: "PERMISSION_DENIED",
  NotAllowedError: "PERMISSION_DENIED",
  SecurityError: "PERMISSION_DENIED",
  NoModificationAllowedError: "PERMISSION_DENIED",
  QuotaExceededError: "TOO_LARGE",
  ENOSPC: "TOO_LARGE",
  EDQUOT: "TOO_LARGE",
  EFBIG: "TOO_LARGE",
  AbortError: "ABORTED",
  ABORT_ERR: "ABORTED",
  TimeoutError: "TIMEOUT",
  ETIMEDOUT: "TIMEOUT",
  EISDIR: "INVALID_PATH",
  ENOTDIR: "INVALID_PATH",
  ENOTEMPTY: "DIRECTORY_NOT_EMPTY",
  EEXIST: "FILE_ALREADY_EXISTS",
};

/** The shared code a host's error stands for (its `code` first, then its `name`), if known. */
export function knownCodeOf(error: unknown): ErrorCode | undefined {
  const code = codeOf(error);
  const name = nameOf(error);
  return (
    (code === undefined ? undefined : KNOWN_FAILURES[code]) ??
    (name === undefined ? undefined : KNOWN_FAILURES[name])
  );
}

/**
 * The seam's failure for what a host's handler threw (or how it misbehaved): a coded failure the
 * host threw itself keeps its code; a known errno or DOMException name maps to its shared code;
 * anything else is `INTERNAL`, naming the handler, the path and the host's message.
 *
 * @param error - what the handler threw
 * @param operation - which handler
 * @param path - the workspace path it was called with
 * @returns the error to throw
 */
export function handlerFailure(
  error: unknown,
  operation: HandlerOperation,
  path: string,
): FileSystemError {
  if (FileSystemError.isInstance(error)) return error;
  const coded = ToolFailureError.isInstance(error) ? error : undefined;
  if (coded !== undefined) {
    return new FileSystemError(coded.code, coded.message, coded.hint);
  }
  const shown = shownOf(path);
  const verb = VERBS[operation];
  const detail = describeThrown(error);
  const code = knownCodeOf(error);
  const errno = codeOf(error);
  switch (code) {
    case "FILE_NOT_FOUND":
      return notFound(path);
    case "PERMISSION_DENIED":
      return new FileSystemError(
        "PERMISSION_DENIED",
        `The host's storage refused to ${verb} ${shown} (${detail}).`,
        "Ask the user to grant access to the storage, or work with other files.",
      );
    case "TOO_LARGE":
      return new FileSystemError(
        "TOO_LARGE",
        `The host's storage is full: ${verb} ${shown} failed (${detail}).`,
        "Write less, delete files that are no longer needed, or ask the user to free storage.",
      );
    case "ABORTED":
      return new FileSystemError(
        "ABORTED",
        `The host's storage cancelled the ${verb} of ${shown} (${detail}).`,
        "Try the call again.",
      );
    case "TIMEOUT":
      return new FileSystemError(
        "TIMEOUT",
        `The host's storage timed out during the ${verb} of ${shown} (${detail}).`,
        "Try again later, or ask the user to check the storage.",
      );
    case "INVALID_PATH":
      if (errno === "EISDIR") return directoryNotFileError(path);
      return operation === "list" ? fileNotDirectoryError(path) : parentNotDirectoryError(path);
    case "DIRECTORY_NOT_EMPTY":
      return new FileSystemError(
        "DIRECTORY_NOT_EMPTY",
        `${shown} is not empty.`,
        "Pass recursive: true to delete it with everything inside.",
      );
    case "FILE_ALREADY_EXISTS":
      return new FileSystemError("FILE_ALREADY_EXISTS", `${shown} already exists.`);
    default:
      return new FileSystemError(
        "INTERNAL",
        `The host's ${operation} handler failed for ${shown}: ${detail}`,
        `The failure comes from the host's storage (the ${operation} function given to createHandlerFileSystem), not from the path or the input; try once more, then tell the user.`,
      );
  }
}

/**
 * The failure for a handler that answered with something it must not (a number from `read`, an
 * object from `list`…): `INTERNAL`, naming the handler and what it must return.
 *
 * @param operation - which handler
 * @param path - the workspace path it was called with
 * @param problem - what was wrong, e.g. `"returned a number"`
 * @param expected - what it must return instead
 * @returns the error to throw
 */
export function malformedAnswer(
  operation: HandlerOperation,
  path: string,
  problem: string,
  expected: string,
): FileSystemError {
  return new FileSystemError(
    "INTERNAL",
    `The host's ${operation} handler ${problem} for ${shownOf(path)}; it must return ${expected}.`,
    `This is a bug in the host's ${operation} function given to createHandlerFileSystem, not in your input; tell the user.`,
  );
}

/**
 * The failure for a handler call that did not settle in time: `TIMEOUT`, naming the handler.
 *
 * @param operation - which handler
 * @param path - the workspace path it was called with
 * @param timeoutMs - the seam's limit
 * @returns the error to throw
 */
export function handlerTimeout(
  operation: HandlerOperation,
  path: string,
  timeoutMs: number,
): FileSystemError {
  return new FileSystemError(
    "TIMEOUT",
    `The host's ${operation} handler did not answer within ${timeoutMs} ms for ${shownOf(path)}.`,
    "The host's storage is stuck or slow; try again later, or tell the user.",
  );
}

/**
 * The failure for what needs a handler the host did not give: `UNSUPPORTED`, with a next step
 * for the model and the option that enables it for the host.
 *
 * @param missing - the handler that is missing
 * @param what - what could not be done, e.g. `"list docs"`
 * @returns the error to throw
 */
export function handlerMissing(missing: "list" | "remove", what: string): FileSystemError {
  return missing === "list"
    ? new FileSystemError(
        "UNSUPPORTED",
        `Cannot ${what}: this workspace is the host's own storage, opened without a list function, so its folders cannot be listed or searched.`,
        "Read and write files by their exact paths (read_file, write_file, edit_file; grep_search still searches one named file). To list and search folders, the host passes list to createHandlerFileSystem.",
      )
    : new FileSystemError(
        "UNSUPPORTED",
        `Cannot ${what}: this workspace is the host's own storage, opened without a remove function, so nothing in it can be deleted or moved.`,
        "Leave the file where it is (write_file can replace its content), or ask the user. To delete and move, the host passes remove to createHandlerFileSystem.",
      );
}

export { notFound, shownOf } from "./path-failures.js";
