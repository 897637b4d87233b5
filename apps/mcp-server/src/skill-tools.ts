import type { AnyTool } from "@agentool/contract";
import { createSkillTools } from "@agentool/tools-knowledge";
import { SkillRegistry } from "@agentool/tools-knowledge/node";
import type { ToolSetConfiguration } from "./tool-sets.js";

/** One skill registry per configuration, kept across rebuilds. */
const skillRegistries = new WeakMap<ToolSetConfiguration, SkillRegistry>();

/** Most characters of skill names appended to `use_skill`'s description. */
const MAX_LISTED_SKILL_NAME_CHARACTERS = 400;

/**
 * The skill registry of a configuration (one per configuration, made on first use): the same
 * one `use_skill` and `read_skill_file` read, for serving the skills as MCP prompts too.
 *
 * @param configuration - the configuration the tool sets are built from
 * @param directory - its skills folder (absolute)
 * @returns the registry; skipped entries are logged to stderr once each
 */
export function skillRegistryOf(
  configuration: ToolSetConfiguration,
  directory: string,
): SkillRegistry {
  let registry = skillRegistries.get(configuration);
  if (registry === undefined) {
    registry = new SkillRegistry(directory, {
      onWarn: (message) => process.stderr.write(`agentool-mcp: ${message}\n`),
    });
    skillRegistries.set(configuration, registry);
  }
  return registry;
}

/**
 * The skills family: `use_skill` and `read_skill_file` over one registry per configuration (a
 * client has no system prompt the server could extend, so `use_skill`'s description names the
 * skills found now; an unknown name rescans and lists the current ones with their descriptions).
 * Skipped entries are logged to stderr once each.
 */
export function buildSkillTools(
  configuration: ToolSetConfiguration,
  directory: string,
  mounted: readonly string[],
): AnyTool[] {
  const known = skillRegistries.has(configuration);
  const registry = skillRegistryOf(configuration, directory);
  if (known) registry.rescan();
  // No skill menu sits in an MCP client's instructions: use_skill must not point to one.
  const [useSkill, readSkillFile] = createSkillTools({
    registry,
    alsoMounted: mounted,
    useSkill: { menuInInstructions: false },
  });
  if (useSkill === undefined || readSkillFile === undefined) return [];
  const names = registry.names();
  let listed = "";
  for (const name of names) {
    const next = listed === "" ? name : `${listed}, ${name}`;
    if (next.length > MAX_LISTED_SKILL_NAME_CHARACTERS) {
      listed = `${listed}, …`;
      break;
    }
    listed = next;
  }
  const installed =
    names.length === 0
      ? "No skills are installed yet."
      : `Skills: ${listed} (call it with any other name for the current list with descriptions).`;
  return [
    useSkill.withOverrides({ description: `${useSkill.description}\n${installed}` }),
    readSkillFile,
  ];
}
