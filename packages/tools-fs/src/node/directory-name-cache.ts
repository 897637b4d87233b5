import type { DirectoryEntry } from "../file-system.js";
import { directoryStamp, SETTLE_MS } from "./directory-stamp.js";

/** One remembered entry: its name and type (shared between the listings handed out: never changed). */
export type NamedEntry = Readonly<Pick<DirectoryEntry, "name" | "type">>;

/** Directories remembered at most (the oldest forgotten first). */
const MAX_DIRECTORIES = 64;

/** Entries remembered in all at most, over every directory. */
const MAX_ENTRIES = 200_000;

/** Characters of names remembered in all at most, over every directory. */
const MAX_CHARACTERS = 8 * 1024 * 1024;

/** A remembered listing is read again after this long (ms) whatever its stamp. */
const MAX_AGE_MS = 60_000;

/**
 * The names and types of directories read before, per seam, each kept with its directory's stamp
 * (device, inode, modification and change time in ns, read on the open descriptor). Adding,
 * removing or renaming an entry — a file replaced by a link included — changes the directory's
 * modification time, so an unchanged stamp means the same names and types; a directory changed
 * within {@link SETTLE_MS} or on an untrusted file system ({@link directoryStamp}), and one
 * remembered over {@link MAX_AGE_MS} ago are read again. Sizes are never remembered (a file grows
 * without its directory changing).
 *
 * @internal
 */
export class DirectoryNameCache {
  readonly #listings = new Map<
    string,
    { stamp: string; entries: readonly NamedEntry[]; characters: number; storedAt: number }
  >();
  #entries = 0;
  #characters = 0;

  /** @param settleMs - how long a directory must be unchanged to be remembered (tests shorten it) */
  constructor(private readonly settleMs = SETTLE_MS) {}

  /**
   * The stamp of an opened directory ({@link directoryStamp}), or `undefined` when it cannot be
   * trusted.
   *
   * @param descriptorPath - `/proc/self/fd/N` of the opened directory
   * @returns the stamp, or undefined
   */
  stampOf(descriptorPath: string): string | undefined {
    return directoryStamp(descriptorPath, this.settleMs);
  }

  /**
   * The remembered entries of a directory whose stamp is unchanged (a new array of the shared
   * entries), or `undefined`.
   *
   * @param path - the directory's workspace path
   * @param stamp - its stamp now
   * @returns the entries, or undefined
   */
  get(path: string, stamp: string): Array<Pick<DirectoryEntry, "name" | "type">> | undefined {
    const known = this.#listings.get(path);
    if (known === undefined) return undefined;
    if (known.stamp !== stamp || Date.now() - known.storedAt > MAX_AGE_MS) {
      this.#forget(path);
      return undefined;
    }
    // Most recently used last: the first key is the one to forget.
    this.#listings.delete(path);
    this.#listings.set(path, known);
    return known.entries.slice();
  }

  /**
   * Remembers a directory's entries under its stamp (the caller hands them over); a listing
   * larger than the whole budget is not kept.
   *
   * @param path - the directory's workspace path
   * @param stamp - its stamp when read
   * @param entries - its entries
   * @returns the entries to hand out (the remembered ones, in a new array)
   */
  set(
    path: string,
    stamp: string,
    entries: Array<Pick<DirectoryEntry, "name" | "type">>,
  ): Array<Pick<DirectoryEntry, "name" | "type">> {
    this.#forget(path);
    let characters = 0;
    for (const entry of entries) characters += entry.name.length;
    if (entries.length > MAX_ENTRIES || characters > MAX_CHARACTERS) return entries;
    while (
      this.#listings.size > 0 &&
      (this.#listings.size >= MAX_DIRECTORIES ||
        this.#entries + entries.length > MAX_ENTRIES ||
        this.#characters + characters > MAX_CHARACTERS)
    ) {
      const oldest = this.#listings.keys().next().value as string;
      this.#forget(oldest);
    }
    this.#listings.set(path, { stamp, entries, characters, storedAt: Date.now() });
    this.#entries += entries.length;
    this.#characters += characters;
    return entries.slice();
  }

  #forget(path: string): void {
    const known = this.#listings.get(path);
    if (known === undefined) return;
    this.#listings.delete(path);
    this.#entries -= known.entries.length;
    this.#characters -= known.characters;
  }
}
