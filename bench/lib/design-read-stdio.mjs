// design_read served over MCP stdio for the design side-by-side's timing, so both readers are
// timed the same way (an MCP client call to a server process). A bench harness only: the
// product's MCP server (apps/mcp-server) mounts the design family on its own.
// Usage: node design-read-stdio.mjs <recorded-server-origin>
import { registerTools } from "@agentool/adapters/mcp";
import { createDesignReadTool } from "@agentool/tools-design";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { RECORDED_TOKEN } from "./figma-recorded-server.mjs";

const origin = process.argv[2];
if (origin === undefined) throw new Error("usage: design-read-stdio.mjs <origin>");
const server = new McpServer({ name: "agentool-design-bench", version: "0.0.0" });
const transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });
registerTools(server, [
  createDesignReadTool({ figmaToken: RECORDED_TOKEN, baseUrl: origin, transport }),
]);
await server.connect(new StdioServerTransport());
