import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AGENTOOL_TOOL_NAMES,
  findAbsentToolNames,
  validateAnthropicInputSchema,
  validateToolName,
} from "@agentool/contract/testing";
import { ListToolsResultSchema, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  initializeRepository,
  requireBuiltCli,
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
  waitForExit,
} from "./test-support/spawn-server.js";
import { callTool as call, resultTextWithMarkers as text } from "./test-support/tool-results.js";

const READ_FS = [
  "read_file",
  "list_directory",
  "file_stats",
  "grep_search",
  "glob_search",
  "extract_toc",
  "count_words",
];
const WRITE_FS = [
  "write_file",
  "edit_file",
  "multi_edit",
  "apply_patch",
  "create_directory",
  "delete_file",
  "move_file",
  "copy_file",
];
const READ_GIT = ["git_status", "git_diff", "git_log", "git_show", "git_branch"];
const WRITE_GIT = ["git_add", "git_commit"];

let project: ReturnType<typeof temporaryDirectory>;
let page: Server;
let pageOrigin: string;

beforeAll(async () => {
  requireBuiltCli();
  project = temporaryDirectory({
    "README.md": "# Tally\n\nThe counter listens on port 8080.\n\n## Usage\n\nRun it.\n",
    "src/app.ts": "export const port = Number(process.env.TALLY_PORT ?? 3000);\n",
    "src/count.ts": "export function count(): number {\n  return 1;\n}\n",
  });
  initializeRepository(project.path);
  page = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      "<html><head><title>Tally docs</title></head><body><article><h1>Tally docs</h1><p>Change the port of the counter service with an environment variable.</p><p>The default is 8080.</p></article></body></html>",
    );
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});

afterAll(async () => {
  project?.cleanup();
  await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
});

