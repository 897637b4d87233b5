import type { AnyTool } from "@agentool/contract";
import {
  createReadSkillFileTool,
  READ_SKILL_FILE_TOOL_NAME,
  type ReadSkillFileTool,
  type ReadSkillFileToolOptions,
} from "./read-skill-file.js";
import type { SkillSource } from "./skill-source.js";
import {
  createUseSkillTool,
  USE_SKILL_TOOL_NAME,
  type UseSkillTool,
  type UseSkillToolOptions,
} from "./use-skill.js";

/** The names of the skill tools, in the order {@link createSkillTools} returns them. */
export const SKILL_TOOL_NAMES: readonly string[] = [USE_SKILL_TOOL_NAME, READ_SKILL_FILE_TOOL_NAME];

/** Options of {@link createSkillTools}. */
export interface SkillToolsOptions {
  /** Where the skills come from: a `SkillRegistry` (`@agentool/tools-knowledge/node`) or any {@link SkillSource}. */
  registry: SkillSource;
  /** Names of the other tools mounted beside these two (descriptions may name them). Default: none. */
  alsoMounted?: readonly string[];
  /** Options of `use_skill` besides the registry (`name`, `description`, `timeoutMs`), or `false` to leave it out. */
  useSkill?:
    | Omit<UseSkillToolOptions, "registry" | "mountedTools" | "readSkillFileToolName">
    | false;
  /** Options of `read_skill_file` besides the registry (caps, `name`, …), or `false` to leave it out. */
  readSkillFile?:
    | Omit<ReadSkillFileToolOptions, "registry" | "mountedTools" | "useSkillToolName">
    | false;
}

/**
 * Creates the skill tools over one registry: `use_skill` (load a skill's procedure and list its
 * files) and `read_skill_file` (read one of those files, confined to the skill's folder), each
 * told the other's name (renamed ones too) so their descriptions and results point to each other.
 *
 * @param options - the registry, the other mounted tools, per-tool options
 * @returns `[use_skill, read_skill_file]` (either left out with `false`)
 * @throws AgentoolError for invalid options
 * @example
 * const registry = new SkillRegistry(".agents/skills");
 * const tools = createSkillTools({ registry });
 * const agent = createAgent({ model, tools: toLangChainTools(tools), middleware: [skillMenu] });
 */
export function createSkillTools(
  options: SkillToolsOptions,
): Array<UseSkillTool | ReadSkillFileTool> {
  const useName =
    options.useSkill === false ? undefined : (options.useSkill?.name ?? USE_SKILL_TOOL_NAME);
  const readName =
    options.readSkillFile === false
      ? undefined
      : (options.readSkillFile?.name ?? READ_SKILL_FILE_TOOL_NAME);
  const mounted = [
    ...(options.alsoMounted ?? []),
    ...(useName === undefined ? [] : [useName]),
    ...(readName === undefined ? [] : [readName]),
  ];
  const tools: Array<UseSkillTool | ReadSkillFileTool> = [];
  if (options.useSkill !== false) {
    tools.push(
      createUseSkillTool({
        ...(options.useSkill ?? {}),
        registry: options.registry,
        mountedTools: mounted,
        ...(readName === undefined ? {} : { readSkillFileToolName: readName }),
      }),
    );
  }
  if (options.readSkillFile !== false) {
    tools.push(
      createReadSkillFileTool({
        ...(options.readSkillFile ?? {}),
        registry: options.registry,
        mountedTools: mounted,
        ...(useName === undefined ? {} : { useSkillToolName: useName }),
      }),
    );
  }
  return tools satisfies AnyTool[];
}
