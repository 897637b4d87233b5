import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentoolError, type AnyTool } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFsTools, fsToolNames } from "../create-fs-tools.js";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createWorkspace } from "../workspace.js";
import { createNodeFsTools } from "./create-node-fs-tools.js";
import { createNodeFileSystem } from "./node-file-system.js";
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
  it("works over a given workspace: its write locks hold edit_file back, its secrets apply", async () => {
    await writeFile(join(root, "shared.txt"), "one\n");
    const workspace = createWorkspace({
      fileSystem: createNodeFileSystem({ root }),
      secretPaths: ["**/notes.txt"],
    });
    const tools = createNodeFsTools({ root, workspace, mode: "read-write" });
    const tool = (name: string) => {
      const found = tools.find((candidate) => candidate.name === name);
      if (found === undefined) throw new Error(`no ${name}`);
      return found;
    };
    const secret = await tool("read_file").run({ path: "notes.txt" });
    expect(secret.success ? "read" : secret.error.code).toBe("BLOCKED");
    // Another family holding the file's lock (as edit_document would) keeps edit_file waiting.
    const real = (await workspace.resolve("shared.txt")).real;
    let release = () => {};
    const held = workspace.withLock(real, () => new Promise<void>((done) => (release = done)));
    let edited = false;
    const edit = tool("edit_file")
      .run({ path: "shared.txt", old_text: "one", new_text: "two" })
      .then((result) => {
        edited = true;
        return result;
      });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(edited).toBe(false);
    release();
    await held;
    const result = await edit;
    expect(result.success).toBe(true);
  });

  it("refuses a workspace given together with its own seam or secret lists", () => {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    expect(() => createFsTools({ workspace, secretPaths: ["x"] })).toThrow(
      /either workspace or secretPaths/,
    );
    expect(() => createFsTools({})).toThrow(/give fileSystem .* or workspace/);
  });

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
      "apply_patch",
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
});

/** A fresh tree for one conformance run (the read-write samples change it). */
async function makeFixture(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "agentool-fs-conformance-"));
  fixtures.push(directory);
  await mkdir(join(directory, "docs"), { recursive: true });
  await mkdir(join(directory, "many"), { recursive: true });
  await writeFile(
    join(directory, "README.md"),
    "# Project\n\nIntro text.\n\n## Usage\n\nRun it.\n\n## License\n\nMIT.\n",
  );
  await writeFile(join(directory, "docs", "guide.md"), "# Guide\n\nStep one.\n");
  await writeFile(join(directory, "notes.txt"), "alpha\nbeta\ngamma\n");
  await writeFile(join(directory, "old.txt"), "to be moved\n");
  await writeFile(join(directory, "trash.txt"), "to be deleted\n");
  await writeFile(join(directory, ".env"), "API_KEY=secret\n");
  // More entries than one default page of list_directory (500) and file_stats (200).
  await Promise.all(
    Array.from({ length: 520 }, (_, index) =>
      writeFile(
        join(directory, "many", `f${String(index).padStart(3, "0")}.txt`),
        `entry ${index}\n`,
      ),
    ),
  );
  return directory;
}

const fixtures: string[] = [];
afterAll(async () => {
  await Promise.all(fixtures.map((directory) => rm(directory, { recursive: true, force: true })));
});

/** A valid input for every tool: the kit runs each for real (read-only ones twice). */
const READ_SAMPLES = {
  read_file: { path: "README.md" },
  list_directory: { path: "." },
  file_stats: { path: "notes.txt" },
  grep_search: { pattern: "beta" },
  glob_search: { pattern: "**/*.md" },
  extract_toc: { path: "README.md" },
  count_words: { path: "docs/guide.md" },
  run_command: { command: ["echo", "hi"] },
};

const WRITE_SAMPLES = {
  write_file: { path: "out/new.txt", content: "hello\n" },
  edit_file: { path: "notes.txt", old_text: "beta", new_text: "BETA" },
  multi_edit: { path: "notes.txt", edits: [{ old_text: "gamma", new_text: "GAMMA" }] },
  apply_patch: {
    patch: "*** Begin Patch\n*** Update File: trash.txt\n@@\n+first line\n*** End Patch",
    dry_run: true,
  },
  create_directory: { path: "made/deep" },
  delete_file: { path: "trash.txt" },
  move_file: { source: "old.txt", destination: "moved/old.txt" },
  copy_file: { source: "docs", destination: "docs-copy" },
};

/**
 * An input whose result must be cut, for every tool that can cut: the kit checks truncated,
 * total / total_at_least, next_offset and the marker, then makes the very call the marker names.
 */
