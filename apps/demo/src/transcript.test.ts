import { describe, expect, it } from "vitest";
import { formatEvent, formatSummary } from "./transcript.js";

describe("formatEvent", () => {
  it("shortens long results with the standard truncation marker", () => {
    const content = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join("\n");
    const text = formatEvent({
      type: "tool_result",
      toolCallId: "call_1",
      name: "read_file",
      success: true,
      content,
    });
    expect(text).toContain("← read_file ✓\n    line 1\n");
    expect(text).toContain("    line 12\n");
    expect(text).not.toContain("line 13\n");
    expect(text).toContain("…[truncated: 18 more lines");
  });

  it("shows a failure's code and message", () => {
    const text = formatEvent({
      type: "tool_result",
      toolCallId: "call_2",
      name: "update_plan",
      success: false,
      errorCode: "INVALID_INPUT",
      content: "Error [INVALID_INPUT]: update_plan refused the plan: plan is empty.",
    });
    expect(text).toBe(
      "← update_plan ✗ INVALID_INPUT\n    Error [INVALID_INPUT]: update_plan refused the plan: plan is empty.",
    );
  });

  it("shortens long arguments and replaces a plan's steps by their count", () => {
    const call = formatEvent({
      type: "tool_call",
      toolCallId: "call_3",
      name: "think",
      arguments: { thought: "x".repeat(800) },
    });
    expect(call).toContain("… (314 more characters)");
    const plan = formatEvent({
      type: "tool_call",
      toolCallId: "call_4",
      name: "update_plan",
      arguments: { plan: [{ step: "a" }, { step: "b" }] },
    });
    expect(plan).toBe('\n→ update_plan {"plan":"[2 steps]"}');
  });
});

describe("formatSummary", () => {
  it("lists calls per tool, errors, turns, time and the outcome", () => {
    const text = formatSummary({
      mode: "live",
      model: "gpt-4.1-mini",
      toolCalls: 3,
      toolCallsByName: { think: 1, update_plan: 2 },
      toolErrors: 1,
      modelTurns: 4,
      durationMs: 1530,
      finalAnswer: undefined,
      finalPlan: undefined,
      failure: "Recursion limit reached",
    });
    expect(text).toContain("tool calls:  3 (think ×1, update_plan ×2)");
    expect(text).toContain("errors:      1");
    expect(text).toContain("model turns: 4");
    expect(text).toContain("time:        1.53 s");
    expect(text).not.toContain("final plan");
    expect(text).toContain("outcome:     stopped — Recursion limit reached");
  });
});
