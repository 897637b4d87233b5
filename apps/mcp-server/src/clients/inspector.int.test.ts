import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareClientWorkspace } from "../test-support/client-workspace.js";
import { type HttpProcess, startHttpProcess } from "../test-support/http-process.js";
import { CLI_PATH, type temporaryDirectory } from "../test-support/spawn-server.js";
import {
  type Node22Run,
  type Node22Toolbox,
  runNode22,
  TOOLBOX_INSTALL_TIMEOUT_MS,
} from "./node22.js";

// The MCP Inspector's CLI (@modelcontextprotocol/inspector 2, `mcp-inspector --cli`, Node >= 22.19)
// against the built agentool-mcp: it spawns the server over stdio itself (or reaches it over
// Streamable HTTP) and prints each method's result as JSON.

let toolbox: Node22Toolbox;
let workspace: ReturnType<typeof temporaryDirectory>;
let serverArgs: string[];

beforeAll(async () => {
  ({ toolbox, workspace, serverArgs } = await prepareClientWorkspace(
    {
      "project/notes/todo.md": "# Todo\n\n- ship the adapter\n",
      "skills/review-code/SKILL.md":
        "---\nname: review-code\ndescription: Review a change before it is merged.\n---\n# Review\n\n1. Read the diff.\n",
    },
    (path) => [
      "--root",
      join(path, "project"),
      "--families",
      "core,fs,git,web,knowledge,memory,skills,interact",
      "--memory-dir",
      join(path, "memory"),
      "--skills-dir",
      join(path, "skills"),
    ],
  ));
  mkdirSync(join(workspace.path, "home"));
}, TOOLBOX_INSTALL_TIMEOUT_MS);

afterAll(() => workspace?.cleanup());

/** Runs `mcp-inspector --cli <target> <args>` (its catalog and HOME inside the workspace). */
function inspect(target: readonly string[], args: readonly string[]): Promise<Node22Run> {
  const home = join(workspace.path, "home");
  return runNode22(toolbox, [toolbox.entries.inspector, "--cli", ...target, ...args], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      MCP_CATALOG_PATH: join(home, "mcp.json"),
    },
  });
}

/** Over stdio: the Inspector spawns `node dist/bin/agentool-mcp.js <serverArgs>`. */
async function inspectStdio(args: readonly string[]): Promise<unknown> {
  const run = await inspect([process.execPath, CLI_PATH, ...serverArgs], args);
  if (run.code !== 0)
    throw new Error(`inspector exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { type?: string };
}

describe("MCP Inspector 2.12 CLI under Node 22", { timeout: 60_000 }, () => {
  it("tools/list: every served tool with a description and an object input schema", async () => {
    const { tools } = (await inspectStdio(["--method", "tools/list"])) as { tools: ListedTool[] };
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["read_file", "grep_search", "memory_write", "use_skill", "notify"]),
    );
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe("object");
    }
  });

  it("tools/list --strict: no tool schema portability finding", async () => {
    const run = await inspect(
      [process.execPath, CLI_PATH, ...serverArgs],
      ["--method", "tools/list", "--strict"],
    );
    expect(run.stderr).not.toMatch(/portability/i);
    expect(run.code).toBe(0);
  });

  it("tools/call read_file with --tool-arg path=…", async () => {
    const result = await inspectStdio([
      "--method",
      "tools/call",
      "--tool-name",
      "read_file",
      "--tool-arg",
      "path=notes/todo.md",
    ]);
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: expect.stringMatching(
            /^notes\/todo\.md — lines 1–3 of 3 \(utf-8, sha: [0-9a-f]{12}\)\n {5}1\t# Todo\n {5}2\t\n {5}3\t- ship the adapter$/,
          ),
        },
      ],
    });
  });

  it("tools/call of a missing file: the isError result, and the Inspector's tool_is_error exit", async () => {
    const run = await inspect(
      [process.execPath, CLI_PATH, ...serverArgs],
      ["--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path=notes/todo.txt"],
    );
    expect(JSON.parse(run.stdout)).toEqual({
      content: [
        {
          type: "text",
          text: "Error [FILE_NOT_FOUND]: notes/todo.txt does not exist.\nHint: Check the path with list_directory (its parent directory) or glob_search (a name pattern).",
        },
      ],
      isError: true,
    });
    expect(run.stderr).toContain('"code":"tool_is_error"');
    expect(run.code).not.toBe(0);
  });

  it("prompts/list and prompts/get: the skills as prompts", async () => {
    expect(await inspectStdio(["--method", "prompts/list"])).toEqual({
      prompts: [
        {
          name: "review-code",
          title: "review-code",
          description: "Review a change before it is merged.",
        },
      ],
    });
    const prompt = (await inspectStdio([
      "--method",
      "prompts/get",
      "--prompt-name",
      "review-code",
    ])) as { messages: { role: string; content: { type: string; text: string } }[] };
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0]?.role).toBe("user");
    expect(prompt.messages[0]?.content.text).toMatch(
      /^Skill review-code — Review a change before it is merged\.\n\n# Review\n\n1\. Read the diff\./,
    );
  });

  it("resources/list: none (agentool serves no resources)", async () => {
    expect(await inspectStdio(["--method", "resources/list"])).toEqual({ resources: [] });
  });

  describe("over Streamable HTTP with a bearer token", () => {
    const token = randomBytes(24).toString("hex");
    let server: HttpProcess;

    beforeAll(async () => {
      server = await startHttpProcess([...serverArgs, "--http", "0"], {
        AGENTOOL_MCP_TOKEN: token,
      });
    });

    afterAll(() => server?.stop());

    it("tools/call read_file with --header Authorization", async () => {
      const run = await inspect(
        [server.url.href],
        [
          "--transport",
          "http",
          "--header",
          `Authorization: Bearer ${token}`,
          "--method",
          "tools/call",
          "--tool-name",
          "read_file",
          "--tool-arg",
          "path=notes/todo.md",
        ],
      );
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { content: { text: string }[] };
      expect(result.content[0]?.text).toContain("     3\t- ship the adapter");
    });
  });
});
