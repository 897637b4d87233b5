/**
 * The skills half of `@agentool/tools-knowledge`, runtime-neutral and standing alone (it imports
 * nothing of search or memory): `use_skill`, `read_skill_file` and the skill menu.
 *
 * @packageDocumentation
 */
export {
  createSkillTools,
  SKILL_TOOL_NAMES,
  type SkillToolsOptions,
} from "./create-skill-tools.js";
export {
  createReadSkillFileTool,
  DEFAULT_MAX_SKILL_LINE_CHARACTERS,
  DEFAULT_MAX_SKILL_PAGE_CHARACTERS,
  DEFAULT_READ_SKILL_FILE_LIMIT,
  DEFAULT_READ_SKILL_FILE_MAX_LIMIT,
  DEFAULT_READ_SKILL_FILE_TIMEOUT_MS,
  formatReadSkillFilePage,
  READ_SKILL_FILE_ALIASES,
  READ_SKILL_FILE_TOOL_NAME,
  type ReadSkillFileCutLine,
  type ReadSkillFileFormatOptions,
  type ReadSkillFileTool,
  type ReadSkillFileToolData,
  type ReadSkillFileToolOptions,
  readSkillFileInputSchema,
} from "./read-skill-file.js";
export {
  DEFAULT_SKILL_MENU_TOOL_NAME,
  type RenderSkillMenuOptions,
  renderSkillMenu,
  SKILL_MENU_HEADING,
} from "./render-skill-menu.js";
export {
  MAX_FRONT_MATTER_CHARACTERS,
  MAX_SKILL_DESCRIPTION_CHARACTERS,
  MAX_SKILL_NAME_CHARACTERS,
  type ParsedSkillFile,
  parseSkillFile,
  SKILL_NAME_PATTERN,
  type SkillFileParse,
} from "./skill-front-matter.js";
export type {
  LoadedSkill,
  SkillFileEntry,
  SkillFileProblem,
  SkillFileRead,
  SkillSource,
  SkillSourceContext,
  SkillSummary,
} from "./skill-source.js";
export {
  createUseSkillTool,
  DEFAULT_USE_SKILL_TIMEOUT_MS,
  formatUseSkillResult,
  USE_SKILL_ALIASES,
  USE_SKILL_TOOL_NAME,
  type UseSkillFile,
  type UseSkillFormatOptions,
  type UseSkillTool,
  type UseSkillToolData,
  type UseSkillToolOptions,
  useSkillInputSchema,
} from "./use-skill.js";
