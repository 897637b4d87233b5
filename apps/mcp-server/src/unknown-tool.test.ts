import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpProcess, startHttpProcess } from "./test-support/http-process.js";
import {
  requireBuiltCli,
  type StdioSession,
  startStdioSession,
} from "./test-support/spawn-server.js";
import { unknownToolCall, unknownToolError } from "./unknown-tool.js";

/** The McpError a call rejected with (fails the test when it resolved). */
async function rejection(call: Promise<unknown>): Promise<McpError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error("the call resolved; a JSON-RPC error was expected");
}

describe("unknownToolCall and unknownToolError", () => {
  it("pick out only tools/call requests of names not served", () => {
    const call = (name: unknown) => ({
      jsonrpc: "2.0" as const,
      id: 7,
      method: "tools/call",
      params: { name },
    });
    expect(unknownToolCall(call("reed_file"), ["read_file"])).toEqual({ id: 7, name: "reed_file" });
    expect(unknownToolCall(call("read_file"), ["read_file"])).toBeUndefined();
    // A malformed name is the SDK's to refuse (its schema error).
    expect(unknownToolCall(call(42), ["read_file"])).toBeUndefined();
    expect(
      unknownToolCall({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, []),
    ).toBeUndefined();
    expect(
      unknownToolCall({ jsonrpc: "2.0", method: "tools/call", params: { name: "x" } } as never, []),
    ).toBeUndefined();
  });

  it("answer -32602 naming the tool, with a did-you-mean only when one is close", () => {
    const close = unknownToolError(3, "reed_file", ["read_file", "write_file"]);
    expect(close).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32_602,
        message:
          'Unknown tool: "reed_file". Did you mean "read_file"? Call tools/list for the tools this server serves.',
        data: { available: ["read_file", "write_file"] },
      },
    });
    expect(unknownToolError(3, "launch_rockets", ["read_file"]).error.message).toBe(
      'Unknown tool: "launch_rockets". Call tools/list for the tools this server serves.',
    );
  });
});

describe("an unknown tool through a real client", () => {
  let session: StdioSession;
  let http: HttpProcess;

  beforeAll(async () => {
    requireBuiltCli();
    session = await startStdioSession(["--families", "core"]);
    http = await startHttpProcess(["--http", "0", "--no-auth", "--families", "core"]);
  });

  afterAll(async () => {
    await session?.close();
    await http?.stop();
  });

  it("is a JSON-RPC Invalid params error over stdio, not an isError result", async () => {
    const error = await rejection(session.client.callTool({ name: "thinc", arguments: {} }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toBe(
      'MCP error -32602: Unknown tool: "thinc". Did you mean "think"? Call tools/list for the tools this server serves.',
    );
    expect(error.data).toEqual({ available: ["think", "update_plan"] });
    const far = await rejection(session.client.callTool({ name: "deploy_to_prod", arguments: {} }));
    expect(far.code).toBe(ErrorCode.InvalidParams);
    expect(far.message).not.toContain("Did you mean");
    // The session goes on: a served tool still answers.
    const thought = await session.client.callTool({ name: "think", arguments: { thought: "ok" } });
    expect(thought.isError).not.toBe(true);
  });

  it("is the same error over Streamable HTTP", async () => {
    const client = new Client({ name: "unknown-tool-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(http.url));
    try {
      const error = await rejection(client.callTool({ name: "update_plam", arguments: {} }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain('Did you mean "update_plan"?');
    } finally {
      await client.close();
    }
  });
});
