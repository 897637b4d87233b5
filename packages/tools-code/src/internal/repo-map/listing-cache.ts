import { lstatSync } from "node:fs";
import { join } from "node:path";

/**
 * The last file listing of a scope, reused while nothing that decides it changed: a file is added,
 * removed or renamed only by changing its directory's mtime, and the ignore rules only by changing
 * an ignore file — so the listing stands while every directory holding a listed file (and each of
 * their ancestors up to the scope) keeps its mtime and every ignore file there (`.gitignore`,
 * `.ignore`, `.rgignore`, and `.git/info/exclude` at the root) keeps its stamp. A check is a few
 * thousand `lstat`s (milliseconds) where a listing costs a walk. A file added to a directory that
 * held no listed file (an empty or wholly ignored one) is seen at the latest when the listing
 * expires ({@link LISTING_MAX_AGE_MS}).
 *
 * @internal
 */

/** Most milliseconds a listing is reused, even when nothing seems changed. */
export const LISTING_MAX_AGE_MS = 60_000;

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

function stampOf(path: string): { stamp: string; mtimeMs: number } {
  try {
    const info = lstatSync(path, { throwIfNoEntry: false });
    return info === undefined
      ? { stamp: "-", mtimeMs: 0 }
      : { stamp: `${info.ino}:${info.size}:${info.mtimeMs}`, mtimeMs: info.mtimeMs };
  } catch {
    return { stamp: "?", mtimeMs: 0 };
  }
}

/** A stamp this close to the listing's start may hide a change made while it ran. */
const SETTLE_MS = 2_000;

interface Listing {
  key: string;
  paths: string[];
  stamps: Array<[string, string]>;
  takenAt: number;
}

/** See the module comment. */
export class ListingCache {
  #last: Listing | undefined;

  /**
   * The cached listing of a scope, when it still stands.
   *
   * @param root - the workspace root on disk
   * @param key - the scope (path and type)
   * @returns the listed workspace paths in the lister's order, or `undefined`
   */
  get(root: string, key: string): string[] | undefined {
    const last = this.#last;
    if (last === undefined || last.key !== key) return undefined;
    if (Date.now() - last.takenAt > LISTING_MAX_AGE_MS) return undefined;
    for (const [path, stamp] of last.stamps) {
      if (stampOf(join(root, path)).stamp !== stamp) return undefined;
    }
    return last.paths;
  }

  /**
   * Remembers a fresh listing with the stamps that vouch for it — unless one of them changed
   * around the time the listing ran (it may then miss a change: the next call lists again).
   *
   * @param root - the workspace root on disk
   * @param key - the scope
   * @param scope - the scope's workspace path (`""` for the root)
   * @param paths - the listed workspace paths
   * @param takenAt - when the listing started (`Date.now()`)
   */
  set(root: string, key: string, scope: string, paths: string[], takenAt: number): void {
    const directories = new Set<string>([scope, ""]);
    for (const path of paths) {
      for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
        const directory = path.slice(0, slash);
        if (directories.has(directory)) break;
        directories.add(directory);
      }
    }
    const watched = [".git/info/exclude"];
    for (const directory of directories) {
      watched.push(directory);
      for (const name of IGNORE_FILES)
        watched.push(directory.length === 0 ? name : `${directory}/${name}`);
    }
    const stamps: Array<[string, string]> = [];
    for (const path of watched) {
      const { stamp, mtimeMs } = stampOf(join(root, path));
      if (mtimeMs >= takenAt - SETTLE_MS) {
        this.#last = undefined;
        return;
      }
      stamps.push([path, stamp]);
    }
    this.#last = { key, paths, stamps, takenAt };
  }
}
