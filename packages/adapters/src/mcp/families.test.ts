import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyTool, toJsonSchema, toOutputJsonSchema } from "@agentool/contract";
import { sampleFromSchema } from "@agentool/contract/testing";
import { createCoreTools } from "@agentool/tools-core";
import { createNodeFsTools, createRunCommandTool } from "@agentool/tools-fs/node";
import { createGitTools } from "@agentool/tools-git";
import { createInteractTools } from "@agentool/tools-interact";
import { createSearxngProvider } from "@agentool/tools-web";
import { createNodeWebTools } from "@agentool/tools-web/node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpInteractionHandler } from "./create-mcp-interaction-handler.js";
import { registerTools } from "./register-tools.js";

let root = "";
let server: McpServer;
let client: Client;
let tools: AnyTool[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "agentool-mcp-families-"));
  writeFileSync(join(root, "README.md"), "# Sample\n\nSome words here.\n");
  execFileSync("git", ["init", "--quiet", root]);
  server = new McpServer(
    { name: "agentool-families", version: "1.0.0" },
    { capabilities: { logging: {} } },
  );
  const handler = createMcpInteractionHandler(server);
  tools = [
    ...createCoreTools(),
    ...createNodeFsTools({ root, mode: "read-write" }),
    createRunCommandTool({ root, allowedCommands: ["ls"] }),
    ...createGitTools({ root, mode: "read-write" }),
    ...createNodeWebTools({
      search: { provider: createSearxngProvider({ baseUrl: "http://127.0.0.1:9" }) },
    }),
    ...createInteractTools({ handler }),
  ];
  registerTools(server, tools);
  client = new Client({ name: "families-client", version: "1.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  if (root !== "") rmSync(root, { recursive: true, force: true });
});

describe("every family through registerTools", () => {
  it("lists every tool in a tools/list result the SDK's ListToolsResultSchema accepts", async () => {
    const raw = await client.request({ method: "tools/list" }, ListToolsResultSchema);
    const parsed = ListToolsResultSchema.safeParse(raw);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(raw.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    expect(tools.length).toBeGreaterThanOrEqual(30);
    for (const tool of tools) {
      const entry = raw.tools.find((candidate) => candidate.name === tool.name);
      expect(entry?.inputSchema, tool.name).toEqual(toJsonSchema(tool));
      expect(entry?.outputSchema, tool.name).toEqual(toOutputJsonSchema(tool));
      expect(entry?.title, tool.name).toMatch(/\S/);
    }
    // The request schema is real too: the client sent what the server's schema reads.
    expect(ListToolsRequestSchema.safeParse({ method: "tools/list" }).success).toBe(true);
  });

  it("answers a sample call of every closed-world tool with a valid CallToolResult", async () => {
    await client.listTools(); // caches the output validators: declared data is checked too
    const closedWorld = tools.filter(
      (tool) => tool.annotations.openWorld !== true && tool.name !== "run_command",
    );
    expect(closedWorld.length).toBeGreaterThanOrEqual(20);
    const structured: string[] = [];
    for (const tool of closedWorld) {
      const input = sampleFromSchema(toJsonSchema(tool)) as Record<string, unknown>;
      const result = await client.callTool({ name: tool.name, arguments: input });
      const parsed = CallToolResultSchema.safeParse(result);
      expect(parsed.success, tool.name).toBe(true);
      if (result.isError !== true && tool.output !== undefined) {
        expect(result.structuredContent, tool.name).toBeDefined();
        structured.push(tool.name);
      }
    }
    // Tools whose data the client checked against their outputSchema.
    expect(structured).toContain("git_status");
  });
});
