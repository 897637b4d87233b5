import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync } from "node:fs";

/**
 * Reads a small regular file synchronously. Opened non-blocking, so a FIFO or device put in the
 * file's place since the walk can never block the thread; anything but a regular file, and any
 * error, is `undefined` (the file is treated as gone).
 *
 * @param path - the file
 * @returns its bytes, or `undefined`
 */
export function readSmallFile(path: string): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    if (!fstatSync(descriptor).isFile()) return undefined;
    return readFileSync(descriptor);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
