import { assertConformance, checkConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createCoreTools } from "./core-tools.js";
import { createThinkTool, DEFAULT_THINK_DESCRIPTION } from "./think.js";
import { createUpdatePlanTool } from "./update-plan.js";

const samples = {
  think: { thought: "The README and src/app.ts disagree on the port; check the code first." },
  update_plan: {
    explanation: "Starting.",
    plan: [
      { step: "Read the README", status: "completed" },
      { step: "Fix the port in src/app.ts", status: "in_progress" },
      { step: "Summarise the change", status: "pending" },
    ],
  },
};

describe("contract conformance", () => {
  // Neither tool cuts its output (a plan is capped by maxSteps and refused beyond it, a thought
  // is not echoed), so there are no cutSamples; neither reads an outside world, so none is
  // nondeterministic.
  it("think and update_plan pass the conformance kit together", async () => {
    const [think, updatePlan] = createCoreTools();
    await assertConformance([think, updatePlan], { samples });
  });

  it("each tool passes alone: its description names no tool that is not mounted", async () => {
    await assertConformance([createThinkTool()], { samples: { think: samples.think } });
    await assertConformance([createUpdatePlanTool()], {
      samples: { update_plan: samples.update_plan },
    });
  });

  it("update_plan's data matches its declared output schema, with and without an explanation", async () => {
    const updatePlan = createUpdatePlanTool();
    expect(updatePlan.output).toBeDefined();
    await assertConformance([updatePlan], { samples: { update_plan: samples.update_plan } });
    await assertConformance([updatePlan], {
      samples: { update_plan: { plan: samples.update_plan.plan } },
    });
  });

  it("the kit would catch a description naming the absent sibling", async () => {
    const think = createThinkTool({ mountedTools: ["update_plan"] });
    expect(think.description).toContain("update_plan");
    const report = await checkConformance([think], { samples: { think: samples.think } });
    expect(report.violations.map((violation) => violation.rule)).toContain(
      "description-names-absent-tool",
    );
  });
});

describe("descriptions speak of what is mounted", () => {
  it("createCoreTools tells each tool about the other; alone, neither names it", () => {
    const [think, updatePlan] = createCoreTools();
    expect(think.description).toContain("publish your task list with update_plan");
    expect(updatePlan.description).toContain("reason through a decision with think");
    expect(createThinkTool().description).toBe(DEFAULT_THINK_DESCRIPTION);
    expect(createThinkTool().description).not.toContain("update_plan");
    expect(createUpdatePlanTool().description).not.toMatch(/\bthink\b/);
  });

  it("a renamed sibling is not named by its old name", () => {
    const [think, updatePlan] = createCoreTools({ updatePlan: { name: "set_todos" } });
    expect(think.description).not.toContain("update_plan");
    expect(updatePlan.name).toBe("set_todos");
    expect(updatePlan.description).toContain("think");
  });
});

describe("silent aliases", () => {
  it("think takes thoughts / reasoning for thought", async () => {
    const think = createThinkTool();
    expect(await think.run({ reasoning: "abc" })).toEqual({
      success: true,
      data: { recorded: true, characters: 3 },
    });
    expect((await think.run({ thoughts: "ab" })).success).toBe(true);
  });

  it("update_plan takes steps / todos for plan and note for explanation", async () => {
    const updatePlan = createUpdatePlanTool();
    const result = await updatePlan.run({ note: "Go.", steps: [{ step: "A" }] });
    expect(result).toEqual({
      success: true,
      data: {
        plan: [{ step: "A", status: "pending" }],
        explanation: "Go.",
        completed_steps: 0,
        total_steps: 1,
      },
    });
    expect((await updatePlan.run({ todos: [{ step: "A", status: "completed" }] })).success).toBe(
      true,
    );
    expect(Object.keys(updatePlan.input.shape)).toEqual(["explanation", "plan"]);
  });
});
