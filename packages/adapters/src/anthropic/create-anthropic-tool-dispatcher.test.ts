import { describe, expect, it } from "vitest";
import {
  createDeleteTool,
  createSlowTool,
  echoTool,
  PIXEL_PNG,
  readNoteTool,
  screenshotTool,
  webFetchTool,
} from "../test-fixtures.js";
import type { AnthropicToolUseBlock } from "./anthropic-types.js";
import { createAnthropicToolDispatcher } from "./create-anthropic-tool-dispatcher.js";

function toolUse(name: string, input: unknown, id = "toolu_1"): AnthropicToolUseBlock {
  return { type: "tool_use", id, name, input };
}

describe("createAnthropicToolDispatcher", () => {
  const dispatcher = createAnthropicToolDispatcher([echoTool, readNoteTool, screenshotTool]);

  it("answers a tool_use block with a tool_result block and exposes the envelope", async () => {
    const { block, result } = await dispatcher.dispatch(toolUse("echo", { text: "hi", times: 2 }));
    expect(block).toEqual({ type: "tool_result", tool_use_id: "toolu_1", content: "hi hi" });
    expect(result).toEqual({ success: true, data: { text: "hi hi" } });
  });

  it("marks failures with is_error and the Error [CODE] text", async () => {
    const { block, result } = await dispatcher.dispatch(toolUse("read_note", { title: "x" }));
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      content:
        'Error [FILE_NOT_FOUND]: There is no note titled "x".\nHint: Call list_notes to see the titles.',
      is_error: true,
    });
    expect(result.success).toBe(false);
    const invalid = await dispatcher.dispatch(toolUse("echo", { text: ["x"] }));
    expect(invalid.block.is_error).toBe(true);
    expect(invalid.block.content).toMatch(
      /^Error \[INVALID_INPUT\]: Invalid input for echo: text: /,
    );
    const unknown = await dispatcher.dispatch(toolUse("nope", {}));
    expect(unknown.block.is_error).toBe(true);
    expect(unknown.block.content).toContain('Error [UNSUPPORTED]: There is no tool named "nope".');
    expect(unknown.block.content).toContain("echo, read_note, screenshot");
  });

  it("sends images as base64 image blocks", async () => {
    const { block } = await dispatcher.dispatch(toolUse("screenshot", {}));
    expect(block.content).toEqual([
      { type: "text", text: "Screenshot 1×1" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL_PNG } },
    ]);
    expect(block.is_error).toBeUndefined();
  });

  it("dispatches several blocks in order", async () => {
    const answers = await dispatcher.dispatchAll([
      toolUse("echo", { text: "a" }, "1"),
      toolUse("echo", { text: "b" }, "2"),
    ]);
    expect(answers.map(({ block }) => [block.tool_use_id, block.content])).toEqual([
      ["1", "a"],
      ["2", "b"],
    ]);
  });

  it("gates destructive tools with approve", async () => {
    const { tool, executions } = createDeleteTool();
    const refusing = createAnthropicToolDispatcher([tool], { approve: () => false });
    const { block } = await refusing.dispatch(toolUse("delete_note", { title: "x" }));
    expect(block.is_error).toBe(true);
    expect(block.content).toMatch(/^Error \[BLOCKED\]/);
    expect(executions.count).toBe(0);
    const allowing = createAnthropicToolDispatcher([tool], { approve: () => true });
    expect((await allowing.dispatch(toolUse("delete_note", { title: "x" }))).block.content).toBe(
      "Deleted x.",
    );
    expect(executions.count).toBe(1);
  });

  it("cancels the work on abort and answers ABORTED", async () => {
    const { tool, state } = createSlowTool(20);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { block } = await createAnthropicToolDispatcher([tool]).dispatch(
      toolUse("slow_count", { to: 50 }),
      {
        signal: controller.signal,
      },
    );
    expect(block.is_error).toBe(true);
    expect(block.content).toMatch(/^Error \[ABORTED\]/);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(state.cancelled).toBe(1);
    expect(state.finished).toBe(0);
  });

  it("throws for something that is not a tool_use block", async () => {
    await expect(dispatcher.dispatch({ type: "text", text: "hi" } as never)).rejects.toThrow(
      /tool_use block/,
    );
  });

  it("takes requireApproval: a tool picked by its tags is refused without running", async () => {
    let asked = 0;
    const guarded = createAnthropicToolDispatcher([webFetchTool, echoTool], {
      approve: () => {
        asked += 1;
        return false;
      },
      requireApproval: (tool) => tool.tags.includes("web"),
    });
    const { result } = await guarded.dispatch(toolUse("web_fetch", { url: "http://127.0.0.1:9/" }));
    expect(result).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    const echoed = await guarded.dispatch(toolUse("echo", { text: "free" }));
    expect(echoed.result).toEqual({ success: true, data: { text: "free" } });
    expect(asked).toBe(1);
  });
});