async function withSession<T>(
  args: string[],
  work: (session: StdioSession) => Promise<T>,
): Promise<T> {
  const session = await startStdioSession(args);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

async function toolNames(session: StdioSession): Promise<string[]> {
  const { tools } = await session.client.listTools();
  return tools.map((tool) => tool.name);
}

describe("tools per family over stdio", () => {
  it("serves each family alone", async () => {
    const expected: Record<string, string[]> = {
      core: ["think", "update_plan"],
      fs: READ_FS,
      git: READ_GIT,
      web: ["wiki_search", "web_fetch"],
      knowledge: ["search_knowledge", "remember", "search_memory"],
      interact: ["notify"],
    };
    for (const [family, names] of Object.entries(expected)) {
      const listed = await withSession(["--root", project.path, "--families", family], toolNames);
      expect(listed, family).toEqual(names);
    }
  }, 60_000);

  it("serves every family by default, read-only", async () => {
    const listed = await withSession(["--root", project.path], toolNames);
    expect(listed).toEqual([
      "think",
      "update_plan",
      ...READ_FS,
      ...READ_GIT,
      "wiki_search",
      "web_fetch",
      "search_knowledge",
      "remember",
      "search_memory",
      "notify",
    ]);
    for (const name of [...WRITE_FS, ...WRITE_GIT, "run_command"]) {
      expect(listed).not.toContain(name);
    }
  });

  it("read-only mode has no write tools and every tool is annotated read-only", async () => {
    await withSession(["--root", project.path, "--families", "fs,git"], async (session) => {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([...READ_FS, ...READ_GIT]);
      for (const tool of tools) {
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      }
    });
  });

  it("read-write mode adds the write tools, and run_command with --allow-command", async () => {
    const listed = await withSession(
      [
        "--root",
        project.path,
        "--families",
        "fs,git",
        "--mode",
        "read-write",
        "--allow-command",
        "echo",
      ],
      toolNames,
    );
    expect(listed).toEqual([...READ_FS, ...WRITE_FS, "run_command", ...READ_GIT, ...WRITE_GIT]);
  });

  it("mounts web_search only with --searxng", async () => {
    const listed = await withSession(
      ["--families", "web", "--searxng", "http://127.0.0.1:9"],
      toolNames,
    );
    expect(listed).toEqual(["web_search", "wiki_search", "web_fetch"]);
  });

  it("leaves git out (with a note) when the root is not a repository, fs and git without a root", async () => {
    const plain = temporaryDirectory({ "a.txt": "a" });
    try {
      await withSession(["--root", plain.path, "--families", "fs,git"], async (session) => {
        expect(await toolNames(session)).toEqual(READ_FS);
        const note = `git tools left out: ${plain.path} is not the top level of a git work tree`;
        expect(session.stderr().split(note)).toHaveLength(2); // said once, not again after initialize
      });
      await withSession(["--families", "core,fs,git"], async (session) => {
        expect(await toolNames(session)).toEqual(["think", "update_plan"]);
        expect(session.stderr()).toContain("fs and git tools left out: no root");
      });
    } finally {
      plain.cleanup();
    }
  });

  it("lists tools the SDK's schemas and the conformance kit accept, naming only mounted tools", async () => {
    await withSession(
      ["--root", project.path, "--mode", "read-write", "--allow-command", "echo"],
      async (session) => {
        const raw = await session.client.listTools();
        const parsed = ListToolsResultSchema.parse(raw);
        const mounted = new Set(parsed.tools.map((tool) => tool.name));
        expect(mounted.size).toBe(parsed.tools.length);
        for (const tool of parsed.tools) {
          expect(ToolSchema.safeParse(tool).success, tool.name).toBe(true);
          for (const provider of ["openai", "anthropic", "gemini"] as const) {
            expect(validateToolName(tool.name, provider), tool.name).toEqual([]);
          }
          expect(
            validateAnthropicInputSchema(
              tool.inputSchema as Parameters<typeof validateAnthropicInputSchema>[0],
            ),
            tool.name,
          ).toEqual([]);
          expect(tool.inputSchema.type).toBe("object");
          expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
          expect(typeof tool.title, tool.name).toBe("string");
          expect(tool.outputSchema, tool.name).toBeUndefined();
          expect(
            findAbsentToolNames(tool.description ?? "", mounted, AGENTOOL_TOOL_NAMES),
            tool.name,
          ).toEqual([]);
        }
      },
    );
  });
});

describe("calling each family's tools over stdio", () => {
  it("core: think and update_plan", async () => {
    await withSession(["--families", "core"], async (session) => {
      const thought = await call(session, "think", { thought: "The port is the first fix." });
      expect(thought.isError ?? false).toBe(false);
      const plan = await call(session, "update_plan", {
        plan: [
          { step: "Fix the port", status: "in_progress" },
          { step: "Commit", status: "pending" },
        ],
      });
      expect(plan.isError ?? false).toBe(false);
      expect(text(plan)).toContain("Fix the port");
    });
  });

  it("fs: read_file, list_directory, grep_search and glob_search on a temp dir", async () => {
    await withSession(["--root", project.path, "--families", "fs"], async (session) => {
      const read = await call(session, "read_file", { path: "src/app.ts" });
      expect(read.isError ?? false).toBe(false);
      expect(text(read)).toContain("TALLY_PORT ?? 3000");
      const listing = await call(session, "list_directory", { path: "." });
      expect(text(listing)).toContain("README.md");
      expect(text(listing)).toContain("src");
      const grep = await call(session, "grep_search", { pattern: "3000|8080" });
      expect(grep.isError ?? false).toBe(false);
      expect(text(grep)).toContain("src/app.ts");
      expect(text(grep)).toContain("README.md");
      const glob = await call(session, "glob_search", { pattern: "**/*.ts" });
      expect(text(glob)).toContain("src/count.ts");
      expect(text(glob)).not.toContain("README.md");
    });
  });

  it("fs: a write in read-write mode lands on disk", async () => {
    const scratch = temporaryDirectory({ "notes.md": "one\n" });
    try {
      await withSession(
        ["--root", scratch.path, "--families", "fs", "--mode", "read-write"],
        async (session) => {
          const edit = await call(session, "edit_file", {
            path: "notes.md",
            old_text: "one",
            new_text: "two",
          });
          expect(edit.isError ?? false).toBe(false);
          const read = await call(session, "read_file", { path: "notes.md" });
          expect(text(read)).toContain("two");
        },
      );
    } finally {
      scratch.cleanup();
    }
  });

  it("git: git_status and git_log on a temp repository", async () => {
    await withSession(["--root", project.path, "--families", "git"], async (session) => {
      const status = await call(session, "git_status");
      expect(status.isError ?? false).toBe(false);
      expect(text(status)).toContain("main");
      const log = await call(session, "git_log", { limit: 5 });
      expect(text(log)).toContain("first");
    });
  });

  it("web: web_fetch of a real local page with --allow-host 127.0.0.1", async () => {
    await withSession(["--families", "web", "--allow-host", "127.0.0.1"], async (session) => {
      const fetched = await call(session, "web_fetch", { url: `${pageOrigin}/docs` });
      expect(fetched.isError ?? false).toBe(false);
      expect(text(fetched)).toContain("Change the port of the counter service");
    });
  });

  it("web: web_fetch refuses loopback without --allow-host (SSRF guard)", async () => {
    await withSession(["--families", "web"], async (session) => {
      const refused = await call(session, "web_fetch", { url: `${pageOrigin}/docs` });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^Error \[BLOCKED\]: /);
    });
  });

  it("interact: notify arrives as a logging message", async () => {
    const session = await startStdioSession(["--families", "interact"]);
    try {
      const messages: unknown[] = [];
      const { LoggingMessageNotificationSchema } = await import(
        "@modelcontextprotocol/sdk/types.js"
      );
      session.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        messages.push(notification.params);
      });
      const result = await call(session, "notify", {
        message: "Starting on the port fix.",
        level: "warning",
      });
      expect(result.isError ?? false).toBe(false);
      await expect
        .poll(() => messages, { timeout: 10_000 })
        .toContainEqual(expect.objectContaining({ level: "warning" }));
      expect(JSON.stringify(messages)).toContain("Starting on the port fix.");
    } finally {
      await session.close();
    }
  });
});

