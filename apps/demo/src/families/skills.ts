import { fileURLToPath } from "node:url";
import { createSkillTools } from "@agentool/tools-knowledge";
import { SkillRegistry } from "@agentool/tools-knowledge/node";
import { createSkillMenuMiddleware } from "../skill-menu-middleware.js";
import type { DemoFamily } from "./demo-family.js";

/** The demo's skills folder (`apps/demo/skills`): one `<skill>/SKILL.md` per skill. */
export const DEMO_SKILLS_DIRECTORY = fileURLToPath(new URL("../../skills/", import.meta.url));

/**
 * The runtime-skills part of `@agentool/tools-knowledge`: a `SkillRegistry` over `skills/`, the
 * live menu appended to the system message by {@link createSkillMenuMiddleware}, and
 * `use_skill` / `read_skill_file`. The loop it shows: the menu lists `commit-a-fix` → the agent
 * loads it with `use_skill` (the procedure, and its reference file listed with a line count) →
 * reads that one file with `read_skill_file` because a step needs it.
 */
export const skillsFamily: DemoFamily = {
  name: "skills",
  createTools: ({ addMiddleware }) => {
    const registry = new SkillRegistry(DEMO_SKILLS_DIRECTORY, {
      onWarn: (message) => process.stderr.write(`skills: ${message}\n`),
    });
    addMiddleware(createSkillMenuMiddleware(registry));
    return createSkillTools({ registry });
  },
  tasks: [
    {
      step: "Load the commit-a-fix skill and read the commit message rules it points to",
      turns: [
        { toolCalls: [{ name: "use_skill", arguments: { name: "commit-a-fix" } }] },
        {
          toolCalls: [
            {
              name: "read_skill_file",
              arguments: { skill: "commit-a-fix", path: "references/commit-message.md" },
            },
          ],
        },
      ],
    },
  ],
  findings: [
    "The commit-a-fix skill (from the live skill menu) says how commits are written: `<area>: <what changed>`.",
  ],
};
