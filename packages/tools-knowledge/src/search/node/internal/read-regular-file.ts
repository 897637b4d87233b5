import { constants, type Stats } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

/** Read-only, never through a final symlink, never blocking on a FIFO or device. */
const NO_FOLLOW_READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What {@link readRegularFile} found. */
export type RegularFileRead =
  | { kind: "read"; bytes: Buffer; info: Stats }
  /** Nothing at the path. */
  | { kind: "missing" }
  /** A symlink, folder, FIFO, device or socket: not opened or not read. */
  | { kind: "not_regular" }
  /** A regular file larger than the cap: not read. */
  | { kind: "too_large"; size: number };

/**
 * Reads a regular file without following a final symlink or blocking: opened `O_NOFOLLOW |
 * O_NONBLOCK`, `fstat`ed, refused unless a regular file of at most `maxBytes`, then read for
 * exactly the size `fstat` gave (a file that grows meanwhile is not read past it; one that
 * shrinks gives fewer bytes). A link, `/dev/zero` or a FIFO in the file's place is never read.
 *
 * @param path - the file
 * @param maxBytes - the largest size read
 * @returns the bytes with the `fstat` they were read under, or why not
 * @throws the file system's error for anything but a missing file or a final symlink
 * @internal
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularFileRead> {
  let handle: FileHandle;
  try {
    handle = await open(path, NO_FOLLOW_READ_FLAGS);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    if (code === "ELOOP" || code === "EMLINK") return { kind: "not_regular" };
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: "not_regular" };
    if (info.size > maxBytes) return { kind: "too_large", size: info.size };
    const bytes = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return {
      kind: "read",
      bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled),
      info,
    };
  } finally {
    await handle.close();
  }
}
