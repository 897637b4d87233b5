import { closeSync, constants, fstatSync, opendirSync, openSync, readSync } from "node:fs";
import { createSecretPathMatcher } from "@agentool/contract";
import { comparePaths, type SearchRequest } from "../../internal/search-types.js";
import { hasProcFd, O_DIRECTORY, O_NOFOLLOW, PROC_FD } from "../safe-open.js";
import { literalMatcher } from "./literal-matcher.js";

/**
 * What an in-process probe of a few skipped entries may cover before it hands the probe to rg:
 * files read, their bytes, and directories entered.
 */
export const IN_PROCESS_PROBE_LIMITS = Object.freeze({
  files: 256,
  bytes: 8 * 1_048_576,
  directories: 64,
});

/** Where the probe starts: a directory object it reaches entries below, by name. */
export interface ProbeBase {
  /** `/proc/self/fd/N` of the opened scope, or the workspace root (never swapped) itself. */
  readonly path: string;
  /** The workspace path `path` stands for (`""` for the root). */
  readonly workspacePath: string;
}

/** The outcome: decided (with the first matching file, if any), or left to rg. */
export type ProbeVerdict = { decided: true; example?: string } | { decided: false };

const UNDECIDED: ProbeVerdict = { decided: false };

/** Bytes read between turns of the event loop: 1 MiB (a millisecond or so). */
const YIELD_BYTES = 1_048_576;

/** The read buffer a probe starts with (grown for a larger file): 1 MiB. */
const SCRATCH_BYTES = 1_048_576;

/**
 * Whether a path from rg's log is a plain relative path: no empty, `.`, `..` or `.git` segment
 * (rg logs names raw, so a file name with a line break can forge a log line naming anything).
 *
 * @param path - a workspace path, or one relative to the probe's base
 * @returns whether the probes may reach it
 */
export function isPlainEntryPath(path: string): boolean {
  return path
    .split("/")
    .every(
      (segment) => segment !== "" && segment !== "." && segment !== ".." && segment !== ".git",
    );
}

/** A budget the probe spends as it goes; false once spent. */
class ProbeBudget {
  files = 0;
  bytes = 0;
  directories = 0;

  spendFile(size: number): boolean {
    this.files += 1;
    this.bytes += size;
    return (
      this.files <= IN_PROCESS_PROBE_LIMITS.files && this.bytes <= IN_PROCESS_PROBE_LIMITS.bytes
    );
  }

  spendDirectory(): boolean {
    this.directories += 1;
    return this.directories <= IN_PROCESS_PROBE_LIMITS.directories;
  }
}

/** Thrown inside the probe when rg must decide instead. */
class LeaveToRipgrep extends Error {}

/**
 * Probes the few hidden and ignored entries a first rg pass left out for a plain-text pattern,
 * in this process instead of a second rg one (which costs ~10–15 ms to start): the entries are
 * walked in path order, by descriptor (each directory opened `O_DIRECTORY | O_NOFOLLOW` and
 * entered through its `/proc/self/fd` link, each file opened `O_NOFOLLOW`), hidden and ignored
 * files alike, never `.git`, secret paths or symlinks; the first file holding the text is the
 * answer.
 *
 * It decides only where its verdict (a match or none) is rg's: a plain-text pattern
 * ({@link literalMatcher}), Linux, and files rg would read as UTF-8 text — a file with a NUL byte
 * (binary to rg) or a UTF-16 BOM (which rg transcodes), an unreadable entry, a path that is not
 * plain ({@link isPlainEntryPath}), or more than {@link IN_PROCESS_PROBE_LIMITS} hand the whole
 * probe back to rg (`decided: false`). The file it names is the first match in path order. Synchronous calls, bounded by those limits
 * (~8 MiB), with a turn of the event loop after each MiB or 32 files read.
 *
 * @param base - where the entries are reached from
 * @param request - the search (pattern, case, secrets)
 * @param entries - workspace paths of the skipped entries, below `base`
 * @param signal - aborts the probe
 * @returns the verdict
 */
