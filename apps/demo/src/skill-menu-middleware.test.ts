import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toLangChainTools } from "@agentool/adapters/langchain";
import { createSkillTools, renderSkillMenu } from "@agentool/tools-knowledge";
import { SkillRegistry } from "@agentool/tools-knowledge/node";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkillMenuMiddleware } from "./skill-menu-middleware.js";

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

function skillsFolder(): string {
  const path = mkdtempSync(join(tmpdir(), "agentool-demo-skills-"));
  made.push(path);
  return path;
}

function writeSkill(root: string, name: string, description: string, body = "# Steps\n") {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(
    join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}`,
  );
}

/** The text of the system message the model received on one call. */
function systemTextOf(messages: readonly BaseMessage[] | undefined): string {
  const first = messages?.[0];
  return first !== undefined && SystemMessage.isInstance(first) ? first.text : "";
}

describe("the skill menu middleware (createAgent + fakeModel)", () => {
  it("appends the live menu to the system message; a skill installed mid-session shows on the next call", async () => {
    const root = skillsFolder();
    writeSkill(root, "triage-bug", "Reproduce and classify a bug report.");
    const registry = new SkillRegistry(root);
    // A tool that installs a skill while the agent runs (as a package manager or the user would).
    const install = tool(
      async ({ name }) => {
        writeSkill(root, name, "Installed mid-session.", "# Fresh\n\nDo the fresh thing.\n");
        return `installed ${name}`;
      },
      {
        name: "install_skill",
        description: "Installs a skill.",
        schema: z.object({ name: z.string().describe("The skill's name.") }),
      },
    );
    const model = fakeModel()
      .respondWithTools([{ id: "i1", name: "install_skill", args: { name: "fresh-skill" } }])
      .respondWithTools([{ id: "u1", name: "use_skill", args: { name: "fresh-skill" } }])
      .respond(new AIMessage("Done."));
    const agent = createAgent({
      model,
      tools: [...toLangChainTools(createSkillTools({ registry })), install],
      systemPrompt: "You are a helpful agent.",
      middleware: [createSkillMenuMiddleware(registry)],
    });
    const state = await agent.invoke({ messages: [new HumanMessage("go")] });

    expect(model.callCount).toBe(3);
    const first = systemTextOf(model.calls[0]?.messages);
    const second = systemTextOf(model.calls[1]?.messages);
    expect(first).toBe(
      `You are a helpful agent.\n\n${renderSkillMenu([{ name: "triage-bug", description: "Reproduce and classify a bug report." }])}`,
    );
    expect(first).not.toContain("fresh-skill");
    expect(second).toContain("- fresh-skill: Installed mid-session.");
    expect(second).toContain("- triage-bug: Reproduce and classify a bug report.");
    // Unchanged skills: the third call's system message is byte-identical to the second's.
    expect(systemTextOf(model.calls[2]?.messages)).toBe(second);
    const loaded = state.messages.find(
      (message) => "tool_call_id" in message && message.tool_call_id === "u1",
    );
    expect(loaded?.text).toContain("Do the fresh thing.");
  });

  it("appends nothing when there are no skills", async () => {
    const registry = new SkillRegistry(skillsFolder());
    const model = fakeModel().respond(new AIMessage("Nothing to do."));
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: "Base prompt.",
      middleware: [createSkillMenuMiddleware(registry)],
    });
    await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(systemTextOf(model.calls[0]?.messages)).toBe("Base prompt.");
  });
});
