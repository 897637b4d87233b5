import { z } from "zod";
import type { SkillSource } from "../skill-source.js";

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
