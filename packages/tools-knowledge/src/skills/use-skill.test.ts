import { AgentoolError, contentToText, toJsonSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createSkillTools } from "./create-skill-tools.js";
import { SkillRegistry } from "./node/skill-registry.js";
import { useSkillFolders } from "./test-support/skill-folders.js";
import { createUseSkillTool, formatUseSkillResult, type UseSkillTool } from "./use-skill.js";

const folders = useSkillFolders();

function deploySkills() {
  const root = folders.folder();
  folders.skill(
    root,
    "deploy-service",
    "Roll out a service to production safely.",
    {
      "references/checklist.md": "# Checklist\n\n- tests green\n- changelog\n",
      "scripts/rollback.sh": "#!/bin/sh\necho rollback\n",
    },
    "# Deploy\n\n1. Read references/checklist.md.\n2. Tag the release.\n",
  );
  folders.skill(root, "triage-bug", "Reproduce and classify a bug report.");
  return root;
}

describe("use_skill", () => {
  it("passes the conformance kit, with and without read_skill_file beside it", async () => {
    const registry = new SkillRegistry(deploySkills());
    await assertConformance(createSkillTools({ registry }), {
      samples: {
        use_skill: { name: "deploy-service" },
        read_skill_file: { skill: "deploy-service", path: "references/checklist.md" },
      },
    });
    const alone = createUseSkillTool({ registry });
    await assertConformance([alone], { samples: { use_skill: { name: "triage-bug" } } });
    expect(alone.description).not.toContain("read_skill_file");
  });

  it("places the skill menu in the instructions only when the host says it put it there", () => {
    const registry = new SkillRegistry(deploySkills());
    const [useSkill, readSkillFile] = createSkillTools({ registry });
    expect(useSkill?.description).toContain(
      "listed by name in the skill menu of your instructions",
    );
    // Over MCP (or any host without renderSkillMenu in the prompt) there is no menu to point to.
    const [bare, bareReader] = createSkillTools({
      registry,
      useSkill: { menuInInstructions: false },
    });
    expect(bare?.description).not.toMatch(/menu|instructions/);
    expect(bare?.description).toContain("An unknown name lists the skills");
    // Field descriptions hold in both settings: no menu the model may never have seen.
    for (const tool of [useSkill, readSkillFile, bare, bareReader]) {
      expect(JSON.stringify(toJsonSchema(tool as UseSkillTool))).not.toContain("menu");
    }
  });

  it("returns the body and lists the reference files with line counts, never their content", async () => {
    const [useSkill] = createSkillTools({ registry: new SkillRegistry(deploySkills()) });
    const result = await useSkill?.run({ name: "deploy-service" });
    expect(result).toEqual({
      success: true,
      data: {
        name: "deploy-service",
        description: "Roll out a service to production safely.",
        body: "# Deploy\n\n1. Read references/checklist.md.\n2. Tag the release.\n",
        body_start_line: 5,
        files: [
          { path: "references/checklist.md", bytes: 39, lines: 4 },
          { path: "scripts/rollback.sh", bytes: 24, lines: 2 },
        ],
        files_total: 2,
      },
    });
    const text = contentToText(useSkill?.renderResult(result as never) ?? "");
    expect(text).toBe(
      [
        "Skill deploy-service — Roll out a service to production safely.",
        "",
        "# Deploy",
        "",
        "1. Read references/checklist.md.",
        "2. Tag the release.",
        "",
        'Reference files (2) — read one only when a step needs it, with read_skill_file skill="deploy-service" path="…":',
        "- references/checklist.md (4 lines, 39 bytes)",
        "- scripts/rollback.sh (2 lines, 24 bytes)",
      ].join("\n"),
    );
    expect(text).not.toContain("tests green");
  });

  it("says when a skill has no reference files", async () => {
    const useSkill = createUseSkillTool({ registry: new SkillRegistry(deploySkills()) });
    const result = await useSkill.run({ skill: "triage-bug" });
    expect(result.success && result.data.files_total).toBe(0);
    expect(contentToText(useSkill.renderResult(result))).toContain(
      "This skill has no reference files.",
    );
  });

  it("answers an unknown name with INVALID_INPUT, the closest name and the menu", async () => {
    const useSkill = createUseSkillTool({ registry: new SkillRegistry(deploySkills()) });
    const result = await useSkill.run({ name: "deploy-servce" });
    expect(result).toEqual({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: 'There is no skill named "deploy-servce". Did you mean "deploy-service"?',
        hint: [
          "Call use_skill again with one of these names:",
          "- deploy-service: Roll out a service to production safely.",
          "- triage-bug: Reproduce and classify a bug report.",
        ].join("\n"),
      },
    });
    const none = createUseSkillTool({ registry: new SkillRegistry(folders.folder()) });
    const empty = await none.run({ name: "anything" });
    expect(empty.success === false && empty.error.message).toBe(
      'There is no skill named "anything": no skills are installed.',
    );
    // The hint names no skill menu: an MCP client never shows one.
    expect(empty.success === false && empty.error.hint).not.toContain("menu");
  });

  it("finds a skill installed after the last scan, and sees a removed one go", async () => {
    const root = deploySkills();
    const registry = new SkillRegistry(root);
    const useSkill = createUseSkillTool({ registry });
    folders.skill(root, "write-docs", "Write user docs.", {}, "# Docs\n");
    const found = await useSkill.run({ name: "write-docs" });
    expect(found.success && found.data.body).toBe("# Docs\n");
    folders.skill(root, "write-docs", "Write user docs.", {}, "# Docs, revised\n");
    const revised = await useSkill.run({ name: "write-docs" });
    expect(revised.success && revised.data.body).toBe("# Docs, revised\n");
    const { rmSync } = await import("node:fs");
    rmSync(`${root}/write-docs`, { recursive: true });
    const gone = await useSkill.run({ name: "write-docs" });
    expect(gone.success === false && gone.error.code).toBe("INVALID_INPUT");
  });

  it("caps the file listing with the contract's marker", async () => {
    const root = folders.folder();
    const files: Record<string, string> = {};
    for (let index = 0; index < 12; index += 1)
      files[`references/part-${String(index).padStart(2, "0")}.md`] = "x\n";
    folders.skill(root, "big", "Many files.", files);
    const tools = createSkillTools({ registry: new SkillRegistry(root, { maxListedFiles: 5 }) });
    const useSkill = tools[0] as UseSkillTool;
    const result = await useSkill.run({ name: "big" });
    expect(result.success && result.data.files.length).toBe(5);
    expect(result.success && result.data.files_total).toBe(12);
    const text = contentToText(useSkill.renderResult(result));
    expect(text).toContain("Reference files (12)");
    expect(text).toContain(
      "…[truncated: 7 more files — read_skill_file reads any of them by path]",
    );
  });

  it("formats binary and too-large files without line counts", () => {
    const text = formatUseSkillResult({
      name: "s",
      description: "d",
      body: "",
      body_start_line: 5,
      files: [
        { path: "a.png", bytes: 10, binary: true },
        { path: "big.log", bytes: 2_000_000, too_large: true },
        { path: "one.md", bytes: 1, lines: 1 },
      ],
      files_total: 3,
    });
    expect(text).toContain("(The skill has no body beyond its description.)");
    expect(text).toContain("- a.png (binary, 10 bytes)");
    expect(text).toContain("- big.log (2,000,000 bytes, too large to read)");
    expect(text).toContain("- one.md (1 line, 1 byte)");
    expect(text).toContain("(they cannot be read here)");
  });

  it("refuses options without a registry", () => {
    expect(() => createUseSkillTool({} as never)).toThrow(AgentoolError);
    expect(() => createUseSkillTool({ registry: {} as never })).toThrow(/skill registry/);
  });
});
