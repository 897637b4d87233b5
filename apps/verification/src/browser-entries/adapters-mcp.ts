// @agentool/adapters/mcp in the browser: tools registered on an MCP SDK server, reached by an MCP
// client over the SDK's in-memory transport (as a page hosting its own MCP server would).
import { registerTools } from "@agentool/adapters/mcp";
import { createCoreTools } from "@agentool/tools-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

/**
 * Serves the core tools, lists them from a client and calls `think`.
 *
 * @returns the listed tool names and the `tools/call` result
 */
export default async function run(): Promise<{ listed: string[]; called: unknown }> {
  const server = new McpServer({ name: "browser-tools", version: "1.0.0" });
  registerTools(server, createCoreTools());
  const client = new Client({ name: "browser-client", version: "1.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const { tools } = await client.listTools();
    const called = await client.callTool({
      name: "think",
      arguments: { thought: "Plan before acting." },
    });
    return { listed: tools.map((tool) => tool.name), called };
  } finally {
    await client.close();
    await server.close();
  }
}
