import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ToolResult } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import type { DispatchProgress } from "../dispatcher-options.js";
import {
  contextTool,
  createDeleteTool,
  createSlowTool,
  echoTool,
  PIXEL_PNG,
  readNoteTool,
  screenshotTool,
  webFetchTool,
} from "../test-fixtures.js";
import { createOpenAiToolDispatcher } from "./create-open-ai-tool-dispatcher.js";
import type { OpenAiChatToolCall, OpenAiResponsesFunctionCall } from "./open-ai-types.js";

function chatCall(name: string, args: string, id = "call_1"): OpenAiChatToolCall {
  return { id, type: "function", function: { name, arguments: args } };
}

function responsesCall(name: string, args: string, callId = "fc_1"): OpenAiResponsesFunctionCall {
  return { type: "function_call", call_id: callId, name, arguments: args };
}

function errorCode(result: ToolResult<unknown>): string | undefined {
  return result.success ? undefined : result.error.code;
}

describe("createOpenAiToolDispatcher", () => {
  const dispatcher = createOpenAiToolDispatcher([
    echoTool,
    readNoteTool,
    screenshotTool,
    contextTool,
  ]);

  it("answers a Chat Completions tool call with a tool message and exposes the envelope", async () => {
    const { message, result } = await dispatcher.dispatch(
      chatCall("echo", '{"text":"hi","times":2}'),
    );
    expect(message).toEqual({ role: "tool", tool_call_id: "call_1", content: "hi hi" });
    expect(result).toEqual({ success: true, data: { text: "hi hi" } });
  });

  it("accepts the nulls strict mode sends for optional fields", async () => {
    const { message } = await dispatcher.dispatch(
      chatCall("echo", '{"text":"a","times":null,"separator":null}'),
    );
    expect(message.content).toBe("a");
  });

  it("answers a Responses function_call with a function_call_output item", async () => {
    const { item, result } = await dispatcher.dispatch(responsesCall("echo", '{"text":"yo"}'));
    expect(item).toEqual({ type: "function_call_output", call_id: "fc_1", output: "yo" });
    expect(result.success).toBe(true);
  });

  it("answers arguments that are not JSON with INVALID_INPUT and does not run the tool", async () => {
    const { tool, executions } = createDeleteTool();
    const guarded = createOpenAiToolDispatcher([tool]);
    const { message, result } = await guarded.dispatch(chatCall("delete_note", '{"title": "a"'));
    expect(message.content).toMatch(
      /^Error \[INVALID_INPUT\]: Invalid input for delete_note: the arguments are not valid JSON/,
    );
    expect(message.content).toContain("\nHint: ");
    expect(errorCode(result)).toBe("INVALID_INPUT");
    expect(executions.count).toBe(0);
  });

  it("answers schema violations with the tool's own INVALID_INPUT message", async () => {
    const { message } = await dispatcher.dispatch(chatCall("echo", '{"text":1}'));
    expect(message.content).toMatch(
      /^Error \[INVALID_INPUT\]: Invalid input for echo: text: expected string, received number/,
    );
  });

  it("answers an unknown tool with UNSUPPORTED naming the available tools", async () => {
    const { message, result } = await dispatcher.dispatch(chatCall("delete_everything", "{}"));
    expect(errorCode(result)).toBe("UNSUPPORTED");
    expect(message.content).toBe(
      'Error [UNSUPPORTED]: There is no tool named "delete_everything".\nHint: Call one of the available tools instead: echo, read_note, screenshot, show_context.',
    );
  });

  it("answers a failing tool with Error [CODE]: message and hint", async () => {
    const { item, result } = await dispatcher.dispatch(responsesCall("read_note", '{"title":"x"}'));
    expect(item.output).toBe(
      'Error [FILE_NOT_FOUND]: There is no note titled "x".\nHint: Call list_notes to see the titles.',
    );
    expect(errorCode(result)).toBe("FILE_NOT_FOUND");
  });

  it("sends images as input_image parts to the Responses API and as a placeholder to Chat Completions", async () => {
    const { item } = await dispatcher.dispatch(responsesCall("screenshot", "{}"));
    expect(item.output).toEqual([
      { type: "input_text", text: "Screenshot 1×1" },
      { type: "input_image", image_url: `data:image/png;base64,${PIXEL_PNG}` },
    ]);
    const { message } = await dispatcher.dispatch(chatCall("screenshot", ""));
    expect(message.content).toMatch(/^Screenshot 1×1\n\[image image\/png, \d+ bytes\]$/);
  });

  it("runs dispatchAll concurrently and keeps the order of the calls", async () => {
    const answers = await dispatcher.dispatchAll([
      chatCall("echo", '{"text":"one"}', "a"),
      chatCall("read_note", '{"title":"b"}', "b"),
      chatCall("echo", '{"text":"three"}', "c"),
    ]);
    expect(
      answers.map(({ message }) => [message.tool_call_id, message.content.slice(0, 24)]),
    ).toEqual([
      ["a", "one"],
      ["b", "Error [FILE_NOT_FOUND]: "],
      ["c", "three"],
    ]);
    const items = await dispatcher.dispatchAll([responsesCall("echo", '{"text":"r"}')]);
    expect(items[0]?.item.output).toBe("r");
  });

  it("passes the call id, thread id and merged metadata to the tool", async () => {
    const withMetadata = createOpenAiToolDispatcher([contextTool], {
      metadata: { user: "ada", team: "a" },
    });
    const { result } = await withMetadata.dispatch(chatCall("show_context", "{}", "call_9"), {
      threadId: "t-2",
      metadata: { team: "b" },
    });
    expect(result).toEqual({
      success: true,
      data: { tool_call_id: "call_9", thread_id: "t-2", metadata: { user: "ada", team: "b" } },
    });
  });

  it("asks approve before destructive tools and refuses with BLOCKED", async () => {
    const { tool, executions } = createDeleteTool();
    const asked: unknown[] = [];
    const guarded = createOpenAiToolDispatcher([tool, echoTool], {
      approve: ({ name, input, toolCallId }) => {
        asked.push({ name, input, toolCallId });
        return (input as { title: string }).title === "ok";
      },
    });
    const refused = await guarded.dispatch(chatCall("delete_note", '{"title":"no"}', "d1"));
    expect(refused.message.content).toMatch(
      /^Error \[BLOCKED\]: The user did not approve this call to delete_note/,
    );
    const allowed = await guarded.dispatch(chatCall("delete_note", '{"title":"ok"}', "d2"));
    expect(allowed.message.content).toBe("Deleted ok.");
    await guarded.dispatch(chatCall("echo", '{"text":"not gated"}'));
    expect(executions.titles).toEqual(["ok"]);
    expect(asked).toEqual([
      { name: "delete_note", input: { title: "no" }, toolCallId: "d1" },
      { name: "delete_note", input: { title: "ok" }, toolCallId: "d2" },
    ]);
  });

  it("gates the tools requireApproval picks (an openWorld web_fetch), not the others", async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.end("fetched text");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
      const { tool: deleteNote, executions } = createDeleteTool();
      const asked: string[] = [];
      const allowed = new Set<string>();
      const guarded = createOpenAiToolDispatcher([webFetchTool, echoTool, deleteNote], {
        approve: ({ name, toolCallId }) => {
          asked.push(`${name}:${toolCallId}`);
          return allowed.has(toolCallId ?? "");
        },
        requireApproval: (tool) => tool.annotations.openWorld === true,
      });
      const refused = await guarded.dispatch(chatCall("web_fetch", JSON.stringify({ url }), "w1"));
      expect(refused.message.content).toMatch(
        /^Error \[BLOCKED\]: The user did not approve this call to web_fetch/,
      );
      expect(hits).toBe(0);
      allowed.add("w2");
      const fetched = await guarded.dispatch(
        responsesCall("web_fetch", JSON.stringify({ url }), "w2"),
      );
      expect(fetched.item.output).toBe("HTTP 200\nfetched text");
      expect(hits).toBe(1);
      const echoed = await guarded.dispatch(chatCall("echo", '{"text":"unasked"}', "e1"));
      expect(echoed.message.content).toBe("unasked");
      const deleted = await guarded.dispatch(chatCall("delete_note", '{"title":"t"}', "d1"));
      expect(deleted.message.content).toBe("Deleted t.");
      expect(executions.count).toBe(1);
      expect(asked).toEqual(["web_fetch:w1", "web_fetch:w2"]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("refuses requireApproval without approve, and a predicate that throws", () => {
    expect(() => createOpenAiToolDispatcher([echoTool], { requireApproval: () => true })).toThrow(
      /^createOpenAiToolDispatcher: requireApproval was given without approve/,
    );
    expect(() =>
      createOpenAiToolDispatcher([echoTool], {
        approve: () => true,
        requireApproval: () => {
          throw new Error("no policy");
        },
      }),
    ).toThrow(/requireApproval threw for the tool echo: no policy/);
  });

  it("cancels the work on abort and answers ABORTED", async () => {
    const { tool, state } = createSlowTool(20);
    const slow = createOpenAiToolDispatcher([tool]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { message, result } = await slow.dispatch(chatCall("slow_count", '{"to":50}'), {
      signal: controller.signal,
    });
    expect(errorCode(result)).toBe("ABORTED");
    expect(message.content).toMatch(/^Error \[ABORTED\]: slow_count was cancelled/);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(state.cancelled).toBe(1);
    expect(state.finished).toBe(0);
  });

  it("reports progress tagged with the tool and call id", async () => {
    const { tool } = createSlowTool(1);
    const updates: DispatchProgress[] = [];
    await createOpenAiToolDispatcher([tool]).dispatch(
      responsesCall("slow_count", '{"to":2}', "fc_p"),
      {
        progress: (update) => updates.push(update),
      },
    );
    expect(updates).toEqual([
      { tool: "slow_count", toolCallId: "fc_p", message: "counted to 1", completed: 1, total: 2 },
      { tool: "slow_count", toolCallId: "fc_p", message: "counted to 2", completed: 2, total: 2 },
    ]);
  });

  it("throws for something that is not an OpenAI tool call, and for bad options", async () => {
    await expect(dispatcher.dispatch({ name: "echo" } as never)).rejects.toThrow(
      /Chat Completions tool call/,
    );
    expect(() => createOpenAiToolDispatcher([echoTool], { strict: true } as never)).toThrow(
      /strict/,
    );
    expect(() => createOpenAiToolDispatcher([echoTool], { approve: 1 } as never)).toThrow(
      /approve/,
    );
  });
});
