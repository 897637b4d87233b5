import { AgentoolError } from "@agentool/contract";
import { describe, expect, it, vi } from "vitest";
import { createCoreTools } from "./core-tools.js";

describe("createCoreTools", () => {
  it("returns think and update_plan", () => {
    const tools = createCoreTools();
    expect(tools.map((tool) => tool.name)).toEqual(["think", "update_plan"]);
  });

  it("passes each tool its own options", async () => {
    const onThought = vi.fn();
    const [think, updatePlan] = createCoreTools({
      think: { name: "reflect", onThought },
      updatePlan: { maxSteps: 1 },
    });
    expect(think.name).toBe("reflect");
    await think.run({ thought: "hm" });
    expect(onThought).toHaveBeenCalledWith("hm", { toolCallId: undefined, threadId: undefined });
    const result = await updatePlan.run({ plan: [{ step: "a" }, { step: "b" }] });
    expect(result.success).toBe(false);
  });

  it("rejects unknown or invalid options", () => {
    expect(() => createCoreTools({ plan: {} } as never)).toThrow(AgentoolError);
    expect(() => createCoreTools({ think: { mood: "calm" } as never })).toThrow(/mood/);
    expect(() => createCoreTools({ updatePlan: 3 as never })).toThrow(/updatePlan/);
  });
});
