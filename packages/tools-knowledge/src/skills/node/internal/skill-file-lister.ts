import type { Stats } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { createSecretPathMatcher } from "@agentool/contract";
import type { SkillFileEntry } from "../../skill-source.js";
import { SKILL_FILE_NAME } from "../skill-registry-limits.js";
import {
  BINARY_SNIFF_BYTES,
  countLines,
  hasNul,
  SAFE_READ_FLAGS,
  stampOf,
} from "./skill-file-system.js";

/** Most entries one listing of a skill's folder walks (the count then says "at least"). */
const MAX_WALKED_ENTRIES = 5_000;

/** Deepest folder level a listing walks below the skill's folder. */
const MAX_WALK_DEPTH = 8;

/** Line counts kept at most before the cache starts again. */
const MAX_CACHED_LINE_COUNTS = 10_000;

const isSecretPath = createSecretPathMatcher();
const lenientDecoder = new TextDecoder("utf-8");

/** What one listing of a skill's folder found. @internal */
export interface SkillFileListing {
  /** The files in path order, at most the listing cap. */
  files: SkillFileEntry[];
  /** How many files were found in all. */
  total: number;
  /** `total` is a lower bound (the walk stopped at its entry or depth cap). */
  atLeast: boolean;
}

/** One walk of a skill's folder: the regular files found, and whether it stopped early. */
class FolderWalk {
  readonly found: Array<{ path: string; absolute: string; info: Stats }> = [];
  walked = 0;
  atLeast = false;

  constructor(readonly signal: AbortSignal | undefined) {}

  async walk(folder: string, prefix: string, depth: number): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(folder)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      this.signal?.throwIfAborted();
      if (name.startsWith(".")) continue;
      if (depth === 0 && name === SKILL_FILE_NAME) continue;
      this.walked += 1;
      if (this.walked > MAX_WALKED_ENTRIES) {
        this.atLeast = true;
        return;
      }
      const absolute = join(folder, name);
      const path = prefix === "" ? name : `${prefix}/${name}`;
      if (isSecretPath(path)) continue;
      let info: Stats;
      try {
        info = await lstat(absolute);
      } catch {
        continue;
      }
      if (info.isDirectory()) {
        if (depth + 1 < MAX_WALK_DEPTH) await this.walk(absolute, path, depth + 1);
        else this.atLeast = true;
      } else if (info.isFile()) {
        this.found.push({ path, absolute, info });
      }
      if (this.atLeast && this.walked > MAX_WALKED_ENTRIES) return;
    }
  }
}

/**
 * Lists a skill's other files with their line counts (never their content): hidden entries,
 * symlinks, secret paths and SKILL.md itself are left out. Line counts are kept by file stamp.
 *
 * @internal
 */
export class SkillFileLister {
  readonly #maxReferenceBytes: number;
  readonly #maxListedFiles: number;
  readonly #lineCounts = new Map<string, number>();

  /**
   * @param maxReferenceBytes - larger files are listed as too large (not counted)
   * @param maxListedFiles - the most files listed
   */
  constructor(maxReferenceBytes: number, maxListedFiles: number) {
    this.#maxReferenceBytes = maxReferenceBytes;
    this.#maxListedFiles = maxListedFiles;
  }

  /**
   * Lists the files of one skill's folder, in path order.
   *
   * @param root - the skill's folder
   * @param signal - stops the listing
   * @returns the files, their total and whether it is a lower bound
   */
  async list(root: string, signal: AbortSignal | undefined): Promise<SkillFileListing> {
    const walk = new FolderWalk(signal);
    await walk.walk(root, "", 0);
    const found = walk.found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const files: SkillFileEntry[] = [];
    for (const item of found.slice(0, this.#maxListedFiles)) {
      signal?.throwIfAborted();
      files.push(await this.#describe(item.path, item.absolute, item.info));
    }
    return { files, total: found.length, atLeast: walk.atLeast };
  }

  async #describe(path: string, absolute: string, info: Stats): Promise<SkillFileEntry> {
    const entry: SkillFileEntry = { path, bytes: info.size };
    if (info.size > this.#maxReferenceBytes) {
      entry.too_large = true;
      return entry;
    }
    const key = `${absolute}\0${stampOf(info)}`;
    const cached = this.#lineCounts.get(key);
    if (cached !== undefined) {
      if (cached < 0) entry.binary = true;
      else entry.lines = cached;
      return entry;
    }
    let lines = -1;
    try {
      const handle = await open(absolute, SAFE_READ_FLAGS);
      try {
        const bytes = await handle.readFile();
        lines = hasNul(bytes, BINARY_SNIFF_BYTES) ? -1 : countLines(lenientDecoder.decode(bytes));
      } finally {
        await handle.close();
      }
    } catch {
      return entry;
    }
    if (this.#lineCounts.size > MAX_CACHED_LINE_COUNTS) this.#lineCounts.clear();
    this.#lineCounts.set(key, lines);
    if (lines < 0) entry.binary = true;
    else entry.lines = lines;
    return entry;
  }
}
