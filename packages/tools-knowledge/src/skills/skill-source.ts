/** One line of the skill menu: a skill's name and what it is for. */
export interface SkillSummary {
  /** The skill's name (lower-case letters, digits and hyphens; its folder's name). */
  name: string;
  /** When to use it, on one line (from the front matter's `description`). */
  description: string;
}

/** One file inside a skill's folder, as `use_skill` lists it (never its content). */
export interface SkillFileEntry {
  /** The path inside the skill's folder, `/`-separated (e.g. `references/checklist.md`). */
  path: string;
  /** Its size in bytes. */
  bytes: number;
  /** Its line count; absent for a binary file or one larger than the read cap. */
  lines?: number;
  /** Present (`true`) for a binary file (it cannot be read as text). */
  binary?: true;
  /** Present (`true`) for a text file larger than the read cap (it cannot be read). */
  too_large?: true;
}

/** A skill loaded for use: its body and the list of its other files. */
export interface LoadedSkill {
  /** The skill's name. */
  name: string;
  /** Its description (one line). */
  description: string;
  /** The text of SKILL.md after the front matter. */
  body: string;
  /** The line of SKILL.md where the body starts (1-based), for paging SKILL.md itself. */
  bodyStartLine: number;
  /** The skill's other files (SKILL.md excluded), in path order, at most the listing cap. */
  files: SkillFileEntry[];
  /** How many files the skill holds in all (exact unless `filesAtLeast`). */
  filesTotal: number;
  /** `filesTotal` is a lower bound: the folder holds more entries than one listing walks. */
  filesAtLeast: boolean;
}

/** Why a skill file could not be read. */
export type SkillFileProblem =
  /** No skill of that name. */
  | "unknown_skill"
  /** The path is absolute outside the skill, climbs above it with `..`, or holds a NUL byte. */
  | "invalid_path"
  /** The path resolves (through a symlink) outside the skill's own folder. */
  | "outside_skill"
  /** Nothing there. */
  | "not_found"
  /** A folder, not a file. */
  | "directory"
  /** A device, socket or pipe. */
  | "not_regular"
  /** A secret path (`.env`, private keys, …), never read. */
  | "secret"
  /** Larger than the read cap. */
  | "too_large"
  /** Not text. */
  | "binary";

/** The outcome of {@link SkillSource.readSkillFile}. */
export type SkillFileRead =
  | {
      ok: true;
      /** The path inside the skill's folder, normalised (`/`-separated, no `.` or `..`). */
      path: string;
      /** The file's text (UTF-8, a BOM removed, invalid bytes as U+FFFD). */
      text: string;
      /** Its size in bytes. */
      bytes: number;
    }
  | {
      ok: false;
      /** What is wrong. */
      problem: SkillFileProblem;
      /** A sentence saying why, naming the path as the model sent it. */
      detail: string;
      /** The normalised path, when the path could be normalised. */
      path?: string;
    };

/** What {@link SkillSource} calls take besides their arguments. */
export interface SkillSourceContext {
  /** Aborted when the call is cancelled or times out. */
  signal?: AbortSignal;
}

/**
 * Where `use_skill` and `read_skill_file` get skills from. `SkillRegistry` (on
 * `@agentool/tools-knowledge/node`) implements it over a folder; any other implementation (an
 * in-memory set in a browser, a database) works the same way.
 */
export interface SkillSource {
  /** The skills, sorted by name (code-unit order): what the menu lists. */
  menu(): SkillSummary[];
  /**
   * Loads one skill: its current body and the list of its files. A name not in the menu may be
   * looked for again (a skill installed since the last scan).
   *
   * @returns the skill, or `undefined` when there is none of that name
   */
  loadSkill(name: string, context?: SkillSourceContext): Promise<LoadedSkill | undefined>;
  /**
   * Reads one file inside one skill's own folder (its jail): `..` above it, absolute paths outside
   * it, symlinks leading out of it (into another skill's folder too) and secret paths are refused.
   */
  readSkillFile(skill: string, path: string, context?: SkillSourceContext): Promise<SkillFileRead>;
}
