import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { DemoFamily } from "./families/demo-family.js";
import { buildScript, createScriptedModel, REPORT_STEP } from "./scripted-model.js";

const family: DemoFamily = {
  name: "sample",
  createTools: () => [],
  tasks: [
    { step: "First", turns: [{ toolCalls: [{ name: "think", arguments: { thought: "1" } }] }] },
    { step: "Second", turns: [{ text: "Looking.", toolCalls: [] }] },
  ],
  findings: ["It works."],
};

describe("buildScript", () => {
  it("publishes the plan, runs each task, ticks the plan after each, then answers", () => {
    const turns = buildScript([family]);
    const names = turns.map((turn) => turn.toolCalls.map((call) => call.name).join("+"));
    expect(names).toEqual([
      "update_plan",
      "think",
      "update_plan",
      "",
      "update_plan",
      "update_plan",
      "",
    ]);
    const plans = turns.flatMap((turn) =>
      turn.toolCalls
        .filter((call) => call.name === "update_plan")
        .map((call) => call.arguments.plan),
    );
    expect(plans[0]).toEqual([
      { step: "First", status: "in_progress" },
      { step: "Second", status: "pending" },
      { step: REPORT_STEP, status: "pending" },
    ]);
    expect(plans[1]).toEqual([
      { step: "First", status: "completed" },
      { step: "Second", status: "in_progress" },
      { step: REPORT_STEP, status: "pending" },
    ]);
    expect(plans.at(-1)).toEqual([
      { step: "First", status: "completed" },
      { step: "Second", status: "completed" },
      { step: REPORT_STEP, status: "completed" },
    ]);
    expect(turns.at(-1)).toEqual({
      text: "Here is where things stand:\n- It works.",
      toolCalls: [],
    });
  });
});

describe("createScriptedModel", () => {
  it("answers with the turns in order, numbering tool call ids, and fails when it runs out", async () => {
    const model = createScriptedModel([
      { text: "Thinking.", toolCalls: [{ name: "think", arguments: { thought: "a" } }] },
      { toolCalls: [{ name: "think", arguments: { thought: "b" } }] },
      { text: "Done.", toolCalls: [] },
    ]);
    const first = (await model.invoke([new HumanMessage("go")])) as AIMessage;
    expect(first.text).toBe("Thinking.");
    expect(first.tool_calls).toEqual([
      { id: "call_1", name: "think", args: { thought: "a" }, type: "tool_call" },
    ]);
    const second = (await model.invoke([new HumanMessage("go")])) as AIMessage;
    expect(second.tool_calls?.[0]?.id).toBe("call_2");
    const third = (await model.invoke([new HumanMessage("go")])) as AIMessage;
    expect(AIMessage.isInstance(third) && third.text).toBe("Done.");
    expect(third.tool_calls ?? []).toEqual([]);
    await expect(model.invoke([new HumanMessage("go")])).rejects.toThrow(/no response queued/);
  });
});
