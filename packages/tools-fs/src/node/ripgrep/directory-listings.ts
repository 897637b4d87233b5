import { type Dirent, readdirSync } from "node:fs";
import { directoryStamp } from "../directory-stamp.js";

/** What the ignore-file check needs of a directory: which ignore files sit in it, its subdirectories. */
export interface DirectoryListing {
  /** Names present in the directory among those the check looks for (`.git` when a directory). */
  readonly present: ReadonlySet<string>;
  /** Its subdirectories that are not hidden, in the order read. */
  readonly subdirectories: readonly string[];
}

/** Directories whose listing is remembered (the cache is emptied when it grows past this). */
const MAX_REMEMBERED = 20_000;

const remembered = new Map<string, { stamp: string; listing: DirectoryListing }>();

/**
 * The listing of a directory for the ignore-file check, read again only when the directory
 * changed: adding, removing or renaming an entry (a file turned into a link included) changes
 * its modification time, so an unchanged stamp ({@link directoryStamp}: settled, on a file system
 * that keeps directory times) means the same names. The ignore files themselves are still opened and checked on every search.
 *
 * @param absolute - the directory on disk
 * @param wanted - the names to report as present
 * @returns the listing, or undefined when the directory cannot be read
 * @internal
 */
export function listDirectory(
  absolute: string,
  wanted: ReadonlySet<string>,
): DirectoryListing | undefined {
  // A stamp only for a settled directory on a file system that keeps its times (directoryStamp).
  let stamp: string | undefined;
  try {
    stamp = directoryStamp(absolute);
  } catch {
    return undefined;
  }
  const known = stamp === undefined ? undefined : remembered.get(absolute);
  if (known !== undefined && known.stamp === stamp) return known.listing;
  let entries: Dirent[];
  try {
    entries = readdirSync(absolute, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const present = new Set<string>();
  const subdirectories: string[] = [];
  for (const entry of entries) {
    if (wanted.has(entry.name) && (entry.name !== ".git" || entry.isDirectory()))
      present.add(entry.name);
    if (entry.isDirectory() && !entry.name.startsWith(".")) subdirectories.push(entry.name);
  }
  const listing: DirectoryListing = { present, subdirectories };
  if (stamp !== undefined) {
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(absolute, { stamp, listing });
  } else remembered.delete(absolute);
  return listing;
}
