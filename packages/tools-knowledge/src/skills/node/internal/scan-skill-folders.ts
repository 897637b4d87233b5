import { lstatSync, readdirSync, realpathSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { SkillSummary } from "../../skill-source.js";
import { SKILL_FILE_NAME } from "../skill-registry-limits.js";
import type { SkippedSkill } from "../skipped-skill.js";
import type { SkillFileCache } from "./skill-file-cache.js";
import { errorCode } from "./skill-file-system.js";

/**
 * A skill found by a scan.
 *
 * @internal
 */
export interface ScannedSkill {
  summary: SkillSummary;
  body: string;
  bodyStartLine: number;
  /** The skill's folder (the skills folder's real path joined with its name). */
  directory: string;
  /** The skill's folder under the skills folder as given (absolute paths may use either form). */
  givenDirectory: string;
  /** The stamp of the SKILL.md it was read from. */
  stamp: string;
}

/** What one scan of the skills folders found. @internal */
export interface SkillScan {
  /** The skills, sorted by name (code-unit order). */
  skills: Map<string, ScannedSkill>;
  /** Entries skipped, in folder order. */
  skipped: SkippedSkill[];
}

/** One scan in progress: what it found so far. */
class ScanState {
  readonly skills = new Map<string, ScannedSkill>();
  readonly skipped: SkippedSkill[] = [];
  readonly seenFiles = new Set<string>();

  constructor(
    readonly cache: SkillFileCache,
    readonly maxSkills: number,
  ) {}

  skip(entry: string, reason: SkippedSkill["reason"], message: string): void {
    this.skipped.push({ entry, reason, message });
  }
}

/** Reads a skills folder's entries (sorted), or records why it has none. */
function folderEntries(
  directory: string,
  state: ScanState,
): { real: string; entries: string[] } | undefined {
  try {
    const real = realpathSync(directory);
    return { real, entries: readdirSync(real).sort() };
  } catch (error) {
    const missing = errorCode(error) === "ENOENT";
    state.skip(
      directory,
      "missing_folder",
      missing
        ? `The skills folder ${directory} does not exist yet: no skills from it until it is created.`
        : `The skills folder ${directory} cannot be read (${errorCode(error) ?? "error"}): no skills from it.`,
    );
    return undefined;
  }
}

/** Takes one entry of a skills folder: a skill, a skip, or nothing (hidden, loose file, gone). */
function scanEntry(
  directory: string,
  real: string,
  name: string,
  shown: string,
  state: ScanState,
): void {
  if (name.startsWith(".")) return;
  const folder = join(real, name);
  let info: Stats;
  try {
    info = lstatSync(folder);
  } catch {
    return; // removed while scanning
  }
  if (info.isSymbolicLink()) {
    state.skip(
      shown,
      "symlink",
      `Skipped skill ${shown}: the folder is a symlink (a skill's folder is its sandbox, so links are not followed); copy the skill in instead.`,
    );
    return;
  }
  if (!info.isDirectory()) return;
  const outcome = state.cache.read(folder, name);
  state.seenFiles.add(join(folder, SKILL_FILE_NAME));
  if (!outcome.ok) {
    state.skip(shown, outcome.reason, `Skipped skill ${shown}: ${outcome.message}`);
    return;
  }
  const existing = state.skills.get(outcome.summary.name);
  if (existing !== undefined) {
    state.skip(
      shown,
      "duplicate",
      `Skipped skill ${shown}: a skill named ${outcome.summary.name} was already found in ${existing.directory}; rename one of them.`,
    );
    return;
  }
  if (state.skills.size >= state.maxSkills) {
    state.skip(
      shown,
      "too_many",
      `Skipped skill ${shown}: the registry holds at most ${state.maxSkills} skills (maxSkills).`,
    );
    return;
  }
  state.skills.set(outcome.summary.name, {
    summary: outcome.summary,
    body: outcome.body,
    bodyStartLine: outcome.bodyStartLine,
    directory: folder,
    givenDirectory: join(directory, name),
    stamp: outcome.stamp,
  });
}

/**
 * Scans the skills folders in priority order: every `<skill>/SKILL.md` (through the cache), the
 * first folder's skill of a name winning, at most `maxSkills`. Never throws for what is in a
 * folder; the cache forgets the SKILL.md files it no longer saw.
 *
 * @param directories - the skills folders, absolute, in priority order
 * @param cache - the parsed SKILL.md files of earlier scans
 * @param maxSkills - the most skills kept
 * @returns the skills (sorted by name) and the entries skipped
 * @internal
 */
export function scanSkillFolders(
  directories: readonly string[],
  cache: SkillFileCache,
  maxSkills: number,
): SkillScan {
  const state = new ScanState(cache, maxSkills);
  const several = directories.length > 1;
  for (const directory of directories) {
    const listing = folderEntries(directory, state);
    if (listing === undefined) continue;
    for (const name of listing.entries) {
      const shown = several ? join(directory, name) : name;
      scanEntry(directory, listing.real, name, shown, state);
    }
  }
  cache.keepOnly(state.seenFiles);
  const skills = new Map(
    [...state.skills.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { skills, skipped: state.skipped };
}
