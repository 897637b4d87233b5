import { type FSWatcher, watch } from "node:fs";
import { lstat } from "node:fs/promises";
import { sep } from "node:path";
import {
  hasCorpusExtension,
  isSecretCorpusPath,
  type WalkedFile,
  walkCorpus,
} from "../internal/corpus-walk.js";
import { compareText } from "./compare-text.js";
import { MAX_EVENT_PATHS } from "./corpus-defaults.js";
import type { CorpusSettings } from "./corpus-settings.js";
import type { CorpusState } from "./corpus-state.js";

/** What changed in the folder since the last refresh, as far as a refresh must look. */
export interface DetectedChanges {
  /** The files to compare with the index (size and time): every file after a walk, else the named ones. */
  files: WalkedFile[];
  /** Every path that exists now (indexed, skipped or new). */
  seen: Set<string>;
  /** Whether the folder was walked. */
  walked: boolean;
  /** Entries checked one by one because a watcher named them (0 after a walk). */
  eventPaths: number;
}

/** The settings a {@link ChangeDetector} reads. */
type DetectorSettings = Pick<
  CorpusSettings,
  "watchFolders" | "maxWatchedFolders" | "rescanIntervalMs" | "extensions" | "skipFolders"
>;

/**
 * Tells a refresh what changed in the corpus folder: a full walk (size + mtime of every file), or
 * — while folder watchers cover every folder and none reported anything it cannot place — only
 * the entries they named, or nothing at all. Any event it cannot place, a watcher error, a link
 * or `rescanIntervalMs` without a walk means a walk.
 */
export class ChangeDetector {
  readonly #settings: DetectorSettings;
  /** Folder watchers by real path. */
  readonly #watchers = new Map<string, FSWatcher>();
  /** Secret-path verdicts per relative path, across walks. */
  readonly #secretCache = new Map<string, boolean>();
  /** Whether the watchers cover every walked folder. */
  #watching = false;
  /** Whether a watcher reported an event since the last walk started. */
  #changedSinceWalk = true;
  #lastWalkAt = Number.NEGATIVE_INFINITY;
  /**
   * The entries each watched folder reported since the last refresh; `undefined` when one event
   * could not be placed (no name, too many): the next refresh walks the whole folder.
   */
  #eventNames: Map<string, Set<string>> | undefined = new Map();
  #eventCount = 0;
  /** Real folder path → its path relative to the root (as the walk named its files). */
  #folderPaths = new Map<string, string>();
  /** Whether the last walk met a linked file (its target's changes cannot be placed: walk). */
  #linkedFiles = false;

  /**
   * @param settings - watching, its limits, what a corpus file is
   */
  constructor(settings: DetectorSettings) {
    this.#settings = settings;
  }

  /** Whether the folder watchers cover every folder of the last walk. */
  get watching(): boolean {
    return this.#watching;
  }

  /** Forgets what the watchers said: the next refresh walks the whole folder. */
  invalidate(): void {
    this.#changedSinceWalk = true;
    this.#eventNames = undefined;
  }

  /** Lets the event loop deliver any watcher event already queued (a write before this search). */
  async settle(): Promise<void> {
    if (!this.#watching) return;
    await new Promise<void>((resolvePromise) => setImmediate(resolvePromise));
    await new Promise<void>((resolvePromise) => setImmediate(resolvePromise));
  }

  /**
   * Whether nothing changed for sure: watched, no event since the last walk, which is recent.
   *
   * @param dirty - whether the index must be rebuilt anyway
   */
  quiet(dirty: boolean): boolean {
    return (
      this.#watching &&
      !this.#changedSinceWalk &&
      !dirty &&
      performance.now() - this.#lastWalkAt < this.#settings.rescanIntervalMs
    );
  }

  /**
   * What changed: the entries the watchers named when every one of them can be placed, else a
   * walk of the whole folder (which also sets the watchers up for the next time).
   *
   * @param current - the index
   * @param corpusRoot - the corpus root, real path
   * @param dirty - whether the index must be rebuilt anyway (then the folder is walked)
   * @param signal - stops the walk
   * @returns the files to compare and the paths that exist
   */
  async detect(
    current: CorpusState,
    corpusRoot: string,
    dirty: boolean,
    signal: AbortSignal,
  ): Promise<DetectedChanges> {
    const events = this.#eventNames;
    const placeable =
      this.#watching &&
      !this.#linkedFiles &&
      events !== undefined &&
      !dirty &&
      performance.now() - this.#lastWalkAt < this.#settings.rescanIntervalMs;
    this.#changedSinceWalk = false;
    this.#eventNames = new Map();
    this.#eventCount = 0;
    const fromEvents = placeable ? await this.#changesFromEvents(current, events) : undefined;
    if (fromEvents === undefined) return await this.#walk(corpusRoot, signal);
    const seen = new Set(current.files.keys());
    for (const path of current.skipped.keys()) seen.add(path);
    for (const path of fromEvents.removed) seen.delete(path);
    for (const file of fromEvents.files) seen.add(file.path);
    return { files: fromEvents.files, seen, walked: false, eventPaths: fromEvents.checked };
  }

  /** Closes every watcher and forgets what they said. */
  close(): void {
    this.#closeWatchers();
    this.invalidate();
    this.#folderPaths = new Map();
  }

  async #walk(corpusRoot: string, signal: AbortSignal): Promise<DetectedChanges> {
    this.#lastWalkAt = performance.now();
    const walkedFolders = new Map<string, string | undefined>();
    // A linked file's target folder may be walked too (under its own path): an event there names
    // the target, never the link, so any linked file means a walk on every event.
    let linkedFile = false;
    let files: WalkedFile[];
    try {
      files = await walkCorpus({
        root: corpusRoot,
        extensions: this.#settings.extensions,
        skipFolders: this.#settings.skipFolders,
        signal,
        secretCache: this.#secretCache,
        onFolder: (path, relative) => {
          if (relative === undefined) linkedFile = true;
          if (relative !== undefined || !walkedFolders.has(path)) walkedFolders.set(path, relative);
        },
      });
    } catch (error) {
      this.invalidate();
      throw error;
    }
    this.#syncWatchers(new Set(walkedFolders.keys()));
    this.#folderPaths = new Map();
    this.#linkedFiles = linkedFile;
    for (const [path, relative] of walkedFolders) {
      if (relative !== undefined) this.#folderPaths.set(path, relative);
    }
    return { files, seen: new Set(files.map((file) => file.path)), walked: true, eventPaths: 0 };
  }

