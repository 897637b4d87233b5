import { dirname, join } from "node:path";
import type { SearchScope } from "../../internal/search-types.js";
import { CollectedIgnoreRules, IGNORE_FILES } from "./collected-ignore-rules.js";
import { listDirectory } from "./directory-listings.js";
import { readIgnoreFileSafely } from "./read-ignore-file.js";

/** Directories below the searched one whose ignore files are checked before rg starts. */
export const MAX_CHECKED_DIRECTORIES = 2_000;

/** Once an unsafe ignore file is found: directories whose rules are collected for rg. */
const MAX_COLLECTED_DIRECTORIES = 50_000;

/** Once an unsafe ignore file is found: most characters of ignore text collected for rg. */
const MAX_COLLECTED_CHARACTERS = 16 * 1024 * 1024;

/** Longest stretch of synchronous work before the walk yields to the event loop. */
const SLICE_MS = 8;

/** What the check of a search's ignore files found. */
export interface IgnoreInspection {
  /** Ignore files rg must not read, each with why (a link, not a regular file, too big). */
  readonly unsafe: readonly string[];
  /**
   * When `unsafe` is not empty: the rules of every ignore file read safely, anchored at the root,
   * in rg's order of precedence (the lines of one `--ignore-file`).
   */
  readonly rules: readonly string[];
  /** Whether the walk stopped at {@link MAX_CHECKED_DIRECTORIES} with directories left. */
  readonly cut: boolean;
}

/** The names a directory listing reports: the ignore files, and `.git` (for its exclude file). */
const LOOKED_FOR: ReadonlySet<string> = new Set([
  ".git",
  ...IGNORE_FILES.filter(({ rank }) => rank > 0).map(({ name }) => name),
]);

const NOTHING_UNSAFE: IgnoreInspection = { unsafe: [], rules: [], cut: false };

/** One directory to check: its path on disk, its workspace path, whether it is above the root. */
interface Visit {
  readonly absolute: string;
  readonly base: string;
  readonly outside: boolean;
}

/** The workspace path of a directory's child. */
function childPath(base: string, name: string): string {
  return base.length === 0 ? name : `${base}/${name}`;
}

/** The directories above the root, outermost first (rg reads their ignore files too). */
function directoriesAbove(root: string): Visit[] {
  const visits: Visit[] = [];
  for (let directory = dirname(root); ; directory = dirname(directory)) {
    if (directory === root) break;
    visits.unshift({ absolute: directory, base: "", outside: true });
    if (dirname(directory) === directory) break;
  }
  return visits;
}

/** The root and every directory down to the searched one (the file's directory for a file). */
function directoriesDown(root: string, scope: SearchScope): Visit[] {
  const segments = scope.path.length === 0 ? [] : scope.path.split("/");
  if (scope.pathType === "file") segments.pop();
  const visits: Visit[] = [{ absolute: root, base: "", outside: false }];
  for (let index = 1; index <= segments.length; index += 1) {
    const base = segments.slice(0, index).join("/");
    visits.push({ absolute: join(root, base), base, outside: false });
  }
  return visits;
}

/**
 * Checks the ignore files rg would read for a search before rg reads any: those of every
 * directory above the root, of the root and of each directory down to the searched path, and of
 * the directories below it breadth first (not hidden, not a link, not ignored by the rules read
 * so far), up to {@link MAX_CHECKED_DIRECTORIES}. Each is opened `O_NOFOLLOW | O_NONBLOCK` and
 * checked on its descriptor ({@link readIgnoreFileSafely}). When one is unsafe, rg must read no
 * ignore file at all: the walk then goes on (up to {@link MAX_COLLECTED_DIRECTORIES} directories
 * and {@link MAX_COLLECTED_CHARACTERS} of text) to collect every safe file's rules for rg.
 * Nothing is checked for a search that includes hidden and ignored files (rg then reads none).
 * `thorough` walks as far as a walk that found an unsafe file does from the start (after rg met
 * one past the first bound).
 *
 * @param root - the workspace root on disk (real)
 * @param scope - the search
 * @param signal - stops the walk
 * @param thorough - walk up to {@link MAX_COLLECTED_DIRECTORIES} whatever is found
 * @returns the unsafe files and, if any, the rules to give rg instead
 */
