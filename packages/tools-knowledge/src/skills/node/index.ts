/**
 * The skills half of `@agentool/tools-knowledge` on Node: `SkillRegistry`, a folder of skills.
 *
 * @packageDocumentation
 */
export {
  SkillRegistry,
  type SkillRegistryOptions,
  type SkillRescanReport,
} from "./skill-registry.js";
export {
  DEFAULT_MAX_LISTED_SKILL_FILES,
  DEFAULT_MAX_SKILL_FILE_BYTES,
  DEFAULT_MAX_SKILL_REFERENCE_BYTES,
  DEFAULT_MAX_SKILLS,
  SKILL_FILE_NAME,
} from "./skill-registry-limits.js";
export type { SkillSkipReason, SkippedSkill } from "./skipped-skill.js";
