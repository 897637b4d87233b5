import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENTOOL_TOOL_NAMES, findAbsentToolNames } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "./command-line.js";
import { createAgentoolMcpServer } from "./create-agentool-mcp-server.js";
import {
  requireBuiltCli,
  runCli,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { callTool as call, skillFile, resultText as text } from "./test-support/tool-results.js";

const SKILL_TOOLS = ["use_skill", "read_skill_file"];

let skills: ReturnType<typeof temporaryDirectory>;
let other: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  requireBuiltCli();
  skills = temporaryDirectory({
    "deploy-service/SKILL.md": skillFile(
      "deploy-service",
      "Roll out a service to production safely.",
      "# Deploy\n\n1. Read references/checklist.md.\n",
    ),
    "deploy-service/references/checklist.md": "# Checklist\n\n- tests green\n- changelog\n",
    "triage-bug/SKILL.md": skillFile("triage-bug", "Reproduce and classify a bug.", "# Triage\n"),
    "triage-bug/notes.md": "triage notes\n",
    "broken/SKILL.md": "no front matter\n",
  });
  other = temporaryDirectory({ "secret.txt": "outside the skills folder\n" });
  symlinkSync(join(other.path, "secret.txt"), join(skills.path, "deploy-service", "escape.md"));
});

afterAll(() => {
  skills?.cleanup();
  other?.cleanup();
});

describe("skills family", () => {
  it("parses --skills-dir and refuses the flags that do not fit together", async () => {
    expect(parseCommandLine(["--families", "skills", "--skills-dir", "/tmp/s"])).toMatchObject({
      action: "serve",
      options: { families: ["skills"], skillsDir: "/tmp/s" },
    });
    expect(parseCommandLine(["--skills-dir", "/tmp/s"])).toMatchObject({
      options: { families: expect.arrayContaining(["skills"]), skillsDir: "/tmp/s" },
    });
    const missing = await runCli(["--families", "skills"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "The skills family serves the skills of a folder: add --skills-dir <dir>",
    );
    const wrongFamily = await runCli(["--families", "core", "--skills-dir", skills.path]);
    expect(wrongFamily.code).toBe(2);
    expect(wrongFamily.stderr).toContain(
      "--skills-dir configures the skills family: add skills to --families or drop --skills-dir.",
    );
    expect((await runCli(["--help"])).stdout).toContain("--skills-dir <dir>");
    // The library: the default families hold skills only when they have a folder.
    const server = createAgentoolMcpServer({ log: () => undefined });
    expect(server.toolNames.filter((name) => SKILL_TOOLS.includes(name))).toEqual([]);
    await server.dispose();
    const withSkills = createAgentoolMcpServer({ skillsDir: skills.path, log: () => undefined });
    expect(withSkills.toolNames.filter((name) => SKILL_TOOLS.includes(name))).toEqual(SKILL_TOOLS);
    await withSkills.dispose();
  });

  it("serves use_skill and read_skill_file over stdio, confined to each skill's folder", async () => {
    const session = await startStdioSession(["--families", "skills", "--skills-dir", skills.path]);
    try {
      const listed = await session.client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(SKILL_TOOLS);
      for (const tool of listed.tools) {
        expect(
          findAbsentToolNames(tool.description ?? "", new Set(SKILL_TOOLS), AGENTOOL_TOOL_NAMES),
        ).toEqual([]);
        expect(tool.annotations?.readOnlyHint).toBe(true);
      }
      const useSkill = listed.tools.find((tool) => tool.name === "use_skill");
      expect(useSkill?.description).toContain("Skills: deploy-service, triage-bug");
      // An MCP client never shows the server's skill menu: the description must not point to one.
      expect(useSkill?.description).not.toMatch(/menu|your instructions/);
      await session.waitForStderr("Skipped skill broken:");

      const loaded = await call(session, "use_skill", { name: "deploy-service" });
      expect(loaded.isError).not.toBe(true);
      expect(text(loaded)).toContain("1. Read references/checklist.md.");
      expect(text(loaded)).toContain("- references/checklist.md (4 lines, 39 bytes)");
      expect(text(loaded)).not.toContain("tests green");

      const read = await call(session, "read_skill_file", {
        skill: "deploy-service",
        path: "references/checklist.md",
      });
      expect(text(read)).toContain("deploy-service/references/checklist.md — lines 1–4 of 4");

      for (const path of ["../triage-bug/notes.md", "escape.md", join(other.path, "secret.txt")]) {
        const refused = await call(session, "read_skill_file", { skill: "deploy-service", path });
        expect(refused.isError).toBe(true);
        expect(text(refused)).toMatch(/^Error \[INVALID_PATH\]/);
        expect(text(refused)).not.toContain("outside the skills folder");
      }

      // A skill installed while the server runs is found by name (the registry scans again).
      mkdirSync(join(skills.path, "write-docs"));
      writeFileSync(
        join(skills.path, "write-docs", "SKILL.md"),
        skillFile("write-docs", "Write user docs.", "# Docs\n\nStart from the README.\n"),
      );
      const fresh = await call(session, "use_skill", { name: "write-docs" });
      expect(text(fresh)).toContain("Start from the README.");

      const unknown = await call(session, "use_skill", { name: "deploy" });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toContain("- deploy-service: Roll out a service to production safely.");
    } finally {
      await session.close();
    }
  }, 60_000);
});
