import { editDistance, fail, formatTruncationMarker, type ToolFailure } from "@agentool/contract";
import type { SkillSummary } from "../skill-source.js";

/** Most skills an unknown-name failure lists (the closest first). */
const MAX_LISTED_SKILLS = 40;

/**
 * The one failure for a skill name not in the menu (`INVALID_INPUT`): the closest name, and the
 * menu (closest first, at most 40) in the hint.
 *
 * @param tool - the tool that was called
 * @param name - the name sent
 * @param menu - the current skills
 * @returns the failure
 * @internal
 */
export function unknownSkill(
  tool: string,
  name: string,
  menu: readonly SkillSummary[],
): ToolFailure {
  if (menu.length === 0) {
    return fail(
      "INVALID_INPUT",
      `There is no skill named ${JSON.stringify(name)}: no skills are installed.`,
      {
        hint: "Carry on without a skill: none can be loaded until one is installed.",
      },
    );
  }
  const wanted = name.trim().toLowerCase();
  const ranked = [...menu].sort(
    (a, b) =>
      editDistance(wanted, a.name) - editDistance(wanted, b.name) || (a.name < b.name ? -1 : 1),
  );
  const closest = ranked[0];
  const guess =
    closest !== undefined &&
    editDistance(wanted, closest.name) <= Math.max(2, Math.floor(wanted.length / 3))
      ? ` Did you mean ${JSON.stringify(closest.name)}?`
      : "";
  const listed = ranked
    .slice(0, MAX_LISTED_SKILLS)
    .map((skill) => `- ${skill.name}: ${skill.description}`);
  const more =
    menu.length > MAX_LISTED_SKILLS
      ? `\n${formatTruncationMarker({ omitted: menu.length - MAX_LISTED_SKILLS, unit: "skills", next: "the closest names are listed first" })}`
      : "";
  return fail("INVALID_INPUT", `There is no skill named ${JSON.stringify(name)}.${guess}`, {
    hint: `Call ${tool} again with one of these names:\n${listed.join("\n")}${more}`,
  });
}
