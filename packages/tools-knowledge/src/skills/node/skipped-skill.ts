/** Why an entry of the skills folder is not a skill. */
export type SkillSkipReason =
  /** The skills folder itself is missing or unreadable. */
  | "missing_folder"
  /** The skill's folder or its SKILL.md is a symlink. */
  | "symlink"
  /** The folder holds no SKILL.md. */
  | "missing_skill_file"
  /** SKILL.md is a folder, device, socket or pipe. */
  | "not_regular"
  /** SKILL.md is larger than `maxSkillFileBytes`. */
  | "oversized"
  /** SKILL.md is not UTF-8 text, has no or broken front matter, lacks name or description. */
  | "malformed"
  /** The name is not lower-case letters, digits and hyphens. */
  | "invalid_name"
  /** The name differs from the folder's. */
  | "name_mismatch"
  /** An earlier skills folder has a skill of the same name. */
  | "duplicate"
  /** Past `maxSkills`. */
  | "too_many"
  /** The operating system refused to read it. */
  | "unreadable";

/** An entry of the skills folder that was skipped, and why. */
export interface SkippedSkill {
  /** The entry's path: the folder name, prefixed with the skills folder when there are several. */
  entry: string;
  /** Why. */
  reason: SkillSkipReason;
  /** What is wrong and how to fix it, in a sentence. */
  message: string;
}
