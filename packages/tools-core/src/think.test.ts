import { AgentoolError, toJsonSchema } from "@agentool/contract";
import { describe, expect, it, vi } from "vitest";
import { createThinkTool, DEFAULT_THINK_DESCRIPTION, type ThoughtContext } from "./think.js";

describe("createThinkTool", () => {
  it("acknowledges a thought without echoing it", async () => {
    const think = createThinkTool();
    const result = await think.run({ thought: "The file is missing; check the path first." });
    expect(result).toEqual({ success: true, data: { recorded: true, characters: 42 } });
    const text = think.renderResult(result);
    expect(text).toBe("Thought recorded. Continue with your next step.");
    expect(text).not.toContain("missing");
  });

  it("has the default name, a description that teaches when to think, annotations and tags", () => {
    const think = createThinkTool();
    expect(think.name).toBe("think");
    expect(think.description).toBe(DEFAULT_THINK_DESCRIPTION);
    expect(think.description).toMatch(/undo/);
    expect(think.description).toMatch(/conflict/);
    expect(think.description).toMatch(/surprising/);
    expect(think.annotations).toMatchObject({ readOnly: true, idempotent: true });
    expect(think.annotations.destructive).toBeUndefined();
    expect(think.tags).toEqual(["core"]);
  });

  it("teaches when to think in at most 200 characters (issue 28 point 9: it was 823)", () => {
    expect(createThinkTool().description.length).toBeLessThanOrEqual(200);
  });

  it("describes its one input field in the JSON Schema", () => {
    const schema = toJsonSchema(createThinkTool());
    expect(schema.required).toEqual(["thought"]);
    expect(schema.additionalProperties).toBe(false);
    const properties = schema.properties as Record<string, { type: string; description: string }>;
    expect(properties.thought?.type).toBe("string");
    expect(properties.thought?.description.length).toBeGreaterThan(20);
  });

  it("takes name and description overrides", () => {
    const think = createThinkTool({
      name: "reflect",
      description: "Think before refunding: confirm the order state.",
    });
    expect(think.name).toBe("reflect");
    expect(think.description).toBe("Think before refunding: confirm the order state.");
  });

  it("passes each thought to onThought with the call's ids", async () => {
    const onThought = vi.fn();
    const think = createThinkTool({ onThought });
    await think.run(
      { thought: "Policy A and B conflict." },
      { toolCallId: "call_1", threadId: "t1" },
    );
    expect(onThought).toHaveBeenCalledTimes(1);
    expect(onThought).toHaveBeenCalledWith("Policy A and B conflict.", {
      toolCallId: "call_1",
      threadId: "t1",
    } satisfies ThoughtContext);
  });

  it("keeps working when onThought throws", async () => {
    const think = createThinkTool({
      onThought: () => {
        throw new Error("logger down");
      },
    });
    const result = await think.run({ thought: "Still fine." });
    expect(result.success).toBe(true);
  });

  it("keeps working when onThought returns a rejected promise (and leaves no unhandled rejection)", async () => {
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    try {
      const think = createThinkTool({ onThought: () => Promise.reject(new Error("logger down")) });
      const result = await think.run({ thought: "Still fine." });
      expect(result.success).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });

  it("does not wait for a slow onThought", async () => {
    const think = createThinkTool({ onThought: () => new Promise(() => {}) });
    const result = await think.run({ thought: "Never mind the hook." }, { timeoutMs: 1_000 });
    expect(result.success).toBe(true);
  });

  it("refuses an empty or missing thought with INVALID_INPUT naming the field", async () => {
    const think = createThinkTool();
    const empty = await think.run({ thought: "" });
    expect(empty.success).toBe(false);
    if (empty.success) return;
    expect(empty.error.code).toBe("INVALID_INPUT");
    expect(empty.error.message).toContain("thought");
    expect(empty.error.message).toContain("empty");

    const missing = await think.run({});
    expect(missing.success).toBe(false);
    if (missing.success) return;
    expect(missing.error.message).toContain("thought");
  });

  it("refuses unknown input fields", async () => {
    const result = await createThinkTool().run({ thought: "ok", mood: "calm" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("INVALID_INPUT");
    expect(result.error.message).toContain("mood");
  });

  it("rejects invalid options with an AgentoolError naming the problem", () => {
    expect(() => createThinkTool({ descripton: "typo" } as never)).toThrow(AgentoolError);
    expect(() => createThinkTool({ descripton: "typo" } as never)).toThrow(/descripton/);
    expect(() => createThinkTool({ name: "Not Snake" })).toThrow(/name/);
    expect(() => createThinkTool({ onThought: "log" as never })).toThrow(/onThought/);
    expect(() => createThinkTool({ description: "" })).toThrow(/description/);
  });
});
