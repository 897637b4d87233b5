import { AgentoolError, toJsonSchema, toOutputJsonSchema } from "@agentool/contract";
import { describe, expect, expectTypeOf, it, vi } from "vitest";
import type { z } from "zod";
import {
  createUpdatePlanTool,
  formatPlanChecklist,
  type PlanStep,
  type PlanUpdate,
  type UpdatePlanToolData,
  updatePlanOutputSchema,
} from "./update-plan.js";

const threeSteps = [
  { step: "Read the README", status: "completed" },
  { step: "Fix the typo in src/app.ts", status: "in_progress" },
  { step: "Summarise the change" },
];

async function refusal(input: unknown, options?: Parameters<typeof createUpdatePlanTool>[0]) {
  const result = await createUpdatePlanTool(options).run(input);
  if (result.success) throw new Error(`expected a refusal, got ${JSON.stringify(result.data)}`);
  expect(result.error.code).toBe("INVALID_INPUT");
  return result.error;
}

describe("createUpdatePlanTool", () => {
  it("echoes the canonical plan, defaulting status to pending and trimming steps", async () => {
    const updatePlan = createUpdatePlanTool();
    const result = await updatePlan.run({
      explanation: "  Starting work.  ",
      plan: [...threeSteps.slice(0, 2), { step: "  Summarise the change \n" }],
    });
    expect(result).toEqual({
      success: true,
      data: {
        plan: [
          { step: "Read the README", status: "completed" },
          { step: "Fix the typo in src/app.ts", status: "in_progress" },
          { step: "Summarise the change", status: "pending" },
        ],
        explanation: "Starting work.",
        completed_steps: 1,
        total_steps: 3,
      } satisfies UpdatePlanToolData,
    });
  });

  it("renders a summary line followed by a checklist", async () => {
    const updatePlan = createUpdatePlanTool();
    const result = await updatePlan.run({ plan: threeSteps });
    expect(updatePlan.renderResult(result)).toBe(
      [
        'Plan updated (1/3 done): working on "Fix the typo in src/app.ts".',
        "[x] Read the README",
        "[~] Fix the typo in src/app.ts",
        "[ ] Summarise the change",
      ].join("\n"),
    );
  });

  it("says what is next when no step is in progress, and when everything is done", async () => {
    const updatePlan = createUpdatePlanTool();
    const next = await updatePlan.run({
      plan: [{ step: "A", status: "completed" }, { step: "B" }],
    });
    expect(updatePlan.renderResult(next)).toMatch(/^Plan updated \(1\/2 done\): next is "B"\./);
    const done = await updatePlan.run({
      plan: [
        { step: "A", status: "completed" },
        { step: "B", status: "completed" },
      ],
    });
    expect(updatePlan.renderResult(done)).toBe(
      "Plan updated (2/2 done): all steps completed.\n[x] A\n[x] B",
    );
  });

  it("treats null as not given, as OpenAI strict mode sends for optional fields", async () => {
    const result = await createUpdatePlanTool().run({
      explanation: null,
      plan: [
        { step: "A", status: null },
        { step: "B", status: "completed" },
      ],
    });
    expect(result).toEqual({
      success: true,
      data: {
        plan: [
          { step: "A", status: "pending" },
          { step: "B", status: "completed" },
        ],
        completed_steps: 1,
        total_steps: 2,
      },
    });
  });

  it("leaves explanation out of the data when none (or only spaces) was given", async () => {
    const result = await createUpdatePlanTool().run({ explanation: "   ", plan: [{ step: "A" }] });
    expect(result.success && "explanation" in result.data).toBe(false);
  });

  it("is idempotent: the same full plan twice gives the same result", async () => {
    const updatePlan = createUpdatePlanTool();
    expect(await updatePlan.run({ plan: threeSteps })).toEqual(
      await updatePlan.run({ plan: threeSteps }),
    );
  });

  it("has its annotations, tags, default name and a description that teaches full-plan calls", () => {
    const updatePlan = createUpdatePlanTool();
    expect(updatePlan.name).toBe("update_plan");
    expect(updatePlan.annotations).toMatchObject({ idempotent: true });
    expect(updatePlan.annotations.readOnly).toBeUndefined();
    expect(updatePlan.annotations.destructive).toBeUndefined();
    expect(updatePlan.tags).toEqual(["core", "plan"]);
    expect(updatePlan.description).toMatch(/complete plan/);
    expect(updatePlan.description).toMatch(/in_progress/);
  });

  it("teaches full-plan calls in at most 300 characters, without restating its fields (issue 28 point 9)", () => {
    const description = createUpdatePlanTool().description;
    expect(description.length).toBeLessThanOrEqual(300);
    expect(description).not.toMatch(/"pending"|"completed"|At most \d+/);
  });

  it("advertises the statuses and the configured limits in its JSON Schema", () => {
    const schema = toJsonSchema(createUpdatePlanTool({ maxSteps: 8, maxStepCharacters: 120 }));
    expect(schema.required).toEqual(["plan"]);
    const text = JSON.stringify(schema);
    expect(text).toContain('"enum":["pending","in_progress","completed"]');
    expect(text).toContain("1 to 8 steps");
    expect(text).toContain("at most 120 characters");
  });

  it("takes name and description overrides", () => {
    const tool = createUpdatePlanTool({ name: "set_tasks", description: "Track tasks." });
    expect(tool.name).toBe("set_tasks");
    expect(tool.description).toBe("Track tasks.");
  });

  describe("refusals name the offending index", () => {
    it("a step over the character limit", async () => {
      const plan = [{ step: "a" }, { step: "b" }, { step: "c" }, { step: "x".repeat(612) }];
      const error = await refusal({ plan });
      expect(error.message).toContain("plan[3].step is 612 characters; the limit is 500");
      expect(error.hint).toMatch(/complete plan/);
    });

    it("a step over a configured character limit", async () => {
      const error = await refusal({ plan: [{ step: "12345678901" }] }, { maxStepCharacters: 10 });
      expect(error.message).toContain("plan[0].step is 11 characters; the limit is 10");
    });

    it("an empty or blank step", async () => {
      const error = await refusal({ plan: [{ step: "ok" }, { step: "   " }] });
      expect(error.message).toContain("plan[1].step is empty");
    });

    it("more steps than allowed", async () => {
      const plan = Array.from({ length: 21 }, (_, index) => ({ step: `Step ${index + 1}` }));
      const error = await refusal({ plan });
      expect(error.message).toContain("plan has 21 steps; the limit is 20");
      expect(error.message).toContain("plan[20]");
    });

    it("more steps than a configured limit", async () => {
      const error = await refusal(
        { plan: [{ step: "a" }, { step: "b" }, { step: "c" }] },
        { maxSteps: 2 },
      );
      expect(error.message).toContain("plan has 3 steps; the limit is 2");
    });

    it("two steps in progress", async () => {
      const error = await refusal({
        plan: [
          { step: "a", status: "completed" },
          { step: "b", status: "in_progress" },
          { step: "c" },
          { step: "d", status: "in_progress" },
        ],
      });
      expect(error.message).toContain('plan[1], plan[3] are all "in_progress"');
      expect(error.message).toContain("at most one step may be in progress");
    });

    it("an unknown status", async () => {
      const error = await refusal({ plan: [{ step: "a" }, { step: "b", status: "done" }] });
      expect(error.message).toContain("plan[1].status");
      expect(error.message).toContain("in_progress");
    });

    it("a step that is not a string", async () => {
      const error = await refusal({ plan: [{ step: "a" }, { step: 7 }] });
      expect(error.message).toContain("plan[1].step");
    });

    it("an unknown field inside a step", async () => {
      const error = await refusal({ plan: [{ step: "a", owner: "me" }] });
      expect(error.message).toContain("plan[0]");
      expect(error.message).toContain("owner");
    });

    it("an empty plan", async () => {
      const error = await refusal({ plan: [] });
      expect(error.message).toContain("plan is empty");
    });

    it("a missing plan", async () => {
      const error = await refusal({ explanation: "forgot it" });
      expect(error.message).toMatch(/plan: required field is missing/);
    });

    it("several problems at once, each named, and at most ten listed", async () => {
      const twoProblems = await refusal({ plan: [{ step: "" }, { step: "ok" }, { step: " " }] });
      expect(twoProblems.message).toContain("plan[0].step is empty");
      expect(twoProblems.message).toContain("plan[2].step is empty");

      const many = await refusal({ plan: Array.from({ length: 15 }, () => ({ step: "" })) });
      expect(many.message).toContain("plan[9].step is empty");
      expect(many.message).not.toContain("plan[10].step");
      expect(many.message).toContain("and 5 more problems");
    });
  });

  describe("onUpdate", () => {
    it("receives the canonical plan, explanation and the call's ids", async () => {
      const updates: PlanUpdate[] = [];
      const updatePlan = createUpdatePlanTool({ onUpdate: (update) => updates.push(update) });
      await updatePlan.run(
        { explanation: "first", plan: threeSteps },
        { threadId: "thread-1", toolCallId: "call-1" },
      );
      expect(updates).toEqual([
        {
          plan: [
            { step: "Read the README", status: "completed" },
            { step: "Fix the typo in src/app.ts", status: "in_progress" },
            { step: "Summarise the change", status: "pending" },
          ],
          explanation: "first",
          threadId: "thread-1",
          toolCallId: "call-1",
        },
      ]);
    });

    it("gets a copy: changing it does not change the result", async () => {
      const updatePlan = createUpdatePlanTool({
        onUpdate: ({ plan }) => {
          (plan[0] as PlanStep).step = "tampered";
        },
      });
      const result = await updatePlan.run({ plan: [{ step: "A" }] });
      expect(result.success && result.data.plan[0]?.step).toBe("A");
    });

    it("is not called for a refused plan", async () => {
      const onUpdate = vi.fn();
      await createUpdatePlanTool({ onUpdate }).run({ plan: [] });
      expect(onUpdate).not.toHaveBeenCalled();
    });

    it("never breaks the call when it throws", async () => {
      const updatePlan = createUpdatePlanTool({
        onUpdate: () => {
          throw new Error("database down");
        },
      });
      const result = await updatePlan.run({ plan: threeSteps });
      expect(result.success).toBe(true);
    });

    it("never breaks the call when it rejects, and leaves no unhandled rejection", async () => {
      const unhandled = vi.fn();
      process.on("unhandledRejection", unhandled);
      try {
        const updatePlan = createUpdatePlanTool({
          onUpdate: async () => {
            throw new Error("database down");
          },
        });
        const result = await updatePlan.run({ plan: threeSteps });
        expect(result.success).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(unhandled).not.toHaveBeenCalled();
      } finally {
        process.off("unhandledRejection", unhandled);
      }
    });
  });

  it("rejects invalid options with an AgentoolError naming the problem", () => {
    expect(() => createUpdatePlanTool({ maxSteps: 0 })).toThrow(AgentoolError);
    expect(() => createUpdatePlanTool({ maxSteps: 0 })).toThrow(/maxSteps/);
    expect(() => createUpdatePlanTool({ maxStepCharacters: 2.5 })).toThrow(/maxStepCharacters/);
    expect(() => createUpdatePlanTool({ onUpdate: {} as never })).toThrow(/onUpdate/);
    expect(() => createUpdatePlanTool({ maxStep: 5 } as never)).toThrow(/maxStep/);
  });
});

