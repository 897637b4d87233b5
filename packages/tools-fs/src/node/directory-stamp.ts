import { statfsSync, statSync } from "node:fs";

/**
 * The file systems whose directories change their modification time on every added, removed or
 * renamed entry, stamped by this machine's clock (`statfs` magic numbers): ext2/3/4, XFS, Btrfs,
 * tmpfs, F2FS, ZFS and overlayfs (containers). Elsewhere — procfs and sysfs (no timestamps kept),
 * FUSE and network file systems (another clock, or none) — a directory is read every time.
 */
const TRUSTED_FILE_SYSTEMS: ReadonlySet<number> = new Set([
  0xef53, 0x58465342, 0x9123683e, 0x01021994, 0xf2f52010, 0x2fc12fc1, 0x794c7630,
]);

/**
 * A directory changed this recently (ms) is never remembered: its timestamp has the kernel's
 * coarse clock granularity, so a change made in the same tick as the read would leave the stamp
 * as it was (git's "racy" rule, as the ignore-file check's listings use it).
 */
export const SETTLE_MS = 2_000;

/**
 * A directory's stamp — device, inode, modification and change time in ns — when it can stand
 * for the directory's names and types: its file system keeps directory times by this machine's
 * clock ({@link TRUSTED_FILE_SYSTEMS}) and it has not changed for `settleMs`. Adding, removing or
 * renaming an entry (a file replaced by a link included) changes the modification time, so an
 * unchanged stamp means the same names and types. Undefined otherwise: read the directory again.
 *
 * @param path - the directory (a path, or `/proc/self/fd/N` of an opened one)
 * @param settleMs - how long it must be unchanged (default {@link SETTLE_MS})
 * @returns the stamp, or undefined
 * @internal
 */
export function directoryStamp(path: string, settleMs = SETTLE_MS): string | undefined {
  if (!TRUSTED_FILE_SYSTEMS.has(statfsSync(path).type)) return undefined;
  const info = statSync(path, { bigint: true });
  const changedMs = Math.max(Number(info.mtimeNs / 1_000_000n), Number(info.ctimeNs / 1_000_000n));
  if (Date.now() - changedMs <= settleMs) return undefined;
  return `${info.dev}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}`;
}
