import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  requireBuiltCli,
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { skillFile } from "./test-support/tool-results.js";

let skills: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  requireBuiltCli();
  skills = temporaryDirectory({
    "deploy-service/SKILL.md": skillFile(
      "deploy-service",
      "Roll out a service to production safely.",
      "# Deploy\n\n1. Read references/checklist.md.\n2. Tag the release.\n",
    ),
    "deploy-service/references/checklist.md": "# Checklist\n\n- tests green\n",
    "triage-bug/SKILL.md": skillFile("triage-bug", "Reproduce and classify a bug.", "# Triage\n"),
  });
});

afterAll(() => skills?.cleanup());

describe("skills as MCP prompts", () => {
  let session: StdioSession;

  beforeAll(async () => {
    session = await startStdioSession(["--families", "core,skills", "--skills-dir", skills.path]);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("declares the prompts capability and lists each skill with its description", async () => {
    expect(session.client.getServerCapabilities()?.prompts).toBeDefined();
    const listed = await session.client.listPrompts();
    expect(listed.prompts).toEqual([
      {
        name: "deploy-service",
        title: "deploy-service",
        description: "Roll out a service to production safely.",
      },
      { name: "triage-bug", title: "triage-bug", description: "Reproduce and classify a bug." },
    ]);
  });

  it("returns a skill's instructions as one user message, as use_skill renders them", async () => {
    const prompt = await session.client.getPrompt({ name: "deploy-service" });
    expect(prompt.description).toBe("Roll out a service to production safely.");
    expect(prompt.messages).toHaveLength(1);
    const [message] = prompt.messages;
    expect(message?.role).toBe("user");
    expect(message?.content.type).toBe("text");
    const text = message?.content.type === "text" ? message.content.text : "";
    expect(text).toContain("Skill deploy-service — Roll out a service to production safely.");
    expect(text).toContain("1. Read references/checklist.md.\n2. Tag the release.");
    expect(text).toContain('read_skill_file skill="deploy-service" path="…"');
    expect(text).toContain("- references/checklist.md (3 lines");
    // The same text use_skill returns: one renderer for both.
    const tool = await session.client.callTool({
      name: "use_skill",
      arguments: { name: "deploy-service" },
    });
    const toolText = (tool.content as { type: string; text?: string }[])
      .map((block) => block.text ?? "")
      .join("\n");
    expect(toolText).toBe(text);
  });

  it("lists a skill installed while the server runs, and answers an unknown name with -32602", async () => {
    mkdirSync(join(skills.path, "write-docs"));
    writeFileSync(
      join(skills.path, "write-docs", "SKILL.md"),
      skillFile("write-docs", "Write user docs.", "Start from the README.\n"),
    );
    const names = (await session.client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toEqual(["deploy-service", "triage-bug", "write-docs"]);
    try {
      await session.client.getPrompt({ name: "deploy-servce" });
      throw new Error("an unknown prompt was answered");
    } catch (error) {
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toContain(
        'Unknown prompt: "deploy-servce". Did you mean "deploy-service"?',
      );
      expect((error as McpError).message).toMatch(/^MCP error -32602: Unknown prompt:/);
    }
  });
});

it("declares no prompts capability when the skills family is not served", async () => {
  const session = await startStdioSession(["--families", "core"]);
  try {
    expect(session.client.getServerCapabilities()?.prompts).toBeUndefined();
    await expect(session.client.listPrompts()).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
  } finally {
    await session.close();
  }
});