describe("the declared output schema", () => {
  it("is the data type exactly", () => {
    expectTypeOf<z.output<typeof updatePlanOutputSchema>>().toEqualTypeOf<UpdatePlanToolData>();
    expect(createUpdatePlanTool().output).toBe(updatePlanOutputSchema);
  });

  it("parses the data with and without an explanation, dropping and reordering nothing", async () => {
    const updatePlan = createUpdatePlanTool();
    for (const input of [
      { plan: threeSteps },
      { plan: threeSteps, explanation: "Moved on to the fix." },
      { plan: [{ step: "Only", status: "completed" }] },
    ]) {
      const result = await updatePlan.run(input);
      if (!result.success) throw new Error(result.error.message);
      expect(JSON.stringify(updatePlanOutputSchema.parse(result.data))).toBe(
        JSON.stringify(result.data),
      );
    }
  });

  it("gives a JSON Schema that requires every key but explanation and admits no other", () => {
    const schema = toOutputJsonSchema(createUpdatePlanTool());
    expect(schema?.required).toEqual(["plan", "completed_steps", "total_steps"]);
    expect(Object.keys(schema?.properties as object)).toEqual([
      "plan",
      "completed_steps",
      "total_steps",
      "explanation",
    ]);
    expect(schema?.additionalProperties).toBe(false);
  });
});

describe("formatPlanChecklist", () => {
  it("marks each status", () => {
    expect(
      formatPlanChecklist([
        { step: "done", status: "completed" },
        { step: "doing", status: "in_progress" },
        { step: "todo", status: "pending" },
      ]),
    ).toBe("[x] done\n[~] doing\n[ ] todo");
  });
});
