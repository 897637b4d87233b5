import type { SkillSummary } from "./skill-source.js";

/** The tool the menu tells the model to call by default. */
export const DEFAULT_SKILL_MENU_TOOL_NAME = "use_skill";

/** The heading of the menu. */
export const SKILL_MENU_HEADING = "## Skills";

/** Options of {@link renderSkillMenu}. */
export interface RenderSkillMenuOptions {
  /** The tool that loads a skill, named in the menu's first sentence. Default `"use_skill"`. */
  toolName?: string;
}

/** Whitespace (line breaks included) collapsed to single spaces, so one entry is one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function byName(a: SkillSummary, b: SkillSummary): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Renders the skill menu for a system prompt: a heading, one sentence saying how to load a
 * skill, and one `- name: description` line per skill, sorted by name (code-unit order, never the
 * locale's), each description on one line. The same skills give the same bytes whatever order
 * they come in, so the system prompt — and a provider's prompt cache — stays put until a skill is
 * added, removed or re-described. No skills: the empty string (append nothing).
 *
 * @param menu - the skills (e.g. `registry.menu()`)
 * @param options - the tool the menu names
 * @returns the menu text (no trailing newline), or `""` when there are no skills
 * @example
 * renderSkillMenu([{ name: "deploy-service", description: "Roll out a service to production." }]);
 * // "## Skills\n\nWhen a task matches one of these skills, call use_skill with its name first and follow what it says.\n\n- deploy-service: Roll out a service to production."
 */
export function renderSkillMenu(
  menu: readonly SkillSummary[],
  options: RenderSkillMenuOptions = {},
): string {
  if (menu.length === 0) return "";
  const toolName = options.toolName ?? DEFAULT_SKILL_MENU_TOOL_NAME;
  const lines = [...menu]
    .sort(byName)
    .map((skill) => `- ${oneLine(skill.name)}: ${oneLine(skill.description)}`);
  return [
    SKILL_MENU_HEADING,
    "",
    `When a task matches one of these skills, call ${toolName} with its name first and follow what it says.`,
    "",
    ...lines,
  ].join("\n");
}
