import { describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import { coreFamily } from "./core.js";
import { skillsFamily } from "./skills.js";

describe("the skills family", () => {
  it("loads a skill from the menu and reads the one reference file a step needs", async () => {
    const run = await runDemo({ families: [coreFamily, skillsFamily] });
    expect(run.summary.failure).toBeUndefined();
    expect(run.summary.toolErrors).toBe(0);
    const results = run.events.flatMap((event) => (event.type === "tool_result" ? [event] : []));
    const useSkill = results.find((result) => result.name === "use_skill");
    expect(useSkill?.content).toContain("Skill commit-a-fix — Review and commit one fix");
    expect(useSkill?.content).toContain("- references/commit-message.md (6 lines,");
    expect(useSkill?.content).not.toContain("present tense");
    const read = results.find((result) => result.name === "read_skill_file");
    expect(read?.content).toContain("commit-a-fix/references/commit-message.md — lines 1–6 of 6");
    expect(read?.content).toContain("present tense");
  });
});
