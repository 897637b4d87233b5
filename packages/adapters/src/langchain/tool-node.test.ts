import type { ToolResult } from "@agentool/contract";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { createDeleteTool, echoTool, readNoteTool, screenshotTool } from "../test-fixtures.js";
import { toLangChainTools } from "./to-lang-chain-tool.js";

describe("LangGraph ToolNode", () => {
  it("answers each tool call of an AIMessage with the right content, status and artifact", async () => {
    const { tool: deleteNote, executions } = createDeleteTool();
    const node = new ToolNode(
      toLangChainTools([echoTool, readNoteTool, screenshotTool, deleteNote], {
        approve: () => false,
      }),
    );
    const request = new AIMessage({
      content: "",
      tool_calls: [
        { id: "good", name: "echo", args: { text: "ok", times: 2 }, type: "tool_call" },
        { id: "bad", name: "echo", args: { text: ["not", "a", "string"] }, type: "tool_call" },
        { id: "failing", name: "read_note", args: { title: "todo" }, type: "tool_call" },
        { id: "image", name: "screenshot", args: {}, type: "tool_call" },
        { id: "refused", name: "delete_note", args: { title: "todo" }, type: "tool_call" },
      ],
    });
    const { messages } = (await node.invoke({ messages: [request] })) as {
      messages: ToolMessage[];
    };
    expect(messages.map((message) => [message.tool_call_id, message.status])).toEqual([
      ["good", "success"],
      ["bad", "error"],
      ["failing", "error"],
      ["image", "success"],
      ["refused", "error"],
    ]);
    const [good, bad, failing, image, refused] = messages;
    expect(messages.every((message) => ToolMessage.isInstance(message))).toBe(true);
    expect(good?.content).toBe("ok ok");
    expect(good?.artifact).toEqual({ success: true, data: { text: "ok ok" } });
    expect(String(bad?.content)).toMatch(
      /^Error \[INVALID_INPUT\]: Invalid input for echo: text: expected string, received array/,
    );
    expect((bad?.artifact as ToolResult<unknown> | undefined)?.success).toBe(false);
    expect(failing?.content).toBe(
      'Error [FILE_NOT_FOUND]: There is no note titled "todo".\nHint: Call list_notes to see the titles.',
    );
    expect(failing?.artifact).toEqual({
      success: false,
      error: {
        code: "FILE_NOT_FOUND",
        message: 'There is no note titled "todo".',
        hint: "Call list_notes to see the titles.",
      },
    });
    expect(Array.isArray(image?.content)).toBe(true);
    expect(
      (image?.content as Array<{ type: string }> | undefined)?.map((block) => block.type),
    ).toEqual(["text", "image"]);
    expect(String(refused?.content)).toMatch(/^Error \[BLOCKED\]/);
    expect(executions.count).toBe(0);
  });

  it("answers a call of a tool it does not have with LangGraph's own error", async () => {
    const node = new ToolNode(toLangChainTools([echoTool]));
    const request = new AIMessage({
      content: "",
      tool_calls: [{ id: "x", name: "missing_tool", args: {}, type: "tool_call" }],
    });
    const { messages } = (await node.invoke({ messages: [request] })) as {
      messages: ToolMessage[];
    };
    expect(messages[0]?.status).toBe("error");
    expect(String(messages[0]?.content)).toContain("missing_tool");
  });
});