describe("error results over stdio", () => {
  it("returns isError with Error [CODE] text and a hint", async () => {
    await withSession(["--root", project.path, "--families", "fs,git"], async (session) => {
      const missing = await call(session, "read_file", { path: "src/absent.ts" });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/^Error \[FILE_NOT_FOUND\]: /);
      expect(text(missing)).toContain("Hint:");
      const outside = await call(session, "read_file", { path: "../../etc/passwd" });
      expect(outside.isError).toBe(true);
      expect(text(outside)).toMatch(/^Error \[(INVALID_PATH|PERMISSION_DENIED|BLOCKED)\]: /);
      const invalid = await call(session, "read_file", { paht: "src/app.ts" });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toMatch(/^Error \[INVALID_INPUT\]: /);
      expect(text(invalid)).toContain("path");
      const unknownRef = await call(session, "git_show", { ref: "no-such-ref" });
      expect(unknownRef.isError).toBe(true);
      expect(text(unknownRef)).toMatch(/^Error \[[A-Z_]+\]: /);
    });
  });
});

describe("process hygiene", () => {
  it("exits when stdin ends", async () => {
    const session = await startStdioSession(["--families", "core"]);
    await session.client.close();
    await waitForExit(session.pid);
  });

  it("exits on SIGTERM and says why on stderr", async () => {
    const session = await startStdioSession(["--families", "core"]);
    process.kill(session.pid, "SIGTERM");
    await session.waitForStderr("shutting down (SIGTERM)");
    await waitForExit(session.pid);
    await session.client.close();
  });
});
