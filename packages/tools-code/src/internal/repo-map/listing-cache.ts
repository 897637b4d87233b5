import { type Dirent, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The last file listing of a scope, reused while nothing that decides it changed. A file is
 * added, removed or renamed only by changing its directory's mtime, and the ignore rules only by
 * changing an ignore file; so the listing stands while every directory rg may have walked keeps
 * its stamp, and so does every ignore file it may have read (`.gitignore`, `.ignore`, `.rgignore`
 * in those directories and the scope's ancestors, `.git/info/exclude` at the root).
 *
 * "Every directory rg may have walked" is a superset, found by a walk of the scope when the
 * listing is remembered: every directory that is not hidden and not a link — those holding no
 * listed file included (empty, or holding only ignored, hidden or secret files: a file added
 * there changes only their stamp) — except the directories an ignore file on their way down
 * names plainly (`node_modules/`, `/dist`, `build/out`: no wildcard), which rg never enters,
 * unless a `!…` line may re-include them (one naming them, or any with a wildcard). A check is one
 * `lstat` per directory (milliseconds for thousands) where a listing costs rg's walk. A scope
 * with more than {@link MAX_WATCHED_DIRECTORIES} such directories is not remembered (listed on
 * every call).
 *
 * @internal
 */

/** Most directories watched for one listing; past it the listing is not remembered. */
export const MAX_WATCHED_DIRECTORIES = 50_000;

const IGNORE_FILES = new Set([".gitignore", ".ignore", ".rgignore"]);

/** A stamp this close to the listing's start may hide a change made while it ran. */
const SETTLE_MS = 2_000;

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

/** What ignore files' plain lines (no wildcard) say about directories. */
interface PlainRules {
  /** Directory names ignored at any depth below the ignore file's directory. */
  names: Set<string>;
  /** Workspace paths ignored (anchored lines). */
  paths: Set<string>;
  /** Names and paths a plain `!…` line re-includes: never left out. */
  keptNames: Set<string>;
  keptPaths: Set<string>;
  /** A `!…` line with a wildcard (or an unreadable ignore file): nothing below may be left out. */
  negates: boolean;
}

/** Adds a plain line's name (any depth) or anchored path to a pair of sets. */
function addPlain(line: string, directory: string, names: Set<string>, paths: Set<string>): void {
  const body = line.replace(/\/+$/, "");
  if (body.length === 0 || /(^|\/)\.\.?(\/|$)/.test(body)) return;
  if (!body.includes("/")) names.add(body);
  else {
    const relative = body.replace(/^\/+/, "");
    if (relative.length > 0)
      paths.add(directory.length === 0 ? relative : `${directory}/${relative}`);
  }
}

/** Reads the plain rules of an ignore file in `directory` (workspace path). */
function plainRules(root: string, directory: string, name: string, into: PlainRules): void {
  let text: string;
  try {
    const path = join(root, directory, name);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info === undefined) return;
    // A link or a huge file is not read here (rg's own check refuses it): leave nothing out.
    if (!info.isFile() || info.size > 1_048_576) {
      into.negates = true;
      return;
    }
    text = readFileSync(path, "utf8");
  } catch {
    into.negates = true;
    return;
  }
  for (const raw of text.split("\n")) {
    const line = raw
      .replace(/\r$/, "")
      .replace(/^\uFEFF/, "")
      .trimEnd();
    if (line.length === 0 || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    const pattern = negated ? line.slice(1) : line;
    if (/[*?[\]\\]/.test(pattern)) {
      // A wildcard re-inclusion may match any directory; a wildcard exclusion is not used.
      if (negated) into.negates = true;
      continue;
    }
    if (negated) addPlain(pattern, directory, into.keptNames, into.keptPaths);
    else addPlain(pattern, directory, into.names, into.paths);
  }
}

/** The rules in force in a directory: those of its ancestors, then its own. */
interface Frame extends Readonly<PlainRules> {
  directory: string;
}

function withOwnRules(
  root: string,
  parent: Frame | undefined,
  directory: string,
  ignoreFiles: readonly string[],
): Frame {
  if (ignoreFiles.length === 0 && parent !== undefined) return { ...parent, directory };
  const rules: PlainRules = {
    names: new Set(parent?.names),
    paths: new Set(parent?.paths),
    keptNames: new Set(parent?.keptNames),
    keptPaths: new Set(parent?.keptPaths),
    negates: parent?.negates ?? false,
  };
  for (const name of ignoreFiles) plainRules(root, directory, name, rules);
  return { directory, ...rules };
}

/** Whether rg certainly never enters a directory (a plain rule names it; nothing re-includes it). */
function isLeftOut(frame: Frame, name: string, path: string): boolean {
  if (frame.negates || frame.keptNames.has(name) || frame.keptPaths.has(path)) return false;
  return frame.names.has(name) || frame.paths.has(path);
}

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
    for (const [path, stamp] of last.stamps) {
      if (stampOf(join(root, path)).stamp !== stamp) return undefined;
    }
    return last.paths;
  }

  /**
   * Remembers a fresh listing with the stamps that vouch for it — unless one of them changed
   * around the time the listing ran (it may then miss a change: the next call lists again), or
   * the scope has too many directories to watch.
   *
   * @param root - the workspace root on disk
   * @param key - the scope
   * @param scope - the scope's workspace path (`""` for the root)
   * @param pathType - whether the scope is a directory or a file
   * @param paths - the listed workspace paths
   * @param takenAt - when the listing started (`Date.now()`)
   */
  set(
    root: string,
    key: string,
    scope: string,
    pathType: "directory" | "file",
    paths: string[],
    takenAt: number,
  ): void {
    this.#last = undefined;
    const walked = this.#watched(root, scope, pathType);
    if (walked === undefined) return;
    // The directories of the listed files too (the walk finds them all, unless an ignore rule
    // was read differently here than by rg: then they are still watched).
    const watched = new Set(walked);
    for (const path of paths) {
      for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
        const directory = path.slice(0, slash);
        if (watched.has(directory)) break;
        watched.add(directory);
      }
    }
    const stamps: Array<[string, string]> = [];
    for (const path of watched) {
      const { stamp, mtimeMs } = stampOf(join(root, path));
      if (mtimeMs >= takenAt - SETTLE_MS) return;
      stamps.push([path, stamp]);
    }
    this.#last = { key, paths, stamps, takenAt };
  }

  /** The paths whose stamps vouch for a listing of the scope, or `undefined` past the bound. */
  #watched(root: string, scope: string, pathType: "directory" | "file"): string[] | undefined {
    const segments = scope.length === 0 ? [] : scope.split("/");
    const top = pathType === "directory" ? segments.length : segments.length - 1;
    // The root and each directory down to the scope (a file's scope: its directory and the file).
    const watched: string[] = [".git/info/exclude"];
    let frame: Frame | undefined;
    for (let depth = 0; depth <= top; depth += 1) {
      const directory = segments.slice(0, depth).join("/");
      watched.push(directory);
      const present: string[] = [];
      for (const name of IGNORE_FILES) {
        const path = directory.length === 0 ? name : `${directory}/${name}`;
        watched.push(path);
        if (stampOf(join(root, path)).stamp !== "-") present.push(name);
      }
      frame = withOwnRules(root, frame, directory, present);
    }
    if (pathType === "file") {
      watched.push(scope);
      return watched;
    }
    // Below the scope: every directory rg may enter, breadth first.
    const queue: Frame[] = [frame as Frame];
    for (let index = 0; index < queue.length; index += 1) {
      if (queue.length > MAX_WATCHED_DIRECTORIES) return undefined;
      const current = queue[index] as Frame;
      let entries: Dirent[];
      try {
        entries = readdirSync(join(root, current.directory), { withFileTypes: true });
      } catch {
        continue;
      }
      const ignoreFiles: string[] = [];
      const subdirectories: string[] = [];
      for (const entry of entries) {
        if (IGNORE_FILES.has(entry.name)) ignoreFiles.push(entry.name);
        else if (entry.isDirectory() && !entry.name.startsWith("."))
          subdirectories.push(entry.name);
      }
      // The scope's own ignore files are watched above; below it, only those present (creating
      // one changes its directory's stamp).
      const own =
        index === 0 ? current : withOwnRules(root, current, current.directory, ignoreFiles);
      if (index > 0) {
        watched.push(current.directory);
        for (const name of ignoreFiles) watched.push(`${current.directory}/${name}`);
      }
      for (const name of subdirectories) {
        const path = current.directory.length === 0 ? name : `${current.directory}/${name}`;
        if (isLeftOut(own, name, path)) continue;
        queue.push({ ...own, directory: path });
      }
    }
    return watched;
  }
}