export async function probeSkippedEntries(
  base: ProbeBase,
  request: SearchRequest,
  entries: readonly string[],
  signal: AbortSignal,
): Promise<ProbeVerdict> {
  if (!hasProcFd) return UNDECIDED;
  const matches = literalMatcher(request);
  if (matches === undefined) return UNDECIDED;
  const below = base.workspacePath.length === 0 ? "" : `${base.workspacePath}/`;
  // Entries come from rg's log: only plain paths below the base are walked here.
  if (
    entries.some(
      (entry) =>
        !entry.startsWith(below) ||
        entry.length === below.length ||
        !isPlainEntryPath(entry.slice(below.length)),
    )
  ) {
    return UNDECIDED;
  }
  // Secrets are kept out twice, as with rg: the workspace's test, and the secret globs matched
  // without regard to case and without exceptions (rg's `--iglob '!…'`).
  const secretByGlob = secretGlobMatcher(request.secretGlobs);
  const isSecret = (path: string): boolean =>
    request.isSecret(path) || secretByGlob(path.toLowerCase());
  return new SkippedEntryWalk(base.path, below, matches, isSecret, signal).run(entries);
}

/** Matchers of secret-glob lists, kept: building one costs ~0.2 ms and the list rarely changes. */
const secretGlobMatchers = new Map<string, (path: string) => boolean>();

/** The matcher of a secret-glob list (lower-cased), built once per list. */
function secretGlobMatcher(globs: readonly string[]): (path: string) => boolean {
  const key = JSON.stringify(globs);
  let matcher = secretGlobMatchers.get(key);
  if (matcher === undefined) {
    matcher = createSecretPathMatcher({
      secretPaths: globs.map((glob) => glob.toLowerCase()),
      secretExceptions: [],
    });
    if (secretGlobMatchers.size >= 16) secretGlobMatchers.clear();
    secretGlobMatchers.set(key, matcher);
  }
  return matcher;
}

/** A walk of the skipped entries, by descriptor, in path order; every descriptor closed at its end. */
class SkippedEntryWalk {
  private readonly budget = new ProbeBudget();
  private scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  private readonly yieldedAt = { bytes: 0, files: 0 };
  private readonly opened: number[] = [];

  constructor(
    private readonly basePath: string,
    private readonly below: string,
    private readonly matches: (bytes: Buffer) => boolean,
    private readonly isSecret: (path: string) => boolean,
    private readonly signal: AbortSignal,
  ) {}

  /** The verdict over `entries` (workspace paths below the base). */
  async run(entries: readonly string[]): Promise<ProbeVerdict> {
    const { below, opened, budget } = this;
    try {
      // Each entry is reached from the base one opened component at a time (no symlink followed).
      for (const entry of [...entries].sort(comparePaths)) {
        const segments = entry.slice(below.length).split("/");
        const name = segments.pop() as string;
        const depth = opened.length;
        let parent = this.basePath;
        try {
          for (const segment of segments) {
            if (!budget.spendDirectory()) throw new LeaveToRipgrep();
            parent = this.openDirectory(`${parent}/${segment}`);
          }
          const found = await this.search(parent, name, entry, undefined);
          if (found !== undefined) return { decided: true, example: found };
        } finally {
          while (opened.length > depth) this.closeDirectory();
        }
      }
      return { decided: true };
    } catch {
      if (this.signal.aborted) throw this.signal.reason;
      // Too much for here (LeaveToRipgrep), binary or UTF-16 content, an unreadable or changed
      // entry: rg decides, as it did before this probe existed.
      return UNDECIDED;
    } finally {
      while (opened.length > 0) this.closeDirectory();
    }
  }

