import { describe, expect, it } from "vitest";
import { renderSkillMenu } from "./render-skill-menu.js";

describe("renderSkillMenu", () => {
  it("is empty without skills", () => {
    expect(renderSkillMenu([])).toBe("");
  });

  it("lists skills sorted by code unit, one line each, whatever the input order", () => {
    const skills = [
      { name: "zeta", description: "Last.\nWith a line break  and   spaces." },
      { name: "alpha", description: "First." },
      { name: "alpha-2", description: "Second." },
    ];
    const menu = renderSkillMenu(skills);
    expect(menu).toBe(
      [
        "## Skills",
        "",
        "When a task matches one of these skills, call use_skill with its name first and follow what it says.",
        "",
        "- alpha: First.",
        "- alpha-2: Second.",
        "- zeta: Last. With a line break and spaces.",
      ].join("\n"),
    );
    expect(renderSkillMenu([...skills].reverse())).toBe(menu);
    expect(renderSkillMenu(skills, { toolName: "load_skill" })).toContain("call load_skill with");
  });
});
