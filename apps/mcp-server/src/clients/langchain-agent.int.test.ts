import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_PATH, requireBuiltCli, temporaryDirectory } from "../test-support/spawn-server.js";

// A real LangChain agent on the real server: @langchain/mcp-adapters' MultiServerMCPClient spawns
// the built `agentool-mcp` over stdio, its tools go to `createAgent` from `langchain`, and a scripted
// model (fakeModel) makes the calls a model would make. The assertions are on the ToolMessages the
// agent fed back to the model — what a model reads through this client.

let workspace: ReturnType<typeof temporaryDirectory>;
let client: MultiServerMCPClient;

beforeAll(() => {
  requireBuiltCli();
  workspace = temporaryDirectory({
    "notes/todo.md": "# Todo\n\n- ship the adapter\n",
    "src/app.ts": "export const answer = 42;\n",
  });
  client = new MultiServerMCPClient({
    mcpServers: {
      agentool: {
        transport: "stdio",
        command: process.execPath,
        args: [CLI_PATH, "--root", workspace.path, "--families", "core,fs"],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace.path },
        stderr: "pipe",
      },
    },
  });
});

afterAll(async () => {
  await client?.close();
  workspace?.cleanup();
});

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("@langchain/mcp-adapters 1.1.4 + createAgent (langchain 1.5) over stdio", {
  timeout: 60_000,
}, () => {
  it("loads the served tools as LangChain tools", async () => {
    const names = (await client.getTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["list_directory", "read_file", "grep_search"]));
    expect(names).toEqual(expect.arrayContaining(["think", "update_plan"]));
    // read-only by default: none of the writing tools is served
    expect(names).not.toContain("write_file");
    expect(names).not.toContain("edit_file");
  });

  it("runs list_directory, read_file and grep_search for the agent and feeds back our texts and our error", async () => {
    const tools = await client.getTools();
    const model = fakeModel()
      .respondWithTools([{ id: "list", name: "list_directory", args: { path: "." } }])
      .respondWithTools([
        { id: "read", name: "read_file", args: { path: "notes/todo.md" } },
        { id: "grep", name: "grep_search", args: { pattern: "answer" } },
      ])
      .respondWithTools([{ id: "missing", name: "read_file", args: { path: "notes/todo.txt" } }])
      .respond(new AIMessage("The todo says: ship the adapter."));
    const agent = createAgent({ model, tools });
    const state = await agent.invoke({ messages: [new HumanMessage("What is left to do?")] });
    const results = toolMessages(state.messages);
    expect(results.map((message) => [message.tool_call_id, message.name, message.status])).toEqual([
      ["list", "list_directory", "success"],
      ["read", "read_file", "success"],
      ["grep", "grep_search", "success"],
      ["missing", "read_file", "error"],
    ]);
    const [listed, read, grep, missing] = results.map((message) => String(message.content));
    expect(listed).toMatch(/^\. \(depth 1; 2 entries; directories first\):\nnotes\/\nsrc\/$/);
    expect(read).toMatch(/^notes\/todo\.md — lines 1–3 of 3 \(utf-8, sha: [0-9a-f]{12}\)\n/);
    expect(read).toContain("     3\t- ship the adapter");
    expect(grep).toContain("src/app.ts\n1: export const answer = 42;");
    // our error code, message and hint reach the model intact inside LangChain's ToolException
    expect(missing).toContain(
      "Error [FILE_NOT_FOUND]: notes/todo.txt does not exist.\nHint: Check the path with list_directory",
    );
    expect(missing).toMatch(
      /^ToolException: MCP tool 'read_file' on server 'agentool' returned an error: /,
    );
    // the model saw the results of each step before its next turn
    expect(model.callCount).toBe(4);
    expect(
      toolMessages(model.calls[2]?.messages ?? []).map((message) => message.tool_call_id),
    ).toEqual(["list", "read", "grep"]);
    expect(state.messages.at(-1)?.content).toBe("The todo says: ship the adapter.");
  });
});
