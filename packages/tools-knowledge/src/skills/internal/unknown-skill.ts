import { fail, formatTruncationMarker, type ToolFailure } from "@agentool/contract";
import { z } from "zod";
import type { SkillSource, SkillSummary } from "../skills/skill-source.js";

/** Most skills an unknown-name failure lists (the closest first). */
const MAX_LISTED_SKILLS = 40;

/**
 * The `registry` option of the skill tools: anything with `menu`, `loadSkill` and `readSkillFile`.
 *
 * @internal
 */
export const skillSourceOption = z.custom<SkillSource>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as SkillSource).menu === "function" &&
    typeof (value as SkillSource).loadSkill === "function" &&
    typeof (value as SkillSource).readSkillFile === "function",
  {
    error:
      "expected a skill registry (new SkillRegistry(dir) from @agentool/tools-knowledge/node, or an object with menu, loadSkill and readSkillFile)",
  },
);

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j] ?? 0;
      row[j] = Math.min(
        (row[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}

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
        hint: "Carry on without a skill; do not call this tool again until a skill menu appears.",
      },
    );
  }
  const wanted = name.trim().toLowerCase();
  const ranked = [...menu].sort(
    (a, b) => distance(wanted, a.name) - distance(wanted, b.name) || (a.name < b.name ? -1 : 1),
  );
  const closest = ranked[0];
  const guess =
    closest !== undefined &&
    distance(wanted, closest.name) <= Math.max(2, Math.floor(wanted.length / 3))
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
