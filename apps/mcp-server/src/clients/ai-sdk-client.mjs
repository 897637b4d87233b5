// A real AI SDK MCP client, run under Node 22 by ai-sdk.int.test.ts: `createMCPClient` from
// @ai-sdk/mcp connects to agentool-mcp (stdio or Streamable HTTP), lists the tools, turns them
// into AI SDK tools and runs calls through them, then prints one JSON object on stdout.
//
//   node ai-sdk-client.mjs '<json>'   with { aiSdkMcp, aiSdkMcpStdio, transport: "stdio" | "http",
//                                      command?, args?, env?, url?, token?, calls: [{ name, input }] }
import { pathToFileURL } from "node:url";

const config = JSON.parse(process.argv[2] ?? "{}");
const { createMCPClient } = await import(pathToFileURL(config.aiSdkMcp).href);

/** @returns {Promise<unknown>} the transport of the configured kind */
async function createTransport() {
  if (config.transport === "stdio") {
    const { StdioMCPTransport } = await import(pathToFileURL(config.aiSdkMcpStdio).href);
    return new StdioMCPTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      stderr: "ignore",
    });
  }
  return { type: "http", url: config.url, headers: { Authorization: `Bearer ${config.token}` } };
}

const client = await createMCPClient({ transport: await createTransport() });
try {
  const listed = await client.listTools();
  const tools = await client.tools();
  const calls = [];
  for (const [index, call] of config.calls.entries()) {
    const aiTool = tools[call.name];
    if (aiTool === undefined) {
      // not an AI SDK tool: the raw client call, to see the protocol error it raises
      try {
        calls.push({
          name: call.name,
          result: await client.callTool({ name: call.name, arguments: call.input }),
        });
      } catch (error) {
        calls.push({
          name: call.name,
          error: { name: error.name, message: error.message, code: error.code },
        });
      }
      continue;
    }
    const options = { toolCallId: `call-${index}`, messages: [] };
    const output = await aiTool.execute(call.input, options);
    const modelOutput = await aiTool.toModelOutput?.({
      toolCallId: options.toolCallId,
      input: call.input,
      output,
    });
    calls.push({ name: call.name, result: output, modelOutput });
  }
  const schemas = Object.fromEntries(
    Object.entries(tools).map(([name, aiTool]) => [name, aiTool.inputSchema.jsonSchema]),
  );
  process.stdout.write(
    `${JSON.stringify({ serverInfo: client.serverInfo, listed: listed.tools, schemas, calls })}\n`,
  );
} finally {
  await client.close();
}
