import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import {
  copyFile,
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  rename,
  rmdir,
  symlink,
  unlink,
} from "node:fs/promises";
import { join } from "node:path";
import type { ConfinedRoot } from "./confined-root.js";
import { errorCode } from "./errno-mapping.js";
import {
  changedError,
  type DirectoryRef,
  directoryRef,
  hasProcFd,
  isAt,
  notRegularError,
  O_NOFOLLOW,
  openDirectoryHandle,
  openReadHandle,
} from "./safe-open.js";

/**
 * A temporary name beside `name` in the same directory (renamed over it when complete).
 *
 * @internal
 */
export function temporaryName(name: string): string {
  return `.${name}.${randomBytes(6).toString("hex")}.agentool-tmp`;
}

/**
 * Copies an open regular file to `name` in `directory` as a new inode: a temporary file made
 * with `COPYFILE_EXCL`, then renamed over the name (never written into an existing file, so a
 * hard link elsewhere is untouched).
 */
async function copyRegular(
  root: ConfinedRoot,
  source: FileHandle,
  info: Stats,
  directory: DirectoryRef,
  name: string,
  shown: string,
): Promise<void> {
  const temporary = directory.child(temporaryName(name));
  try {
    if (hasProcFd) {
      await copyFile(`/proc/self/fd/${source.fd}`, temporary, constants.COPYFILE_EXCL);
    } else {
      const target = await open(
        temporary,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
        info.mode & 0o7777,
      );
      try {
        const buffer = Buffer.allocUnsafe(1 << 20);
        for (let position = 0; ; ) {
          const { bytesRead } = await source.read(buffer, 0, buffer.length, position);
          if (bytesRead === 0) break;
          await target.write(buffer, 0, bytesRead);
          position += bytesRead;
        }
      } finally {
        await target.close();
      }
    }
    const created = await open(temporary, constants.O_RDONLY | O_NOFOLLOW);
    try {
      await created.chmod(info.mode & 0o7777);
    } finally {
      await created.close();
    }
    // Checked last, right before the rename: the directory may have moved while the copy ran.
    await root.ensureInside(directory, shown);
    await rename(temporary, directory.child(name));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Copies the entry `name` of `source` to `targetName` in `target`: symlinks recreated as links,
 * directories walked through opened handles (`dev:ino` compared before descending), regular
 * files as new inodes; FIFOs, sockets and devices inside a tree skipped (at the top: refused).
 * Every open is without following a symlink, and the opened object's `dev:ino` is compared with
 * the `lstat` taken before it, so an entry swapped between the two is refused, never followed.
 *
 * @internal
 */
export async function copyEntryAt(
  root: ConfinedRoot,
  source: DirectoryRef,
  name: string,
  target: DirectoryRef,
  targetName: string,
  shown: string,
  top: boolean,
): Promise<void> {
  const from = source.child(name);
  const info = await lstat(from);
  if (info.isSymbolicLink()) {
    await unlink(target.child(targetName)).catch(() => undefined);
    await symlink(await readlink(from), target.child(targetName));
    return;
  }
  if (info.isDirectory()) {
    let handle: FileHandle;
    try {
      handle = await openDirectoryHandle(from);
    } catch (error) {
      if (errorCode(error) === "ENOTDIR" || errorCode(error) === "ELOOP") throw changedError(shown);
      throw error;
    }
    const ref = directoryRef(handle, join(source.path, name));
    try {
      const opened = await handle.stat();
      if (opened.dev !== info.dev || opened.ino !== info.ino) throw changedError(shown);
      await mkdir(target.child(targetName)).catch((error: unknown) => {
        if (errorCode(error) !== "EEXIST") throw error;
      });
      const into = directoryRef(
        await openDirectoryHandle(target.child(targetName)),
        join(target.path, targetName),
      );
      try {
        for (const entry of await readdir(ref.path))
          await copyEntryAt(root, ref, entry, into, entry, shown, false);
      } finally {
        await into.close();
      }
    } finally {
      await ref.close();
    }
    return;
  }
  if (!info.isFile()) {
    if (top) throw notRegularError(shown, info);
    return;
  }
  let handle: FileHandle;
  try {
    handle = await openReadHandle(from);
  } catch (error) {
    if (errorCode(error) === "ELOOP") throw changedError(shown);
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.dev !== info.dev || opened.ino !== info.ino)
      throw changedError(shown);
    await copyRegular(root, handle, opened, target, targetName, shown);
  } finally {
    await handle.close();
  }
}

/**
 * Removes the directory `name` of `parent` and everything inside it, walking opened handles:
 * each directory is opened without following a symlink and its `dev:ino` compared with the
 * `lstat` taken before, so a directory swapped for a symlink is never descended into. The order
 * matters: open, compare, then read and unlink through the opened handle; `rmdir` last.
 *
 * @internal
 */
export async function removeTree(
  parent: DirectoryRef,
  name: string,
  before: Stats,
  shown: string,
): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await openDirectoryHandle(parent.child(name));
  } catch (error) {
    if (errorCode(error) === "ENOTDIR" || errorCode(error) === "ELOOP") throw changedError(shown);
    throw error;
  }
  const ref = directoryRef(handle, join(parent.path, name));
  try {
    const opened = await handle.stat();
    if (opened.dev !== before.dev || opened.ino !== before.ino) throw changedError(shown);
    if (!hasProcFd && !(await isAt(handle, ref.path))) throw changedError(shown);
    for (const entry of await readdir(ref.path)) {
      const info = await lstat(ref.child(entry));
      if (info.isDirectory()) await removeTree(ref, entry, info, shown);
      else await unlink(ref.child(entry));
    }
  } finally {
    await ref.close();
  }
  await rmdir(parent.child(name));
}
