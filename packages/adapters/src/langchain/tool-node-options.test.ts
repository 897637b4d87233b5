import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApprovalRequest, defaultRequireApproval } from "../approval.js";
import { createDeleteTool, echoTool, readNoteTool, webFetchTool } from "../test-fixtures.js";
import {
  type LangChainArtifactMode,
  toLangChainTool,
  toLangChainTools,
} from "./to-lang-chain-tool.js";

let server: Server;
let baseUrl = "";
let hits = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("page body");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function runNode(node: ToolNode, calls: AIMessage["tool_calls"]): Promise<ToolMessage[]> {
  const { messages } = (await node.invoke({
    messages: [new AIMessage({ content: "", tool_calls: calls })],
  })) as { messages: ToolMessage[] };
  expect(messages.every((message) => ToolMessage.isInstance(message))).toBe(true);
  return messages;
}

describe("requireApproval on a LangGraph ToolNode", () => {
  it("gates an openWorld tool (web_fetch) that is not destructive; other tools run unasked", async () => {
    const { tool: deleteNote, executions } = createDeleteTool();
    const asked: Array<Pick<ApprovalRequest, "name" | "input" | "toolCallId">> = [];
    let answer = false;
    const node = new ToolNode(
      toLangChainTools([webFetchTool, echoTool, deleteNote], {
        approve: ({ name, input, toolCallId }) => {
          asked.push({ name, input, toolCallId });
          return answer;
        },
        requireApproval: (tool) => tool.annotations.openWorld === true,
      }),
    );
    const url = `${baseUrl}/docs`;
    const refused = await runNode(node, [
      { id: "f1", name: "web_fetch", args: { url }, type: "tool_call" },
      { id: "e1", name: "echo", args: { text: "free" }, type: "tool_call" },
      // The predicate replaces the default: delete_note is not openWorld, so it is not gated.
      { id: "d1", name: "delete_note", args: { title: "old" }, type: "tool_call" },
    ]);
    expect(refused.map((message) => [message.tool_call_id, message.status])).toEqual([
      ["f1", "error"],
      ["e1", "success"],
      ["d1", "success"],
    ]);
    expect(String(refused[0]?.content)).toMatch(
      /^Error \[BLOCKED\]: The user did not approve this call to web_fetch, so it was not run\./,
    );
    expect(hits).toBe(0);
    expect(refused[1]?.content).toBe("free");
    expect(executions.titles).toEqual(["old"]);
    expect(asked).toEqual([{ name: "web_fetch", input: { url }, toolCallId: "f1" }]);

    answer = true;
    const [allowed] = await runNode(node, [
      { id: "f2", name: "web_fetch", args: { url }, type: "tool_call" },
    ]);
    expect(allowed?.status).toBe("success");
    expect(allowed?.content).toBe("HTTP 200\npage body");
    expect(hits).toBe(1);
    expect(asked.map((request) => request.toolCallId)).toEqual(["f1", "f2"]);
  });

  it("composes with defaultRequireApproval and sees the overridden name", async () => {
    const { tool: deleteNote, executions } = createDeleteTool();
    const seen: string[] = [];
    const requireApproval = (tool: Parameters<typeof defaultRequireApproval>[0]) => {
      seen.push(tool.name);
      return defaultRequireApproval(tool) || tool.tags.includes("web");
    };
    const fetchPage = toLangChainTool(webFetchTool, {
      name: "fetch_page",
      approve: () => false,
      requireApproval,
    });
    const node = new ToolNode([
      fetchPage,
      ...toLangChainTools([deleteNote, echoTool], { approve: () => false, requireApproval }),
    ]);
    const before = hits;
    const messages = await runNode(node, [
      { id: "f", name: "fetch_page", args: { url: `${baseUrl}/x` }, type: "tool_call" },
      { id: "d", name: "delete_note", args: { title: "a" }, type: "tool_call" },
      { id: "e", name: "echo", args: { text: "b" }, type: "tool_call" },
    ]);
    expect(messages.map((message) => message.status)).toEqual(["error", "error", "success"]);
    expect(String(messages[0]?.content)).toMatch(/^Error \[BLOCKED\]: .*fetch_page/);
    expect(hits).toBe(before);
    expect(executions.count).toBe(0);
    // Asked once per tool, at conversion, with the name the model sees.
    expect(seen).toEqual(["fetch_page", "delete_note", "echo"]);
  });

  it("refuses requireApproval without approve, and a predicate that is not a function", () => {
    expect(() => toLangChainTools([webFetchTool], { requireApproval: () => true })).toThrow(
      /^toLangChainTools: requireApproval was given without approve/,
    );
    expect(() => toLangChainTool(webFetchTool, { requireApproval: () => true })).toThrow(
      /^toLangChainTool: requireApproval was given without approve/,
    );
    expect(() =>
      toLangChainTools([webFetchTool], {
        approve: () => true,
        requireApproval: "openWorld" as never,
      }),
    ).toThrow(/requireApproval/);
  });
});

