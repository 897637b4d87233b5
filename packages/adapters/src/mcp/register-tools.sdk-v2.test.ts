import { type AnyTool, defineTool, ok, type ToolResult, toJsonSchema } from "@agentool/contract";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer, Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  contextTool,
  createSlowTool,
  echoTool,
  PIXEL_PNG,
  readNoteTool,
  screenshotTool,
  searchTool,
} from "../test-fixtures.js";
import { registerTools } from "./register-tools.js";

// The same behaviour as register-tools.test.ts, on the MCP TypeScript SDK v2: a real
// `@modelcontextprotocol/server` 2.x server and a real `@modelcontextprotocol/client` 2.x client.

const open: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function connect(server: McpServer | Server): Promise<Client> {
  const client = new Client({ name: "test-client-v2", version: "2.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

function newServer(): McpServer {
  return new McpServer({ name: "agentool-test-v2", version: "1.0.0" });
}

function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

const statusTool = defineTool({
  name: "note_status",
  description: "Counts the notes.",
  input: z.object({}),
  output: z.object({ count: z.number().int().describe("How many notes.") }),
  annotations: { readOnly: true, idempotent: true },
  execute: () => ok({ count: 3 }),
  render: ({ count }) => `${count} notes.`,
});

describe("registerTools on SDK v2 (@modelcontextprotocol/server)", () => {
  it("lists every tool with the contract's schema, a title and MCP's annotation hints", async () => {
    const server = newServer();
    const tools: AnyTool[] = [echoTool, searchTool, statusTool];
    registerTools(server, tools);
    const client = await connect(server);
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const tool of tools) {
      const entry = listed.tools.find((candidate) => candidate.name === tool.name);
      expect(entry?.inputSchema).toEqual(toJsonSchema(tool));
      expect(entry?.description).toBe(tool.description);
    }
    const echo = listed.tools[0];
    expect(echo?.title).toBe("Echo");
    expect(echo?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(listed.tools[2]?.outputSchema).toMatchObject({
      type: "object",
      properties: { count: { type: "integer" } },
    });
  });

  it("calls tools: rendered text, structuredContent, text + image, isError", async () => {
    const server = newServer();
    registerTools(server, [echoTool, statusTool, screenshotTool, readNoteTool]);
    const client = await connect(server);
    await client.listTools();
    expect(await client.callTool({ name: "echo", arguments: { text: "hi", times: 2 } })).toEqual({
      content: [{ type: "text", text: "hi hi" }],
    });
    expect(await client.callTool({ name: "note_status", arguments: {} })).toEqual({
      content: [{ type: "text", text: "3 notes." }],
      structuredContent: { count: 3 },
    });
    const shot = await client.callTool({ name: "screenshot", arguments: {} });
    expect(shot.content).toEqual([
      { type: "text", text: "Screenshot 1×1" },
      { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
    ]);
    expect(await client.callTool({ name: "read_note", arguments: { title: "x" } })).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: 'Error [FILE_NOT_FOUND]: There is no note titled "x".\nHint: Call list_notes to see the titles.',
        },
      ],
    });
    const wrong = await client.callTool({ name: "echo", arguments: { txt: "hi" } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('did you mean "text"');
  });

  it("passes toolCallId = the request id, and the threadId option sees v1's extra shape", async () => {
    const server = newServer();
    const seen: { requestId: unknown; signal: unknown }[] = [];
    registerTools(server, [contextTool], {
      threadId: (extra) => {
        seen.push({ requestId: extra.requestId, signal: extra.signal });
        return "thread-2";
      },
    });
    const client = await connect(server);
    const result = await client.callTool({ name: "show_context", arguments: {} });
    const data = JSON.parse(textOf(result)) as { tool_call_id: string; thread_id: string };
    expect(data.thread_id).toBe("thread-2");
    expect(data.tool_call_id).toBe(String(seen[0]?.requestId));
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it("sends increasing progress notifications to a client that asks for them", async () => {
    const { tool } = createSlowTool(1, 10);
    const server = newServer();
    registerTools(server, [tool]);
    const client = await connect(server);
    const updates: unknown[] = [];
    const result = await client.callTool(
      { name: "slow_count", arguments: { to: 3 } },
      { onprogress: (progress) => updates.push(progress) },
    );
    expect(result.isError ?? false).toBe(false);
    expect(updates).toEqual(
      [1, 2, 3].map((step) => ({ progress: step, total: 3, message: `counted to ${step}` })),
    );
  });

  it("the client's abort reaches the run's signal", async () => {
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let observed: unknown;
    const waiter = defineTool({
      name: "wait_forever",
      description: "Waits until cancelled.",
      input: z.object({}),
      timeoutMs: 0,
      execute: (_input, context) =>
        new Promise<ToolResult<{ cancelled: boolean }>>((resolve) => {
          context.signal.addEventListener("abort", () => {
            observed = context.signal.reason;
            resolve(ok({ cancelled: true }));
          });
          started();
        }),
    });
    const server = newServer();
    registerTools(server, [waiter]);
    const client = await connect(server);
    const controller = new AbortController();
    const call = client.callTool(
      { name: "wait_forever", arguments: {} },
      { signal: controller.signal },
    );
    await running;
    controller.abort(new Error("user pressed stop"));
    await expect(call).rejects.toThrow();
    await expect.poll(() => observed).toBeDefined();
  });

  it("replace sends tools/list_changed and serves the new set", async () => {
    const server = newServer();
    const registration = registerTools(server, [echoTool]);
    let changes = 0;
    const client = await connect(server);
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      changes += 1;
    });
    registration.replace([statusTool]);
    await expect.poll(() => changes).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["note_status"]);
  });

  it("works on a low-level v2 Server, and refuses an McpServer with registerTool tools", async () => {
    const low = new Server({ name: "low-v2", version: "1.0.0" });
    registerTools(low, [echoTool]);
    const client = await connect(low);
    expect(await client.callTool({ name: "echo", arguments: { text: "low" } })).toEqual({
      content: [{ type: "text", text: "low" }],
    });

    const mixed = newServer();
    mixed.registerTool("sdk_tool", { description: "An SDK tool." }, () => ({ content: [] }));
    expect(() => registerTools(mixed, [echoTool])).toThrow(/already serves tools registered/);
  });
});