export async function inspectIgnoreFiles(
  root: string,
  scope: SearchScope,
  signal: AbortSignal,
  thorough = false,
): Promise<IgnoreInspection> {
  if (scope.includeHiddenAndIgnored) return NOTHING_UNSAFE;
  const walk = new IgnoreWalk(signal, thorough);
  const chain = [...directoriesAbove(root), ...directoriesDown(root, scope)];
  const searched = scope.pathType === "directory" ? chain.pop() : undefined;
  for (const visit of chain) await walk.visit(visit);
  if (searched !== undefined) await walk.below(searched);
  if (walk.unsafe.length === 0) return walk.cut ? { ...NOTHING_UNSAFE, cut: true } : NOTHING_UNSAFE;
  return { unsafe: walk.unsafe, rules: walk.rules.lines(), cut: false };
}

/** The state of one check: the rules read, the unsafe files found, the directories visited. */
class IgnoreWalk {
  readonly rules = new CollectedIgnoreRules();
  readonly unsafe: string[] = [];
  /** Whether directories were left unchecked at the first bound. */
  cut = false;
  #visited = 0;

  constructor(
    private readonly signal: AbortSignal,
    private readonly thorough: boolean,
  ) {}

  /** Whether the walk below the searched directory is over its bound. */
  #full(): boolean {
    if (this.unsafe.length === 0 && !this.thorough) {
      this.cut = this.#visited >= MAX_CHECKED_DIRECTORIES;
      return this.cut;
    }
    return (
      this.#visited >= MAX_COLLECTED_DIRECTORIES ||
      this.rules.characters >= MAX_COLLECTED_CHARACTERS
    );
  }

  /** Visits a directory and walks below it, breadth first, yielding every {@link SLICE_MS}. */
  async below(start: Visit): Promise<void> {
    const queue = this.#subdirectories(start, await this.visit(start));
    let sliceStart = performance.now();
    for (let index = 0; index < queue.length && !this.#full(); index += 1) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      const visit = queue[index] as Visit;
      this.#visited += 1;
      queue.push(...this.#subdirectories(visit, await this.visit(visit)));
    }
  }

  /** Reads a directory's ignore files; returns its subdirectories' names (none if unreadable). */
  async visit(visit: Visit): Promise<readonly string[]> {
    if (this.signal.aborted) throw this.signal.reason;
    const listing = listDirectory(visit.absolute, LOOKED_FOR);
    if (listing === undefined) return [];
    for (const { name, rank } of IGNORE_FILES) {
      if (!listing.present.has(rank === 0 ? ".git" : name)) continue;
      this.#read(visit, name, rank);
    }
    return listing.subdirectories;
  }

  #read(visit: Visit, name: string, rank: number): void {
    const read = readIgnoreFileSafely(join(visit.absolute, name));
    if (read.kind === "unsafe") {
      const where = visit.outside ? join(visit.absolute, name) : childPath(visit.base, name);
      this.unsafe.push(`${where} (${read.reason})`);
    } else if (read.kind === "read" && this.rules.characters < MAX_COLLECTED_CHARACTERS) {
      this.rules.add(rank, read.text, visit.base, visit.outside);
    }
  }

  #subdirectories(parent: Visit, names: readonly string[]): Visit[] {
    const visits: Visit[] = [];
    for (const name of names) {
      const base = childPath(parent.base, name);
      if (this.rules.isIgnoredDirectory(base)) continue;
      visits.push({ absolute: join(parent.absolute, name), base, outside: false });
    }
    return visits;
  }
}
