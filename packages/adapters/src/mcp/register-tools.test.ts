import { type AnyTool, defineTool, ok, toJsonSchema } from "@agentool/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { echoTool, readNoteTool, screenshotTool, searchTool } from "../test-fixtures.js";
import { registerTools } from "./register-tools.js";

const open: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function connect(
  server: McpServer,
  client = new Client({ name: "test-client", version: "1.0.0" }),
): Promise<Client> {
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
  return new McpServer({ name: "agentool-test", version: "1.0.0" });
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

describe("registerTools: tools/list", () => {
  it("lists every tool with the contract's input schema, accepted by the SDK client", async () => {
    const server = newServer();
    const tools: AnyTool[] = [echoTool, searchTool, statusTool];
    registerTools(server, tools);
    const client = await connect(server);
    const listed = await client.listTools();
    expect(ListToolsResultSchema.safeParse(listed).success).toBe(true);
    expect(listed.tools.map((tool) => tool.name)).toEqual(["echo", "search_notes", "note_status"]);
    for (const tool of tools) {
      const entry = listed.tools.find((candidate) => candidate.name === tool.name);
      expect(entry?.inputSchema).toEqual(toJsonSchema(tool));
      expect(entry?.description).toBe(tool.description);
    }
  });
});

describe("registerTools: tools/call", () => {
  it("returns rendered text, and structuredContent that passes the client's outputSchema check", async () => {
    const server = newServer();
    registerTools(server, [echoTool, statusTool]);
    const client = await connect(server);
    await client.listTools();
    const echoed = await client.callTool({ name: "echo", arguments: { text: "hi", times: 2 } });
    expect(echoed).toEqual({ content: [{ type: "text", text: "hi hi" }] });
    const status = await client.callTool({ name: "note_status", arguments: {} });
    expect(status).toEqual({
      content: [{ type: "text", text: "3 notes." }],
      structuredContent: { count: 3 },
    });
  });

  it("sends text and image content", async () => {
    const server = newServer();
    registerTools(server, [screenshotTool]);
    const client = await connect(server);
    const result = await client.callTool({ name: "screenshot", arguments: {} });
    expect(CallToolResultSchema.parse(result).content.map((block) => block.type)).toEqual([
      "text",
      "image",
    ]);
  });

  it("turns a failure into isError with the Error [CODE] text", async () => {
    const server = newServer();
    registerTools(server, [readNoteTool]);
    const client = await connect(server);
    const result = await client.callTool({ name: "read_note", arguments: { title: "x" } });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: 'Error [FILE_NOT_FOUND]: There is no note titled "x".\nHint: Call list_notes to see the titles.',
        },
      ],
    });
  });

  it("sends list_changed on replace", async () => {
    const server = newServer();
    const registration = registerTools(server, [echoTool]);
    const client = await connect(server);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    registration.replace([statusTool]);
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["note_status"]);
    expect(registration.names).toEqual(["note_status"]);
  });
});
