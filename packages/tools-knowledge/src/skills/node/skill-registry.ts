import { lstatSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { AgentoolError, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { renderSkillMenu } from "../render-skill-menu.js";
import type {
  LoadedSkill,
  SkillFileRead,
  SkillSource,
  SkillSourceContext,
  SkillSummary,
} from "../skill-source.js";
import { readFileInSkill } from "./internal/read-file-in-skill.js";
import { type ScannedSkill, scanSkillFolders } from "./internal/scan-skill-folders.js";
import { SkillFileCache } from "./internal/skill-file-cache.js";
import { SkillFileLister } from "./internal/skill-file-lister.js";
import { isInside, stampOf } from "./internal/skill-file-system.js";
import {
  DEFAULT_MAX_LISTED_SKILL_FILES,
  DEFAULT_MAX_SKILL_FILE_BYTES,
  DEFAULT_MAX_SKILL_REFERENCE_BYTES,
  DEFAULT_MAX_SKILLS,
  SKILL_FILE_NAME,
} from "./skill-registry-limits.js";
import type { SkippedSkill } from "./skipped-skill.js";

/** What {@link SkillRegistry.rescan} reports. */
export interface SkillRescanReport {
  /** Skills found. */
  count: number;
  /** Their names, sorted. */
  names: string[];
  /** Entries skipped, in folder order. */
  skipped: SkippedSkill[];
  /**
   * Whether the rendered menu ({@link renderSkillMenu}) differs, byte for byte, from the one
   * before this scan: `true` means the next system prompt moves (and a provider's prompt cache
   * starts again).
   */
  changed: boolean;
}

/** Options of {@link SkillRegistry}. */
export interface SkillRegistryOptions {
  /**
   * Receives one message per skipped entry (new skips only: a rescan does not repeat a warning
   * for an entry skipped the same way before). Default: none (see `rescan().skipped`).
   */
  onWarn?: (message: string, skipped: SkippedSkill) => void;
  /** Largest SKILL.md accepted. Default {@link DEFAULT_MAX_SKILL_FILE_BYTES} (64 KiB). */
  maxSkillFileBytes?: number;
  /** Largest reference file `read_skill_file` reads. Default {@link DEFAULT_MAX_SKILL_REFERENCE_BYTES} (1 MiB). */
  maxReferenceBytes?: number;
  /** Most skills. Default {@link DEFAULT_MAX_SKILLS} (500). */
  maxSkills?: number;
  /** Most files `use_skill` lists per skill. Default {@link DEFAULT_MAX_LISTED_SKILL_FILES} (100). */
  maxListedFiles?: number;
}

const optionsSchema = z.object({
  onWarn: z
    .custom<(message: string, skipped: SkippedSkill) => void>(
      (value) => typeof value === "function",
      { error: "expected a function (message, skipped) => void" },
    )
    .optional(),
  maxSkillFileBytes: z.number().int().min(64).max(16_777_216).optional(),
  maxReferenceBytes: z.number().int().min(1).max(67_108_864).optional(),
  maxSkills: z.number().int().min(1).max(100_000).optional(),
  maxListedFiles: z.number().int().min(0).max(10_000).optional(),
});

/**
 * A folder of runtime skills: each `<skill>/SKILL.md` with YAML front matter holding `name`
 * (lower-case letters, digits and hyphens; the folder's own name) and `description` (when to use
 * it, at most 1,024 characters), the body after it, and any reference files beside it. Several
 * folders may be given (project skills before user skills): the first folder's skill of a name
 * wins and the later one is skipped as a duplicate.
 *
 * Scanning never throws for what is in the folder: a symlinked skill folder or SKILL.md, a
 * missing, oversized (`maxSkillFileBytes`), binary or malformed SKILL.md, a name that is invalid
 * or differs from the folder's, a duplicate, or an entry past `maxSkills` is skipped with a
 * warning (`onWarn`, and `rescan().skipped`). Hidden entries (`.git`, `.DS_Store`) and plain
 * files beside the skill folders are ignored silently. A SKILL.md is re-read only when it changed.
 *
 * The constructor scans once (synchronously); {@link rescan} scans again — call it before each
 * model call to pick up skills installed mid-session, `use_skill` and `read_skill_file` call it
 * for a name they do not know. {@link menu} gives the skills for {@link renderSkillMenu}.
 *
 * `readSkillFile` (behind `read_skill_file`) confines every read to the one skill's folder, on
 * real paths: `..` above it, absolute paths outside it, symlinks leading out of it (into another
 * skill's folder too), secret paths and files over `maxReferenceBytes` are refused; the file is
 * opened without following a final symlink and (on Linux) its opened location checked again.
 *
 * @example
 * const registry = new SkillRegistry(".agents/skills", { onWarn: (message) => console.warn(message) });
 * const tools = createSkillTools({ registry });
 * const systemPrompt = `${basePrompt}\n\n${renderSkillMenu(registry.menu())}`;
 */
export class SkillRegistry implements SkillSource {
  /** The skills folders, absolute, in priority order. */
  readonly directories: readonly string[];
  readonly #onWarn: ((message: string, skipped: SkippedSkill) => void) | undefined;
  readonly #maxSkills: number;
  readonly #maxReferenceBytes: number;
  readonly #fileCache: SkillFileCache;
  readonly #lister: SkillFileLister;
  #skills = new Map<string, ScannedSkill>();
  #menuText = "";
  #warned = new Set<string>();

  /**
   * Scans the skills folder(s) once.
   *
   * @param directory - the skills folder, or several in priority order (relative to the working directory, or absolute)
   * @param options - `onWarn` and the caps
   * @throws AgentoolError for invalid options or no folder given (never for what is in the folder)
   */
  constructor(directory: string | readonly string[], options: SkillRegistryOptions = {}) {
    const parsed = parseOptions("SkillRegistry", optionsSchema, options);
    const list = typeof directory === "string" ? [directory] : [...directory];
    if (list.length === 0 || list.some((item) => typeof item !== "string" || item.length === 0)) {
      throw new AgentoolError(
        "SkillRegistry: give the skills folder (a non-empty path, or a list of them), e.g. new SkillRegistry('.agents/skills').",
      );
    }
    this.directories = list.map((item) => resolve(item));
    this.#onWarn = parsed.onWarn;
    this.#maxSkills = parsed.maxSkills ?? DEFAULT_MAX_SKILLS;
    this.#maxReferenceBytes = parsed.maxReferenceBytes ?? DEFAULT_MAX_SKILL_REFERENCE_BYTES;
    this.#fileCache = new SkillFileCache(parsed.maxSkillFileBytes ?? DEFAULT_MAX_SKILL_FILE_BYTES);
    this.#lister = new SkillFileLister(
      this.#maxReferenceBytes,
      parsed.maxListedFiles ?? DEFAULT_MAX_LISTED_SKILL_FILES,
    );
    this.rescan();
  }

  /**
   * The skills, sorted by name (code-unit order), as {@link renderSkillMenu} takes them.
   *
   * @returns a fresh array of `{ name, description }`
   */
  menu(): SkillSummary[] {
    return [...this.#skills.values()].map((skill) => ({ ...skill.summary }));
  }

  /**
   * The names of the skills, sorted.
   *
   * @returns the names
   */
  names(): string[] {
    return [...this.#skills.keys()];
  }

  /**
   * Scans the folder(s) again (synchronously; a SKILL.md is re-read only when its size, time or
   * identity changed) and reports what it found.
   *
   * @returns `{ count, names, skipped, changed }`
   */
  rescan(): SkillRescanReport {
    const { skills, skipped } = scanSkillFolders(
      this.directories,
      this.#fileCache,
      this.#maxSkills,
    );
    const menuText = renderSkillMenu([...skills.values()].map((skill) => skill.summary));
    const changed = menuText !== this.#menuText;
    this.#skills = skills;
    this.#menuText = menuText;
    this.#warnNew(skipped);
    return { count: skills.size, names: [...skills.keys()], skipped, changed };
  }

  /** Tells `onWarn` about the skips the last scan did not already report. */
  #warnNew(skipped: readonly SkippedSkill[]): void {
    const warned = new Set<string>();
    for (const item of skipped) {
      const key = `${item.entry}\0${item.reason}\0${item.message}`;
      warned.add(key);
      if (this.#warned.has(key)) continue;
      try {
        this.#onWarn?.(item.message, item);
      } catch {
        // a throwing listener must not break the scan
      }
    }
    this.#warned = warned;
  }

  /** The skill of a name, rescanning once when it is unknown or its folder changed. */
  #find(name: string): ScannedSkill | undefined {
    const known = this.#skills.get(name);
    if (known !== undefined && this.#isCurrent(known)) return known;
    this.rescan();
    return this.#skills.get(name);
  }

  /** Whether a scanned skill's folder and SKILL.md are still what the scan saw. */
  #isCurrent(skill: ScannedSkill): boolean {
    try {
      const folder = lstatSync(skill.directory);
      if (!folder.isDirectory()) return false;
      return stampOf(lstatSync(join(skill.directory, SKILL_FILE_NAME))) === skill.stamp;
    } catch {
      return false;
    }
  }

  /**
   * Loads a skill: its body (re-read when SKILL.md changed) and the list of its other files with
   * line counts (never their content). Hidden entries and symlinks are not listed.
   *
   * @param name - the skill's name
   * @param context - a signal that stops the listing
   * @returns the skill, or `undefined` when there is none of that name (after a rescan)
   */
  async loadSkill(
    name: string,
    context: SkillSourceContext = {},
  ): Promise<LoadedSkill | undefined> {
    const skill = this.#find(name);
    if (skill === undefined) return undefined;
    const listing = await this.#lister.list(skill.directory, context.signal);
    return {
      name: skill.summary.name,
      description: skill.summary.description,
      body: skill.body,
      bodyStartLine: skill.bodyStartLine,
      files: listing.files,
      filesTotal: listing.total,
      filesAtLeast: listing.atLeast,
    };
  }

  /**
   * Reads one file inside one skill's own folder (see the class description for what is refused).
   *
   * @param skill - the skill's name
   * @param path - the path inside the skill's folder, as the model sent it
   * @param context - a signal
   * @returns the text, or why it cannot be read
   */
  async readSkillFile(
    skill: string,
    path: string,
    context: SkillSourceContext = {},
  ): Promise<SkillFileRead> {
    const found = this.#find(skill);
    if (found === undefined) {
      return {
        ok: false,
        problem: "unknown_skill",
        detail: `There is no skill named ${JSON.stringify(skill)}.`,
      };
    }
    return readFileInSkill(found, skill, path, {
      maxReferenceBytes: this.#maxReferenceBytes,
      ownerOf: (real) => this.#ownerOf(real, skill),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
  }

  /** `" (into skill NAME's folder)"` when a real path lies in another skill's folder. */
  #ownerOf(real: string, self: string): string {
    for (const [name, other] of this.#skills) {
      if (name === self) continue;
      let otherReal: string;
      try {
        otherReal = realpathSync(other.directory);
      } catch {
        continue;
      }
      if (isInside(real, otherReal)) return ` (into skill ${name}'s folder)`;
    }
    return "";
  }
}
