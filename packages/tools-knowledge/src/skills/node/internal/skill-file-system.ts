import { constants, type Stats } from "node:fs";
import { sep } from "node:path";

/**
 * Open flags for every read of a skill's files: read-only, never through a final symlink, never
 * blocking on a pipe.
 *
 * @internal
 */
export const SAFE_READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Bytes sniffed for a NUL to call a file binary. @internal */
export const BINARY_SNIFF_BYTES = 8_000;

/**
 * A file's identity, size and times in one string: a file whose stamp is unchanged is not read
 * again.
 *
 * @internal
 */
export function stampOf(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

/** Whether `path` is `root` or lies below it. @internal */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** Whether the first `limit` bytes hold a NUL (a binary file). @internal */
export function hasNul(bytes: Uint8Array, limit = bytes.length): boolean {
  const end = Math.min(limit, bytes.length);
  for (let index = 0; index < end; index += 1) if (bytes[index] === 0) return true;
  return false;
}

/** Lines of a text (a last line without a newline counts). @internal */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    lines += 1;
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

/** The `code` of a thrown file-system error, if any. @internal */
export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}