  private openDirectory(path: string): string {
    const descriptor = openSync(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    this.opened.push(descriptor);
    return `${PROC_FD}/${descriptor}`;
  }

  private closeDirectory(): void {
    const descriptor = this.opened.pop();
    if (descriptor !== undefined) closeSync(descriptor);
  }

  /**
   * The files and directories of an opened directory in path order; more entries than the whole
   * budget could cover leave the probe to rg before they are all read.
   */
  private listChildren(
    inside: string,
    workspacePath: string,
  ): Array<{ name: string; path: string; isDirectory: boolean }> {
    const most = IN_PROCESS_PROBE_LIMITS.files + IN_PROCESS_PROBE_LIMITS.directories;
    const children: Array<{ name: string; path: string; isDirectory: boolean }> = [];
    const directory = opendirSync(inside, { bufferSize: 128 });
    try {
      let read = 0;
      for (let child = directory.readSync(); child !== null; child = directory.readSync()) {
        // Every entry counts (symlinks and FIFOs too): a listing never runs long unbounded.
        read += 1;
        if (read > most) throw new LeaveToRipgrep();
        if (!child.isFile() && !child.isDirectory()) continue;
        children.push({
          name: child.name,
          path: `${workspacePath}/${child.name}`,
          isDirectory: child.isDirectory(),
        });
      }
    } finally {
      directory.closeSync();
    }
    return children.sort((left, right) => comparePaths(left.path, right.path));
  }

  /** Whether the file at `path` (entered by name from an opened directory) holds the text. */
  private fileMatches(path: string): boolean {
    let descriptor: number;
    try {
      descriptor = openSync(path, constants.O_RDONLY | O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      // A symlink: rg does not follow it either.
      if ((error as NodeJS.ErrnoException).code === "ELOOP") return false;
      throw error;
    }
    try {
      const info = fstatSync(descriptor);
      if (!info.isFile()) return false; // rg reads regular files only
      if (!this.budget.spendFile(info.size)) throw new LeaveToRipgrep();
      // One buffer for every file (grown to the largest): a new one per file costs more than the read.
      if (this.scratch.length < info.size) this.scratch = Buffer.allocUnsafe(info.size);
      const scratch = this.scratch;
      let filled = 0;
      while (filled < info.size) {
        const read = readSync(descriptor, scratch, filled, info.size - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      const content = scratch.subarray(0, filled);
      const utf16 =
        content.length >= 2 &&
        ((content[0] === 0xff && content[1] === 0xfe) ||
          (content[0] === 0xfe && content[1] === 0xff));
      if (utf16 || content.indexOf(0) !== -1) throw new LeaveToRipgrep();
      return this.matches(content);
    } finally {
      closeSync(descriptor);
    }
  }

  /** A turn of the event loop after each MiB or 32 files read. */
  private async yieldNow(): Promise<void> {
    const { budget, yieldedAt } = this;
    if (budget.bytes - yieldedAt.bytes >= YIELD_BYTES || budget.files - yieldedAt.files >= 32) {
      yieldedAt.bytes = budget.bytes;
      yieldedAt.files = budget.files;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The first matching file at or below the entry `name` of the opened directory `parent`. */
  private async search(
    parent: string,
    name: string,
    workspacePath: string,
    isDirectory: boolean | undefined,
  ): Promise<string | undefined> {
    this.signal.throwIfAborted();
    if (name === ".git" || this.isSecret(workspacePath)) return undefined;
    const path = `${parent}/${name}`;
    if (isDirectory === false) {
      await this.yieldNow();
      return this.fileMatches(path) ? workspacePath : undefined;
    }
    let inside: string;
    try {
      inside = this.openDirectory(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The entry is a file: searched as one. A symlink (ELOOP): rg does not follow it either.
      if (isDirectory === undefined && code === "ENOTDIR") {
        return this.search(parent, name, workspacePath, false);
      }
      if (code === "ELOOP") return undefined;
      throw error;
    }
    try {
      if (!this.budget.spendDirectory()) throw new LeaveToRipgrep();
      for (const child of this.listChildren(inside, workspacePath)) {
        const found = await this.search(inside, child.name, child.path, child.isDirectory);
        if (found !== undefined) return found;
      }
      return undefined;
    } finally {
      this.closeDirectory();
    }
  }
}
