import { AgentoolError, type ToolResult, toJsonSchema } from "@agentool/contract";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { ToolMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { describe, expect, it } from "vitest";
import {
  contextTool,
  createDeleteTool,
  createSlowTool,
  echoTool,
  PIXEL_PNG,
  readNoteTool,
  screenshotTool,
} from "../test-fixtures.js";
import {
  type LangChainProgressEvent,
  toLangChainTool,
  toLangChainTools,
} from "./to-lang-chain-tool.js";

function toolCall(name: string, args: Record<string, unknown>, id = "call_1") {
  return { id, name, args, type: "tool_call" as const };
}

async function invokeWithCall(
  tool: ReturnType<typeof toLangChainTool>,
  args: Record<string, unknown>,
  config: Record<string, unknown> = {},
): Promise<ToolMessage> {
  const output: unknown = await tool.invoke(toolCall(tool.name, args), config);
  expect(ToolMessage.isInstance(output)).toBe(true);
  return output as ToolMessage;
}

class ProgressCollector extends BaseCallbackHandler {
  name = "progress-collector";
  events: Array<{ name: string; payload: unknown }> = [];
  started: string[] = [];
  ended = 0;
  override handleCustomEvent(name: string, payload: unknown): void {
    this.events.push({ name, payload });
  }
  override handleToolStart(_tool: unknown, input: string): void {
    this.started.push(input);
  }
  override handleToolEnd(): void {
    this.ended += 1;
  }
}

describe("toLangChainTool", () => {
  it("declares the tool's JSON Schema, name and description, with content_and_artifact", () => {
    const tool = toLangChainTool(echoTool);
    expect(tool.name).toBe("echo");
    expect(tool.description).toBe(echoTool.description);
    expect(tool.responseFormat).toBe("content_and_artifact");
    expect(tool.schema).toEqual(toJsonSchema(echoTool));
    const declaration = convertToOpenAITool(tool);
    expect(declaration.function.parameters).toEqual(toJsonSchema(echoTool));
  });

  it("returns the rendered content when invoked with plain arguments", async () => {
    const tool = toLangChainTool(echoTool);
    await expect(tool.invoke({ text: "hi", times: 2 })).resolves.toBe("hi hi");
    await expect(toLangChainTool(readNoteTool).invoke({ title: "x" })).resolves.toBe(
      'Error [FILE_NOT_FOUND]: There is no note titled "x".\nHint: Call list_notes to see the titles.',
    );
  });

  it("returns a success ToolMessage with the envelope as artifact when invoked with a ToolCall", async () => {
    const message = await invokeWithCall(toLangChainTool(echoTool), { text: "hi", times: 3 });
    expect(message.status).toBe("success");
    expect(message.content).toBe("hi hi hi");
    expect(message.tool_call_id).toBe("call_1");
    expect(message.name).toBe("echo");
    expect(message.artifact).toEqual({ success: true, data: { text: "hi hi hi" } });
  });

  it("turns a failure into an error ToolMessage with code, message, hint and the envelope", async () => {
    const message = await invokeWithCall(toLangChainTool(readNoteTool), { title: "groceries" });
    expect(message.status).toBe("error");
    expect(message.content).toBe(
      'Error [FILE_NOT_FOUND]: There is no note titled "groceries".\nHint: Call list_notes to see the titles.',
    );
    expect(message.tool_call_id).toBe("call_1");
    expect(message.name).toBe("read_note");
    const artifact = message.artifact as ToolResult<unknown>;
    expect(artifact.success).toBe(false);
    expect(!artifact.success && artifact.error.code).toBe("FILE_NOT_FOUND");
  });

  it("lets bad arguments reach run, which answers INVALID_INPUT naming each field", async () => {
    const tool = toLangChainTool(echoTool);
    const message = await invokeWithCall(tool, { text: 42, times: 9, extra: true });
    expect(message.status).toBe("error");
    const content = String(message.content);
    expect(content).toMatch(/^Error \[INVALID_INPUT\]: Invalid input for echo: /);
    expect(content).toContain("text: expected string, received number");
    expect(content).toContain("times");
    expect(content).toContain('"extra"');
    expect(content).toContain("\nHint: ");
    expect((message.artifact as ToolResult<unknown>).success).toBe(false);
    await expect(tool.invoke({ text: 42 })).resolves.toMatch(/^Error \[INVALID_INPUT\]/);
  });

  it("accepts null for an optional field, as OpenAI strict mode sends it", async () => {
    const message = await invokeWithCall(toLangChainTool(echoTool), {
      text: "a",
      times: null,
      separator: null,
    });
    expect(message.status).toBe("success");
    expect(message.content).toBe("a");
  });

  it("renders images as LangChain image content blocks", async () => {
    const message = await invokeWithCall(toLangChainTool(screenshotTool), {});
    expect(message.status).toBe("success");
    expect(message.content).toEqual([
      { type: "text", text: "Screenshot 1×1" },
      { type: "image", mimeType: "image/png", data: PIXEL_PNG },
    ]);
  });

  it("passes toolCallId, threadId and metadata to the tool", async () => {
    const tool = toLangChainTool(contextTool, { metadata: { user: "ada" } });
    const message = await invokeWithCall(tool, {}, { configurable: { thread_id: "thread-7" } });
    expect(message.artifact).toEqual({
      success: true,
      data: { tool_call_id: "call_1", thread_id: "thread-7", metadata: { user: "ada" } },
    });
    expect(tool.metadata).toEqual({ user: "ada" });
  });

  it("applies name and description overrides everywhere, including error messages", async () => {
    const tool = toLangChainTool(echoTool, { name: "say", description: "Says the text." });
    expect(tool.name).toBe("say");
    expect(tool.description).toBe("Says the text.");
    const message = await invokeWithCall(tool, {});
    expect(message.name).toBe("say");
    expect(String(message.content)).toContain("Invalid input for say:");
  });

  it("rejects unknown and malformed options with a clear message", () => {
    expect(() => toLangChainTool(echoTool, { nmae: "x" } as never)).toThrow(AgentoolError);
    expect(() => toLangChainTool(echoTool, { nmae: "x" } as never)).toThrow(/nmae/);
    expect(() => toLangChainTool(echoTool, { name: "Not Snake" })).toThrow(/name/);
    expect(() => toLangChainTool(echoTool, { approve: "yes" } as never)).toThrow(/approve/);
    expect(() => toLangChainTool({ name: "fake" } as never)).toThrow(/defineTool/);
  });

  it("keeps LangChain tracing callbacks working", async () => {
    const collector = new ProgressCollector();
    await invokeWithCall(toLangChainTool(echoTool), { text: "traced" }, { callbacks: [collector] });
    expect(collector.started).toHaveLength(1);
    expect(collector.started[0]).toContain("traced");
    expect(collector.ended).toBe(1);
  });

  it("dispatches progress as agentool_progress custom events", async () => {
    const { tool: slow } = createSlowTool(1);
    const collector = new ProgressCollector();
    const message = await invokeWithCall(
      toLangChainTool(slow),
      { to: 3 },
      { callbacks: [collector] },
    );
    expect(message.status).toBe("success");
    expect(collector.events).toEqual(
      [1, 2, 3].map((step) => ({
        name: "agentool_progress",
        payload: {
          tool: "slow_count",
          toolCallId: "call_1",
          message: `counted to ${step}`,
          completed: step,
          total: 3,
        } satisfies LangChainProgressEvent,
      })),
    );
  });

  it("cancels the work when config.signal aborts; LangChain rejects with an AbortError", async () => {
    const { tool: slow, state } = createSlowTool(20);
    const controller = new AbortController();
    const pending = toLangChainTool(slow).invoke(toolCall("slow_count", { to: 50 }), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 60);
    await expect(pending).rejects.toThrow(/abort/i);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(state.started).toBe(1);
    expect(state.cancelled).toBe(1);
    expect(state.finished).toBe(0);
  });
});

describe("approval gate", () => {
  it("refuses a destructive call when approve returns false; execute never runs", async () => {
    const { tool, executions } = createDeleteTool();
    const requests: unknown[] = [];
    const guarded = toLangChainTool(tool, {
      approve: (call) => {
        requests.push({
          name: call.name,
          input: call.input,
          toolCallId: call.toolCallId,
          tool: call.tool.name,
        });
        return false;
      },
    });
    const message = await invokeWithCall(guarded, { title: "diary" });
    expect(executions.count).toBe(0);
    expect(message.status).toBe("error");
    expect(String(message.content)).toMatch(
      /^Error \[BLOCKED\]: The user did not approve this call to delete_note/,
    );
    expect(String(message.content)).toContain("Do not retry the same call");
    expect(requests).toEqual([
      { name: "delete_note", input: { title: "diary" }, toolCallId: "call_1", tool: "delete_note" },
    ]);
  });

  it("runs a destructive call when approve resolves true", async () => {
    const { tool, executions } = createDeleteTool();
    const guarded = toLangChainTool(tool, { approve: async () => true });
    const message = await invokeWithCall(guarded, { title: "diary" });
    expect(message.status).toBe("success");
    expect(message.content).toBe("Deleted diary.");
    expect(executions.titles).toEqual(["diary"]);
  });

  it("refuses when the gate throws or returns something other than true", async () => {
    const { tool, executions } = createDeleteTool();
    const throwing = await invokeWithCall(
      toLangChainTool(tool, {
        approve: () => {
          throw new Error("prompt closed");
        },
      }),
      { title: "a" },
    );
    expect(throwing.status).toBe("error");
    expect(String(throwing.content)).toMatch(
      /^Error \[BLOCKED\]: .*approval check failed \(prompt closed\)/,
    );
    const truthy = await invokeWithCall(toLangChainTool(tool, { approve: () => "yes" as never }), {
      title: "b",
    });
    expect(String(truthy.content)).toMatch(/^Error \[BLOCKED\]/);
    expect(executions.count).toBe(0);
  });

  it("does not ask about tools that are not destructive", async () => {
    let asked = 0;
    const message = await invokeWithCall(
      toLangChainTool(echoTool, {
        approve: () => {
          asked += 1;
          return false;
        },
      }),
      { text: "free" },
    );
    expect(message.content).toBe("free");
    expect(asked).toBe(0);
  });
});

describe("toLangChainTools", () => {
  it("converts every tool with the same options", async () => {
    const { tool, executions } = createDeleteTool();
    const tools = toLangChainTools([echoTool, tool], {
      approve: () => false,
      metadata: { team: "x" },
    });
    expect(tools.map((item) => item.name)).toEqual(["echo", "delete_note"]);
    expect(tools.every((item) => item.responseFormat === "content_and_artifact")).toBe(true);
    const [, deleteNote] = tools;
    if (deleteNote === undefined) throw new Error("missing tool");
    const message = await invokeWithCall(deleteNote, { title: "a" });
    expect(String(message.content)).toMatch(/^Error \[BLOCKED\]/);
    expect(executions.count).toBe(0);
    expect(deleteNote.metadata).toEqual({ team: "x" });
  });

  it("refuses per-tool overrides, duplicate names and non-tools", () => {
    expect(() => toLangChainTools([echoTool], { name: "x" } as never)).toThrow(/name/);
    expect(() => toLangChainTools([echoTool, echoTool])).toThrow(/two tools are named "echo"/);
    expect(() => toLangChainTools([echoTool, {} as never])).toThrow(/index 1/);
  });
});