  #closeWatchers(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#watching = false;
  }

  #onWatchEvent(folder: string, name: string | Buffer | null): void {
    // Hidden entries (the sidecar folder among them) are never indexed: their events change nothing.
    if (typeof name === "string" && name.startsWith(".")) return;
    this.#changedSinceWalk = true;
    if (this.#eventNames === undefined) return;
    if (typeof name !== "string" || name.length === 0 || this.#eventCount >= MAX_EVENT_PATHS) {
      this.#eventNames = undefined;
      return;
    }
    let names = this.#eventNames.get(folder);
    if (names === undefined) {
      names = new Set();
      this.#eventNames.set(folder, names);
    }
    if (!names.has(name)) {
      names.add(name);
      this.#eventCount += 1;
    }
  }

  /** Watches exactly `folders` (the last walk's); gives up (walk every time) past the cap or on any failure. */
  #syncWatchers(folders: ReadonlySet<string>): void {
    if (!this.#settings.watchFolders || folders.size > this.#settings.maxWatchedFolders) {
      this.#closeWatchers();
      return;
    }
    for (const [path, watcher] of this.#watchers) {
      if (folders.has(path)) continue;
      watcher.close();
      this.#watchers.delete(path);
    }
    for (const path of folders) {
      if (this.#watchers.has(path)) continue;
      try {
        const watcher = watch(path, { persistent: false }, (_event, name) =>
          this.#onWatchEvent(path, name),
        );
        watcher.on("error", () => {
          this.invalidate();
          this.#closeWatchers();
        });
        this.#watchers.set(path, watcher);
      } catch {
        this.#closeWatchers();
        this.#changedSinceWalk = true;
        return;
      }
    }
    this.#watching = true;
  }

  /**
   * The files behind the entries the watchers named: each entry is `lstat`ed (nothing else is);
   * a file with a corpus extension is a candidate (compared by size and time as in a walk), a
   * missing entry is removed (with every indexed file under it). `undefined` when an entry cannot
   * be placed without a walk: a new or vanished folder, a link, a folder the last walk did not
   * name.
   */
  async #changesFromEvents(
    current: CorpusState,
    events: ReadonlyMap<string, ReadonlySet<string>>,
  ): Promise<{ files: WalkedFile[]; removed: Set<string>; checked: number } | undefined> {
    const files: WalkedFile[] = [];
    const removed = new Set<string>();
    const knownFolders = new Set(this.#folderPaths.values());
    let checked = 0;
    for (const [folder, names] of events) {
      const relativeFolder = this.#folderPaths.get(folder);
      if (relativeFolder === undefined) return undefined;
      // The watched folder itself gone or replaced (its own events carry its own name): walk.
      const self = await lstat(folder).catch(() => undefined);
      if (self === undefined || !self.isDirectory()) return undefined;
      const ownName = folder.slice(folder.lastIndexOf(sep) + 1);
      for (const name of names) {
        if (name.includes("/") || name.includes("\\")) return undefined;
        const path = relativeFolder.length === 0 ? name : `${relativeFolder}/${name}`;
        const absolute = folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`;
        checked += 1;
        const info = await lstat(absolute).catch(() => undefined);
        if (info === undefined) {
          if (knownFolders.has(path) || name === ownName) return undefined; // a folder went away
          removed.add(path);
          continue;
        }
        if (info.isSymbolicLink()) return undefined;
        if (info.isDirectory()) {
          if (this.#settings.skipFolders.has(name) || knownFolders.has(path)) continue;
          return undefined; // a new folder: walk it
        }
        if (!info.isFile() || !hasCorpusExtension(name, this.#settings.extensions)) continue;
        if (isSecretCorpusPath(path, this.#secretCache)) continue;
        files.push({ path, absolute, size: info.size, mtime_ms: info.mtimeMs });
      }
    }
    // A removed name that was a folder the index knows files under (e.g. renamed away).
    for (const path of [...removed]) {
      const prefix = `${path}/`;
      for (const key of current.files.keys()) if (key.startsWith(prefix)) return undefined;
    }
    files.sort((left, right) => compareText(left.path, right.path));
    return { files, removed, checked };
  }
}
