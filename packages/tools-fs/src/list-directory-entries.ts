import { type DirectoryEntry, type FileSystem, FileSystemError } from "./file-system.js";
import type { ListedEntry } from "./list-directory.js";
import type { Workspace } from "./workspace.js";

/** How many shown files are stat'ed at once when the seam listed names only. */
const STAT_BATCH = 64;

/** Folders whose visible entries a listing remembers at most. */
const MAX_REMEMBERED_FOLDERS = 16;

/** Entries remembered in all at most, over every folder. */
const MAX_REMEMBERED_ENTRIES = 100_000;

/** An entry as a folder's listing read it. */
export type ReadEntry = Pick<DirectoryEntry, "name" | "type"> & { size?: number };

/** An entry of a folder being listed, with its sort key (its name in lower case). */
export interface SortableEntry {
  entry: ReadEntry;
  directory: boolean;
  lower: string;
}

/** A folder's entries as a listing shows them: secrets left out, hidden ones unless asked, sorted. */
export interface VisibleEntries {
  /** Directories first, then by name case-insensitively, then exactly. */
  readonly entries: readonly SortableEntry[];
  /** Hidden entries left out. */
  readonly skippedHidden: number;
}

/** Directories first, then by name case-insensitively, then exactly (code-unit order). */
function compareEntries(left: SortableEntry, right: SortableEntry): number {
  if (left.directory !== right.directory) return left.directory ? -1 : 1;
  if (left.lower !== right.lower) return left.lower < right.lower ? -1 : 1;
  const leftName = left.entry.name;
  const rightName = right.entry.name;
  return leftName < rightName ? -1 : leftName > rightName ? 1 : 0;
}

/** A workspace path's child. */
export function joinPath(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

/** Whether two reads of a folder hold the very same entry objects (a seam's remembered names). */
function sameEntries(left: readonly ReadEntry[], right: readonly ReadEntry[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) {
    if (left[index] !== right[index]) return false;
  }
  return true;
}

/**
 * The visible, sorted entries of the folders a listing tool read, remembered per folder while the
 * seam hands back the same entry objects (the node seam does while a folder is unchanged: see its
 * name cache), so a listing of an unchanged folder skips the secret checks and the sort. Bounded
 * by {@link MAX_REMEMBERED_FOLDERS} folders and {@link MAX_REMEMBERED_ENTRIES} entries.
 */
export class VisibleEntriesMemo {
  readonly #kept = new Map<string, { read: readonly ReadEntry[]; visible: VisibleEntries }>();
  #entries = 0;

  constructor(private readonly workspace: Workspace) {}

  /**
   * A folder's visible entries: secrets left out (checked on its listed and its real path), hidden
   * entries unless `includeHidden`, sorted.
   *
   * @param read - the folder's entries as read
   * @param path - its workspace path as listed
   * @param real - its real workspace path
   * @param includeHidden - whether hidden entries are shown
   * @returns the visible entries (shared: not to be changed)
   */
  visible(
    read: readonly ReadEntry[],
    path: string,
    real: string,
    includeHidden: boolean,
  ): VisibleEntries {
    const key = `${includeHidden ? "+" : "-"}${path}\0${real}`;
    const kept = this.#kept.get(key);
    if (kept !== undefined && sameEntries(kept.read, read)) {
      // Most recently used last: the first key is the one to forget.
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept.visible;
    }
    const visible = this.#sort(read, path, real, includeHidden);
    this.#keep(key, read, visible);
    return visible;
  }

  #sort(
    read: readonly ReadEntry[],
    path: string,
    real: string,
    includeHidden: boolean,
  ): VisibleEntries {
    const { workspace } = this;
    // The folder and those above it are not secret (resolved, or a listed entry): each entry
    // alone is checked.
    const entries: SortableEntry[] = [];
    let skippedHidden = 0;
    for (const entry of read) {
      if (workspace.isSecretEntry(joinPath(path, entry.name))) continue;
      if (real !== path && workspace.isSecretEntry(joinPath(real, entry.name))) continue;
      if (!includeHidden && entry.name.startsWith(".")) {
        skippedHidden += 1;
        continue;
      }
      entries.push({
        entry,
        directory: entry.type === "directory",
        lower: entry.name.toLowerCase(),
      });
    }
    entries.sort(compareEntries);
    return { entries, skippedHidden };
  }

  #keep(key: string, read: readonly ReadEntry[], visible: VisibleEntries): void {
    const previous = this.#kept.get(key);
    if (previous !== undefined) {
      this.#kept.delete(key);
      this.#entries -= previous.read.length;
    }
    if (read.length > MAX_REMEMBERED_ENTRIES) return;
    while (
      this.#kept.size >= MAX_REMEMBERED_FOLDERS ||
      (this.#entries + read.length > MAX_REMEMBERED_ENTRIES && this.#kept.size > 0)
    ) {
      const oldestKey = this.#kept.keys().next().value as string;
      const oldest = this.#kept.get(oldestKey);
      this.#kept.delete(oldestKey);
      this.#entries -= oldest?.read.length ?? 0;
    }
    this.#kept.set(key, { read, visible });
    this.#entries += read.length;
  }
}

/** Where a symlink on the page points (nothing for a secret target). */
export async function describeSymlink(
  workspace: Workspace,
  real: string,
): Promise<Pick<ListedEntry, "target" | "target_type">> {
  let target: string;
  try {
    target = await workspace.fileSystem.realPath(real);
  } catch (error) {
    if (FileSystemError.isInstance(error)) return { target_type: "outside" };
    throw error;
  }
  if (workspace.isSecret(target)) return {};
  const targetStat = await workspace.fileSystem.stat(target).catch(() => undefined);
  return { target: workspace.display(target), target_type: targetStat?.type ?? "missing" };
}

/**
 * Sizes the shown files of a listing made from names only: one open of each folder when the seam
 * can (`readEntrySizes`), else a confined stat of each file, a batch at a time.
 */
export async function sizeShownFiles(
  fileSystem: FileSystem,
  unsized: Array<[ListedEntry, string]>,
  signal: AbortSignal,
): Promise<void> {
  if (fileSystem.readEntrySizes !== undefined && unsized.length > 0) {
    const byFolder = new Map<string, Array<[ListedEntry, string]>>();
    for (const item of unsized) {
      const real = item[1];
      const folder = real.slice(0, Math.max(0, real.lastIndexOf("/")));
      let list = byFolder.get(folder);
      if (list === undefined) {
        list = [];
        byFolder.set(folder, list);
      }
      list.push(item);
    }
    for (const [folder, items] of byFolder) {
      signal.throwIfAborted();
      const sizes = await fileSystem.readEntrySizes(
        folder,
        items.map(([listed]) => listed.name),
      );
      items.forEach(([listed], index) => {
        listed.size = sizes[index] ?? 0;
      });
    }
    unsized.length = 0;
  }
  for (let index = 0; index < unsized.length; index += STAT_BATCH) {
    signal.throwIfAborted();
    await Promise.all(
      unsized.slice(index, index + STAT_BATCH).map(async ([listed, real]) => {
        const stat = await fileSystem.stat(real).catch(() => undefined);
        listed.size = stat?.type === "file" ? stat.size : 0;
      }),
    );
  }
}
