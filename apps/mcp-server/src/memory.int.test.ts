import { AGENTOOL_TOOL_NAMES, findAbsentToolNames } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "./command-line.js";
import { createAgentoolMcpServer } from "./create-agentool-mcp-server.js";
import {
  requireBuiltCli,
  runCli,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { callTool as call, resultText as text } from "./test-support/tool-results.js";

const MEMORY_TOOLS = [
  "memory_write",
  "memory_read",
  "memory_search",
  "memory_list",
  "memory_delete",
];

let memories: ReturnType<typeof temporaryDirectory>;
let project: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  requireBuiltCli();
  memories = temporaryDirectory();
  project = temporaryDirectory({ "README.md": "# Project\n" });
});

afterAll(() => {
  memories?.cleanup();
  project?.cleanup();
});

describe("memory family", () => {
  it("parses --memory-dir and refuses the flags that do not fit together", async () => {
    const parsed = parseCommandLine(["--families", "memory", "--memory-dir", "/tmp/m"]);
    expect(parsed).toMatchObject({
      action: "serve",
      options: { families: ["memory"], memoryDir: "/tmp/m" },
    });
    const missing = await runCli(["--families", "memory"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "The memory family keeps its memories in a folder: add --memory-dir <dir>",
    );
    const wrongFamily = await runCli(["--families", "core", "--memory-dir", memories.path]);
    expect(wrongFamily.stderr).toContain(
      "--memory-dir configures the memory family: add memory to --families or drop --memory-dir.",
    );
    expect((await runCli(["--help"])).stdout).toContain("--memory-dir <dir>");
    // The library: the default families hold memory only when it has a folder.
    const server = createAgentoolMcpServer({ root: project.path, log: () => undefined });
    expect(server.toolNames.filter((name) => name.startsWith("memory_"))).toEqual([]);
    await server.dispose();
    const withMemory = createAgentoolMcpServer({
      root: project.path,
      memoryDir: memories.path,
      log: () => undefined,
    });
    expect(withMemory.toolNames.filter((name) => name.startsWith("memory_")).sort()).toEqual(
      [...MEMORY_TOOLS].sort(),
    );
    await withMemory.dispose();
  });

  it("serves the five memory tools over stdio, and the memories survive a restart", async () => {
    const args = ["--families", "memory", "--memory-dir", memories.path];
    const first = await startStdioSession(args);
    try {
      const listed = await first.client.listTools();
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...MEMORY_TOOLS].sort());
      for (const tool of listed.tools) {
        expect(
          findAbsentToolNames(tool.description ?? "", new Set(MEMORY_TOOLS), AGENTOOL_TOOL_NAMES),
        ).toEqual([]);
      }
      const deleteTool = listed.tools.find((tool) => tool.name === "memory_delete");
      expect(deleteTool?.annotations?.destructiveHint).toBe(true);
      const saved = await call(first, "memory_write", {
        key: "user/preferences/answers",
        content: "The user wants short answers with code first.",
        tags: ["preference"],
      });
      expect(saved.isError).not.toBe(true);
      expect(text(saved)).toContain('Saved a new memory "user/preferences/answers"');
    } finally {
      await first.close();
    }
    const second = await startStdioSession(args);
    try {
      const found = await call(second, "memory_search", { query: "short answers" });
      expect(text(found)).toContain("user/preferences/answers");
      const read = await call(second, "memory_read", { key: "user/preferences/answers" });
      expect(text(read)).toContain("The user wants short answers with code first.");
      const missing = await call(second, "memory_read", { key: "user/preferences/answer" });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toContain("MEMORY_KEY_NOT_FOUND");
      expect(text(missing)).toContain('"user/preferences/answers"');
    } finally {
      await second.close();
    }
  }, 60_000);

  it("read-only mode leaves the memory tools out when --memory-dir lies inside the root", async () => {
    const session = await startStdioSession([
      "--root",
      project.path,
      "--families",
      "core,memory",
      "--memory-dir",
      `${project.path}/.memory`,
    ]);
    try {
      const listed = await session.client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(["think", "update_plan"]);
      await session.waitForStderr(
        "memory tools left out: read-only mode writes nothing inside the root",
      );
    } finally {
      await session.close();
    }
  }, 60_000);

  it("--families memory,skills serves the memory and skills tools together, each naming the other", async () => {
    const skills = temporaryDirectory({
      "write-notes/SKILL.md":
        "---\nname: write-notes\ndescription: Keep notes of the user's preferences\n---\n# Steps\n\n1. Save each preference with memory_write.\n",
    });
    const store = temporaryDirectory();
    const args = [
      "--families",
      "memory,skills",
      "--memory-dir",
      store.path,
      "--skills-dir",
      skills.path,
    ];
    expect(parseCommandLine(args)).toMatchObject({
      action: "serve",
      options: { families: ["memory", "skills"], memoryDir: store.path, skillsDir: skills.path },
    });
    const session = await startStdioSession(args);
    try {
      const listed = await session.client.listTools();
      const served = [...MEMORY_TOOLS, "use_skill", "read_skill_file"];
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...served].sort());
      for (const tool of listed.tools) {
        expect(
          findAbsentToolNames(tool.description ?? "", new Set(served), AGENTOOL_TOOL_NAMES),
        ).toEqual([]);
      }
      const skill = await call(session, "use_skill", { name: "write-notes" });
      expect(skill.isError).not.toBe(true);
      expect(text(skill)).toContain("Save each preference with memory_write.");
      const saved = await call(session, "memory_write", {
        key: "user/preferences/notes",
        content: "Keep notes short.",
        tags: ["preference"],
      });
      expect(text(saved)).toContain('Saved a new memory "user/preferences/notes"');
      const found = await call(session, "memory_search", { query: "notes", tags: ["preference"] });
      expect(text(found)).toContain("1. user/preferences/notes (tags: preference)");
    } finally {
      await session.close();
      skills.cleanup();
      store.cleanup();
    }
  }, 60_000);
});
