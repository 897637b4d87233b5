/** The file that makes a folder a skill. */
export const SKILL_FILE_NAME = "SKILL.md";

/** Default cap on one SKILL.md: 64 KiB (about 16,000 tokens; a skill's body is loaded whole). */
export const DEFAULT_MAX_SKILL_FILE_BYTES = 65_536;

/** Default cap on one reference file read with `read_skill_file`: 1 MiB. */
export const DEFAULT_MAX_SKILL_REFERENCE_BYTES = 1_048_576;

/** Default most skills in the registry: 500 (the rest are skipped with a warning). */
export const DEFAULT_MAX_SKILLS = 500;

/** Default most files `use_skill` lists for one skill: 100. */
export const DEFAULT_MAX_LISTED_SKILL_FILES = 100;
