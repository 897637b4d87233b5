import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpProcess, startHttpProcess } from "../test-support/http-process.js";
import { CLI_PATH, requireBuiltCli, temporaryDirectory } from "../test-support/spawn-server.js";
import {
  type Node22Toolbox,
  node22Toolbox,
  runNode22,
  TOOLBOX_INSTALL_TIMEOUT_MS,
} from "./node22.js";

// The AI SDK's MCP client (@ai-sdk/mcp 2, Node >= 22) against the built agentool-mcp, over stdio
// and Streamable HTTP: ai-sdk-client.mjs runs under the toolbox's Node 22, lists the tools, turns
// them into AI SDK tools (client.tools()) and executes calls through them.

const CLIENT_SCRIPT = fileURLToPath(new URL("./ai-sdk-client.mjs", import.meta.url));

interface ClientOutput {
  serverInfo: { name: string; version: string };
  listed: { name: string; inputSchema: Record<string, unknown> }[];
  schemas: Record<string, unknown>;
  calls: {
    name: string;
    result?: { content: { type: string; text?: string }[]; isError?: boolean };
    modelOutput?: { type: string; value: { type: string; text?: string }[] };
    error?: { name: string; message: string; code?: number };
  }[];
}

const CALLS = [
  { name: "read_file", input: { path: "notes/todo.md" } },
  { name: "list_directory", input: { path: "notes" } },
  { name: "read_file", input: { path: "notes/todo.txt" } },
  { name: "read_files", input: { path: "notes/todo.md" } },
];

let toolbox: Node22Toolbox;
let workspace: ReturnType<typeof temporaryDirectory>;

beforeAll(async () => {
  requireBuiltCli();
  workspace = temporaryDirectory({ "notes/todo.md": "# Todo\n\n- ship the adapter\n" });
  toolbox = await node22Toolbox();
}, TOOLBOX_INSTALL_TIMEOUT_MS);

afterAll(() => workspace?.cleanup());

async function runClient(config: Record<string, unknown>): Promise<ClientOutput> {
  const run = await runNode22(toolbox, [
    CLIENT_SCRIPT,
    JSON.stringify({
      aiSdkMcp: toolbox.entries.aiSdkMcp,
      aiSdkMcpStdio: toolbox.entries.aiSdkMcpStdio,
      calls: CALLS,
      ...config,
    }),
  ]);
  if (run.code !== 0) throw new Error(`the AI SDK client failed (${run.code}):\n${run.stderr}`);
  return JSON.parse(run.stdout) as ClientOutput;
}

function expectAgentoolAnswers(output: ClientOutput): void {
  expect(output.serverInfo).toMatchObject({ name: "agentool" });
  const names = output.listed.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(["read_file", "list_directory", "grep_search"]));
  // every schema survives the AI SDK's conversion (jsonSchema() with additionalProperties: false)
  for (const tool of output.listed) {
    expect(output.schemas[tool.name], tool.name).toEqual(tool.inputSchema);
  }
  const [read, list, missing, unknown] = output.calls;
  expect(read?.result?.isError).toBe(false);
  expect(read?.result?.content[0]?.text).toMatch(
    /^notes\/todo\.md — lines 1–3 of 3 \(utf-8, sha: [0-9a-f]{12}\)\n {5}1\t# Todo\n/,
  );
  expect(read?.modelOutput).toEqual({ type: "content", value: read?.result?.content });
  expect(list?.result?.content[0]?.text).toContain("todo.md");
  // a failing call is a tool result the model reads: our code, message and hint
  expect(missing?.result?.isError).toBe(true);
  expect(missing?.modelOutput?.value[0]?.text).toBe(
    "Error [FILE_NOT_FOUND]: notes/todo.txt does not exist.\nHint: Check the path with list_directory (its parent directory) or glob_search (a name pattern).",
  );
  // an unknown tool is a JSON-RPC error (Invalid params) naming the closest tool
  expect(unknown?.error).toMatchObject({ name: "MCPClientError", code: -32602 });
  expect(unknown?.error?.message).toMatch(/^Unknown tool: "read_files"\..*"read_file"/s);
}

describe("@ai-sdk/mcp 2 (createMCPClient) under Node 22", { timeout: 60_000 }, () => {
  it("works over stdio: lists, converts and calls the tools", async () => {
    const output = await runClient({
      transport: "stdio",
      command: process.execPath,
      args: [CLI_PATH, "--root", workspace.path, "--families", "core,fs"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace.path },
    });
    expectAgentoolAnswers(output);
  });

  describe("over Streamable HTTP with a bearer token", () => {
    const token = randomBytes(24).toString("hex");
    let server: HttpProcess;

    beforeAll(async () => {
      server = await startHttpProcess(
        ["--root", workspace.path, "--families", "core,fs", "--http", "0"],
        { AGENTOOL_MCP_TOKEN: token },
      );
    });

    afterAll(() => server?.stop());

    it("lists, converts and calls the tools", async () => {
      const output = await runClient({ transport: "http", url: server.url.href, token });
      expectAgentoolAnswers(output);
    });

    it("is refused with a wrong token", async () => {
      const run = await runNode22(toolbox, [
        CLIENT_SCRIPT,
        JSON.stringify({
          aiSdkMcp: toolbox.entries.aiSdkMcp,
          transport: "http",
          url: server.url.href,
          token: "wrong",
          calls: [],
        }),
      ]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/401|Unauthorized/i);
    });
  });
});
