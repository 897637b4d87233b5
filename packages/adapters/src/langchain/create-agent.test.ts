import type { ToolResult } from "@agentool/contract";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createDeleteTool, createSlowTool, echoTool, readNoteTool } from "../test-fixtures.js";
import { toLangChainTools } from "./to-lang-chain-tool.js";

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("createAgent (langchain) driven by fakeModel", () => {
  it("runs several tool calls in sequence, feeds results back and finishes", async () => {
    const model = fakeModel()
      .respondWithTools([{ id: "c1", name: "echo", args: { text: "first" } }])
      .respondWithTools([
        { id: "c2", name: "read_note", args: { title: "plan" } },
        { id: "c3", name: "echo", args: { text: "second", times: 2 } },
      ])
      .respond(new AIMessage("All done."));
    const agent = createAgent({ model, tools: toLangChainTools([echoTool, readNoteTool]) });
    const state = await agent.invoke({ messages: [new HumanMessage("go")] });
    const results = toolMessages(state.messages);
    expect(
      results.map((message) => [message.tool_call_id, message.status, message.content]),
    ).toEqual([
      ["c1", "success", "first"],
      [
        "c2",
        "error",
        'Error [FILE_NOT_FOUND]: There is no note titled "plan".\nHint: Call list_notes to see the titles.',
      ],
      ["c3", "success", "second second"],
    ]);
    expect((results[1]?.artifact as ToolResult<unknown> | undefined)?.success).toBe(false);
    const last = state.messages.at(-1);
    expect(AIMessage.isInstance(last)).toBe(true);
    expect(last?.content).toBe("All done.");
    expect(model.callCount).toBe(3);
    const secondCall = model.calls[1]?.messages ?? [];
    expect(toolMessages(secondCall).map((message) => message.content)).toEqual(["first"]);
  });

  it("sends the model our INVALID_INPUT message for bad arguments, and the model can recover", async () => {
    const model = fakeModel()
      .respondWithTools([{ id: "bad", name: "echo", args: { text: "x", times: 99 } }])
      .respondWithTools([{ id: "fixed", name: "echo", args: { text: "x", times: 2 } }])
      .respond(new AIMessage("Fixed it."));
    const agent = createAgent({ model, tools: toLangChainTools([echoTool]) });
    const state = await agent.invoke({ messages: [new HumanMessage("go")] });
    const [bad, fixed] = toolMessages(state.messages);
    expect(bad?.status).toBe("error");
    expect(String(bad?.content)).toMatch(
      /^Error \[INVALID_INPUT\]: Invalid input for echo: times: /,
    );
    expect(fixed?.status).toBe("success");
    expect(fixed?.content).toBe("x x");
    expect(state.messages.at(-1)?.content).toBe("Fixed it.");
  });

  it("refuses a destructive call the user did not approve, and runs it once approved", async () => {
    const { tool: deleteNote, executions } = createDeleteTool();
    const answers = [false, true];
    const model = fakeModel()
      .respondWithTools([{ id: "d1", name: "delete_note", args: { title: "old" } }])
      .respondWithTools([{ id: "d2", name: "delete_note", args: { title: "old" } }])
      .respond(new AIMessage("Deleted after approval."));
    const agent = createAgent({
      model,
      tools: toLangChainTools([deleteNote], { approve: () => answers.shift() ?? false }),
    });
    const state = await agent.invoke({ messages: [new HumanMessage("delete old")] });
    const [refused, allowed] = toolMessages(state.messages);
    expect(refused?.status).toBe("error");
    expect(String(refused?.content)).toMatch(/^Error \[BLOCKED\]: The user did not approve/);
    expect(allowed?.status).toBe("success");
    expect(allowed?.content).toBe("Deleted old.");
    expect(executions.titles).toEqual(["old"]);
  });

  it("streams progress as custom events and passes the thread id", async () => {
    const { tool: slow } = createSlowTool(1);
    const model = fakeModel()
      .respondWithTools([{ id: "s1", name: "slow_count", args: { to: 2 } }])
      .respond(new AIMessage("Counted."));
    const agent = createAgent({ model, tools: toLangChainTools([slow]) });
    const custom: unknown[] = [];
    for await (const chunk of agent.streamEvents(
      { messages: [new HumanMessage("count")] },
      { version: "v2", configurable: { thread_id: "t-1" } },
    )) {
      if (chunk.event === "on_custom_event") custom.push({ name: chunk.name, data: chunk.data });
    }
    expect(custom).toEqual([
      {
        name: "agentool_progress",
        data: {
          tool: "slow_count",
          toolCallId: "s1",
          message: "counted to 1",
          completed: 1,
          total: 2,
        },
      },
      {
        name: "agentool_progress",
        data: {
          tool: "slow_count",
          toolCallId: "s1",
          message: "counted to 2",
          completed: 2,
          total: 2,
        },
      },
    ]);
  });

  it("cancels the tool's work when the run is aborted mid-call", async () => {
    const { tool: slow, state } = createSlowTool(20);
    const model = fakeModel()
      .respondWithTools([{ id: "s1", name: "slow_count", args: { to: 50 } }])
      .respond(new AIMessage("never reached"));
    const agent = createAgent({ model, tools: toLangChainTools([slow]) });
    const controller = new AbortController();
    const run = agent.invoke(
      { messages: [new HumanMessage("count")] },
      { signal: controller.signal },
    );
    const started = Date.now();
    while (state.started === 0 && Date.now() - started < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.started).toBe(1);
    controller.abort();
    await expect(run).rejects.toThrow(/abort/i);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(state.cancelled).toBe(1);
    expect(state.finished).toBe(0);
    expect(model.callCount).toBe(1);
  });
});
