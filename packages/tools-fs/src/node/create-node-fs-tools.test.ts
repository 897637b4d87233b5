import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentoolError, type AnyTool } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFsTools } from "../create-fs-tools.js";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createNodeFsTools } from "./create-node-fs-tools.js";
import { createRunCommandTool } from "./run-command.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-fs-tools-"));
  await mkdir(join(root, "docs"), { recursive: true });
  await writeFile(join(root, "README.md"), "# Project\n\nIntro text.\n\n## Usage\n\nRun it.\n");
  await writeFile(join(root, "docs", "guide.md"), "# Guide\n\nStep one.\n");
  await writeFile(join(root, "notes.txt"), "alpha\nbeta\ngamma\n");
  await writeFile(join(root, "old.txt"), "to be moved\n");
  await writeFile(join(root, "trash.txt"), "to be deleted\n");
  await writeFile(join(root, ".env"), "API_KEY=secret\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const names = (tools: AnyTool[]) => tools.map((tool) => tool.name);

describe("createNodeFsTools", () => {
  it("is read-only by default and adds the write tools in read-write mode", () => {
    expect(names(createNodeFsTools({ root }))).toEqual([
      "read_file",
      "list_directory",
      "file_stats",
      "grep_search",
      "glob_search",
      "extract_toc",
      "count_words",
    ]);
    const readWrite = createNodeFsTools({ root, mode: "read-write" });
    expect(names(readWrite)).toEqual([
      "read_file",
      "list_directory",
      "file_stats",
      "grep_search",
      "glob_search",
      "extract_toc",
      "count_words",
      "write_file",
      "edit_file",
      "multi_edit",
      "create_directory",
      "delete_file",
      "move_file",
      "copy_file",
    ]);
    expect(readWrite.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name)).toEqual([
      "read_file",
      "list_directory",
      "file_stats",
      "grep_search",
      "glob_search",
      "extract_toc",
      "count_words",
    ]);
    expect(names(readWrite)).not.toContain("run_command");
  });

  it("passes per-tool options and refuses unknown ones", () => {
    const tools = createNodeFsTools({ root, readFile: { name: "view_file" } });
    expect(names(tools)).toContain("view_file");
    expect(() => createNodeFsTools({ root, mood: "read-write" } as never)).toThrow(AgentoolError);
    expect(() => createNodeFsTools({ root, readFile: { maxLimitt: 3 } as never })).toThrow(
      /maxLimitt/,
    );
    expect(() => createNodeFsTools({ root: join(root, "missing") })).toThrow(AgentoolError);
  });

  it("keeps secret paths out of every read tool", async () => {
    const tools = createNodeFsTools({ root });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const read = await byName.get("read_file")?.run({ path: ".env" });
    expect(read).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    const grep = await byName.get("grep_search")?.run({ pattern: "API_KEY" });
    expect(JSON.stringify(grep)).not.toContain("secret");
    const glob = await byName.get("glob_search")?.run({ pattern: "**/.env" });
    expect(JSON.stringify(glob)).not.toContain('".env"');
  });

  it("every tool passes the contract's conformance kit, with a real run of each", async () => {
    const tools = [
      ...createNodeFsTools({ root, mode: "read-write" }),
      createRunCommandTool({ root, allowedCommands: ["echo"] }),
    ];
    await assertConformance(tools, {
      samples: {
        read_file: { path: "README.md" },
        list_directory: { path: "." },
        file_stats: { path: "notes.txt" },
        grep_search: { pattern: "beta" },
        glob_search: { pattern: "**/*.md" },
        extract_toc: { path: "README.md" },
        count_words: { path: "docs/guide.md" },
        write_file: { path: "out/new.txt", content: "hello\n" },
        edit_file: { path: "notes.txt", old_text: "beta", new_text: "BETA" },
        multi_edit: { path: "notes.txt", edits: [{ old_text: "gamma", new_text: "GAMMA" }] },
        create_directory: { path: "made/deep" },
        delete_file: { path: "trash.txt" },
        move_file: { source: "old.txt", destination: "moved/old.txt" },
        copy_file: { source: "docs", destination: "docs-copy" },
        run_command: { command: ["echo", "hi"] },
      },
    });
  });
});

describe("createFsTools over the memory seam", () => {
  it("works without Node: the search tools use the JS engine", async () => {
    const tools = createFsTools({
      fileSystem: createMemoryFileSystem({ "src/a.ts": "const port = 3000;\n", "b.md": "# B\n" }),
      mode: "read-write",
    });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const grep = await byName.get("grep_search")?.run({ pattern: "port" });
    expect(grep?.success).toBe(true);
    expect(JSON.stringify(grep)).toContain("src/a.ts");
    const edit = await byName
      .get("edit_file")
      ?.run({ path: "src/a.ts", old_text: "3000", new_text: "8080" });
    expect(edit?.success).toBe(true);
    const read = await byName.get("read_file")?.run({ path: "src/a.ts" });
    expect(byName.get("read_file")?.renderResult(read as never)).toContain("const port = 8080;");
  });
});
