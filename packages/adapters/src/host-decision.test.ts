// Finding 14 of the third security review: a destructive tool ran when the host decided nothing.
// The real delete_file of tools-fs on a real folder, through every adapter entry: without
// `approve` and without `allowDestructive: true` the call is BLOCKED and the file stays; with
// `allowDestructive: true` it runs; with `approve` the gate decides.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyTool } from "@agentool/contract";
import { createNodeFsTools } from "@agentool/tools-fs/node";
import { AIMessage, type ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicToolDispatcher } from "./anthropic/index.js";
import { createGeminiToolDispatcher } from "./gemini/index.js";
import { toLangChainTools } from "./langchain/index.js";
import { registerTools } from "./mcp/index.js";
import { createOpenAiToolDispatcher } from "./openai/index.js";

let root = "";
let readme = "";

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "agentool-host-decision-"));
  readme = join(root, "README.md");
  writeFileSync(readme, "# keep me\n");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function fsTools(): AnyTool[] {
  return createNodeFsTools({ root, mode: "read-write" });
}

const UNDECIDED =
  /^Error \[BLOCKED\]: delete_file can change or delete things, and this host has not decided/;

async function viaToolNode(options: Parameters<typeof toLangChainTools>[1]): Promise<ToolMessage> {
  const node = new ToolNode(toLangChainTools(fsTools(), options));
  const request = new AIMessage({
    content: "",
    tool_calls: [{ id: "c1", name: "delete_file", args: { path: "README.md" }, type: "tool_call" }],
  });
  const { messages } = (await node.invoke({ messages: [request] })) as { messages: ToolMessage[] };
  return messages[0] as ToolMessage;
}

describe("destructive tools need a host decision", () => {
  it("a LangGraph ToolNode with no approve and no allowDestructive refuses delete_file", async () => {
    const message = await viaToolNode(undefined);
    expect(message.status).toBe("error");
    expect(String(message.content)).toMatch(UNDECIDED);
    expect(String(message.content)).toContain("allowDestructive: true");
    expect(existsSync(readme)).toBe(true);
  });

  it("allowDestructive: true is that decision: the file is deleted", async () => {
    const message = await viaToolNode({ allowDestructive: true });
    expect(message.status).toBe("success");
    expect(existsSync(readme)).toBe(false);
  });

  it("an approve gate decides, with or without allowDestructive", async () => {
    const refused = await viaToolNode({ approve: () => false, allowDestructive: true });
    expect(String(refused.content)).toMatch(/The user did not approve this call to delete_file/);
    expect(existsSync(readme)).toBe(true);
    const approved = await viaToolNode({ approve: () => true });
    expect(approved.status).toBe("success");
    expect(existsSync(readme)).toBe(false);
  });

  it("non-destructive tools run unasked", async () => {
    const node = new ToolNode(toLangChainTools(fsTools()));
    const request = new AIMessage({
      content: "",
      tool_calls: [{ id: "r", name: "read_file", args: { path: "README.md" }, type: "tool_call" }],
    });
    const { messages } = (await node.invoke({ messages: [request] })) as {
      messages: ToolMessage[];
    };
    expect(String(messages[0]?.content)).toContain("keep me");
  });

  it("the OpenAI, Anthropic and Gemini dispatchers refuse it the same way", async () => {
    const openAi = await createOpenAiToolDispatcher(fsTools()).dispatch({
      id: "c1",
      type: "function",
      function: { name: "delete_file", arguments: '{"path":"README.md"}' },
    });
    const anthropic = await createAnthropicToolDispatcher(fsTools()).dispatch({
      type: "tool_use",
      id: "t1",
      name: "delete_file",
      input: { path: "README.md" },
    });
    const gemini = await createGeminiToolDispatcher(fsTools()).dispatch({
      name: "delete_file",
      args: { path: "README.md" },
    });
    for (const { result } of [openAi, anthropic, gemini]) {
      expect(result).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    }
    expect(existsSync(readme)).toBe(true);
    const allowed = await createGeminiToolDispatcher(fsTools(), {
      allowDestructive: true,
    }).dispatch({ name: "delete_file", args: { path: "README.md" } });
    expect(allowed.result.success).toBe(true);
    expect(existsSync(readme)).toBe(false);
  });

  it("an MCP server from registerTools refuses it unless the server allowed destructive tools", async () => {
    for (const allowDestructive of [undefined, true]) {
      writeFileSync(readme, "# keep me\n");
      const server = new McpServer({ name: "host-decision", version: "1.0.0" });
      registerTools(server, fsTools(), allowDestructive ? { allowDestructive } : undefined);
      const client = new Client({ name: "test-client", version: "1.0.0" });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      await client.connect(clientTransport);
      try {
        const result = await client.callTool({
          name: "delete_file",
          arguments: { path: "README.md" },
        });
        const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
        if (allowDestructive) {
          expect(result.isError ?? false).toBe(false);
          expect(existsSync(readme)).toBe(false);
        } else {
          expect(result.isError).toBe(true);
          expect(text).toMatch(UNDECIDED);
          expect(existsSync(readme)).toBe(true);
        }
      } finally {
        await client.close();
        await server.close();
      }
    }
  });
});