const CUT_SAMPLES = {
  read_file: { path: "README.md", limit: 2 },
  list_directory: { path: "many", depth: 2, include_hidden: true, limit: 200 },
  file_stats: { path: "many", limit: 150 },
  grep_search: {
    pattern: "ENTRY",
    path: "many",
    glob: "f1*.txt",
    ignore_case: true,
    context_lines: 1,
    limit: 25,
  },
  glob_search: { pattern: "*.txt", path: "many", limit: 100 },
  extract_toc: { path: "README.md", limit: 1 },
  run_command: { command: ["seq", "1", "400"] },
};

/** The other grep_search modes, each checked the same way. */
const GREP_MODE_CUT_SAMPLES = [
  {
    pattern: "entry 1",
    path: "many",
    glob: "*.txt",
    literal: true,
    output_mode: "files_with_matches",
    limit: 50,
  },
  { pattern: "ENTRY", path: "many", ignore_case: true, output_mode: "count", limit: 100 },
];

function runCommand(root: string, mode: "read-only" | "read-write") {
  return createRunCommandTool({
    root,
    allowedCommands: ["echo", "seq"],
    maxHeadLines: 20,
    maxTailLines: 20,
    mountedTools: fsToolNames({ mode }),
  });
}

describe.each([
  ["read-only", READ_SAMPLES],
  ["read-write", { ...READ_SAMPLES, ...WRITE_SAMPLES }],
] as const)("the family in %s mode passes the conformance kit", (mode, samples) => {
  it("with a real run of every tool and a followed marker of every tool that cuts", async () => {
    const root = await makeFixture();
    const tools = [
      ...createNodeFsTools({ root, mode, alsoMounted: ["run_command"] }),
      runCommand(root, mode),
    ];
    expect(tools).toHaveLength(mode === "read-only" ? 8 : 16);
    await assertConformance(tools, {
      samples,
      cutSamples: CUT_SAMPLES,
      unpaged: ["run_command"],
      // Each read-only sample again with its path written absolute inside the root.
      workspaceRoot: root,
    });
    // The kit follows every cut sample's markers to the last page: many calls.
  }, 60_000);

  it("with every grep_search output mode cut and paged", async () => {
    const root = await makeFixture();
    const tools = createNodeFsTools({ root, mode, alsoMounted: ["run_command"] });
    const grep = tools.find((tool) => tool.name === "grep_search");
    const others = tools.filter((tool) => tool !== grep).map((tool) => tool.name);
    for (const cut of GREP_MODE_CUT_SAMPLES) {
      await assertConformance([grep], {
        cutSamples: { grep_search: cut },
        alsoMounted: [...others, "run_command"],
      });
    }
  }, 60_000);
});

describe("descriptions speak of what is mounted", () => {
  const writeNames = [
    "write_file",
    "edit_file",
    "multi_edit",
    "apply_patch",
    "create_directory",
    "delete_file",
    "move_file",
    "copy_file",
  ];

  it("a read-only set never names a write tool, nor run_command unless the host mounts it", async () => {
    const root = await makeFixture();
    const tools = createNodeFsTools({ root });
    for (const tool of tools) {
      const fields = Object.values(
        tool.input.shape as Record<string, { description?: string }>,
      ).map((field) => field.description ?? "");
      const text = [tool.description, ...fields].join("\n");
      for (const name of [...writeNames, "run_command"]) {
        expect(text, `${tool.name} names ${name}`).not.toMatch(
          new RegExp(`(?<![a-z_])${name}(?![a-z_])`),
        );
      }
    }
    // The kit agrees: nothing else is mounted.
    await assertConformance(tools);
  });

  it("the read-write set teaches the workflow across the tools it mounts", () => {
    const tools = createFsTools({ fileSystem: createMemoryFileSystem(), mode: "read-write" });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("list_directory")?.description).toContain("glob_search");
    expect(byName.get("create_directory")?.description).toContain(
      "before write_file, move_file or copy_file",
    );
    expect(byName.get("move_file")?.description).toContain("copy_file");
  });

  it("a renamed tool is not named by its old name", () => {
    const tools = createFsTools({
      fileSystem: createMemoryFileSystem(),
      globSearch: { name: "find_files" },
      alsoMounted: ["git_status"],
    });
    expect(fsToolNames({ globSearch: { name: "find_files" } })).toContain("find_files");
    const listDirectory = tools.find((tool) => tool.name === "list_directory");
    expect(listDirectory?.description).not.toContain("glob_search");
    expect(listDirectory?.description).toContain("file_stats");
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
