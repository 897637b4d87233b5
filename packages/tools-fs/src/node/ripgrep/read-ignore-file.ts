import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { O_NOFOLLOW, O_NONBLOCK } from "../safe-open.js";

/** The largest ignore file read (rg reads a bigger one whole; here it is skipped). */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** What reading one ignore file safely found. */
export type IgnoreFileRead =
  | { readonly kind: "absent" }
  | { readonly kind: "read"; readonly text: string }
  | { readonly kind: "unsafe"; readonly reason: string };

const ABSENT: IgnoreFileRead = { kind: "absent" };

const TOO_BIG: IgnoreFileRead = {
  kind: "unsafe",
  reason: `over ${MAX_IGNORE_FILE_BYTES / (1024 * 1024)} MiB`,
};

/** What a non-regular object is, for the reason an ignore file is skipped. */
function describeObject(info: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}): string {
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  if (info.isDirectory()) return "a directory";
  return "a device";
}

/**
 * Reads one ignore file the way rg should: opened `O_NOFOLLOW | O_NONBLOCK` (a symbolic link, a
 * FIFO or a device is never followed, waited on or read), checked on the descriptor to be a
 * regular file of at most {@link MAX_IGNORE_FILE_BYTES}, and read to its size plus one byte at
 * most. Synchronous: nothing here can block (a regular file of at most 1 MiB, no FIFO is read).
 *
 * @param path - the absolute path of the ignore file
 * @returns `absent` (missing or unreadable, as rg skips it), `read` with its text, or `unsafe`
 *   with the reason (a link, not a regular file, too big)
 */
export function readIgnoreFileSafely(path: string): IgnoreFileRead {
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EMLINK") return { kind: "unsafe", reason: "a symbolic link" };
    if (code === "ENXIO") return { kind: "unsafe", reason: "a socket or device" };
    return ABSENT;
  }
  try {
    const info = fstatSync(descriptor);
    if (!info.isFile()) return { kind: "unsafe", reason: describeObject(info) };
    if (info.size > MAX_IGNORE_FILE_BYTES) return TOO_BIG;
    // One byte more than its size: a file that grows while it is read (or lies) is not trusted.
    const buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const bytesRead = readSync(descriptor, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > info.size) return { kind: "unsafe", reason: "growing while it is read" };
    return { kind: "read", text: buffer.subarray(0, length).toString("utf8") };
  } catch {
    return ABSENT;
  } finally {
    closeSync(descriptor);
  }
}