describe("the artifact option on a LangGraph ToolNode", () => {
  const calls: AIMessage["tool_calls"] = [
    { id: "ok", name: "echo", args: { text: "hi", times: 2 }, type: "tool_call" },
    { id: "failed", name: "read_note", args: { title: "todo" }, type: "tool_call" },
  ];
  const noteError = {
    code: "FILE_NOT_FOUND",
    message: 'There is no note titled "todo".',
    hint: "Call list_notes to see the titles.",
  };

  it.each<[LangChainArtifactMode | undefined, unknown, unknown]>([
    [undefined, { success: true, data: { text: "hi hi" } }, { success: false, error: noteError }],
    ["envelope", { success: true, data: { text: "hi hi" } }, { success: false, error: noteError }],
    ["data", { text: "hi hi" }, noteError],
    ["none", undefined, undefined],
  ])("artifact %s", async (artifact, onSuccess, onFailure) => {
    const node = new ToolNode(
      toLangChainTools([echoTool, readNoteTool], artifact === undefined ? {} : { artifact }),
    );
    const [success, failure] = await runNode(node, calls);
    // What the model reads does not depend on the artifact.
    expect([success?.status, success?.content]).toEqual(["success", "hi hi"]);
    expect([failure?.status, failure?.content]).toEqual([
      "error",
      'Error [FILE_NOT_FOUND]: There is no note titled "todo".\nHint: Call list_notes to see the titles.',
    ]);
    expect(success?.artifact).toEqual(onSuccess);
    expect(failure?.artifact).toEqual(onFailure);
  });

  it("is accepted by toLangChainTool, and unknown values are refused", async () => {
    const single = new ToolNode([toLangChainTool(echoTool, { artifact: "data" })]);
    const [message] = await runNode(single, [calls[0] as NonNullable<typeof calls>[number]]);
    expect(message?.artifact).toEqual({ text: "hi hi" });
    expect(() => toLangChainTool(echoTool, { artifact: "full" as never })).toThrow(/artifact/);
    expect(() => toLangChainTools([echoTool], { artifact: "both" as never })).toThrow(/artifact/);
  });

  it('"none" keeps a checkpoint from storing the result twice', async () => {
    const marker = "unique-diff-line-7f3a";
    async function storedCopies(artifact: LangChainArtifactMode): Promise<number> {
      const checkpointer = new MemorySaver();
      const model = fakeModel()
        .respondWithTools([{ id: "c1", name: "echo", args: { text: marker } }])
        .respond(new AIMessage("done"));
      const agent = createAgent({
        model,
        tools: toLangChainTools([echoTool], { artifact }),
        checkpointer,
      });
      const config = { configurable: { thread_id: `artifact-${artifact}` } };
      await agent.invoke({ messages: [new HumanMessage("echo it")] }, config);
      const saved = await checkpointer.getTuple(config);
      if (saved === undefined) throw new Error("nothing was checkpointed");
      const { messages = [] } = saved.checkpoint.channel_values as { messages?: unknown[] };
      const toolMessage = messages.find((message) => ToolMessage.isInstance(message));
      expect(toolMessage).toBeDefined();
      // Count in the tool message only: the model's tool call carries the marker too.
      return JSON.stringify(toolMessage).split(marker).length - 1;
    }
    expect(await storedCopies("envelope")).toBe(2);
    expect(await storedCopies("data")).toBe(2);
    expect(await storedCopies("none")).toBe(1);
  });
});
