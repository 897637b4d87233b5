import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRUNCATION_MARKER_PATTERN } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGlobSearchTool, type GlobSearchToolData } from "./glob-search.js";
import type { FileLister } from "./internal/search-types.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createRipgrepLister } from "./node/ripgrep-search.js";
import { createWorkspace } from "./workspace.js";

let base: string;
let root: string;

const files: Record<string, number> = {
  "src/old.ts": 1_000,
  "src/new.ts": 3_000,
  "src/mid.ts": 2_000,
  "docs/guide.md": 1_500,
  ".env": 4_000,
  ".ssh/config.ts": 4_000,
  "keys/server.pem": 4_000,
  ".github/ci.ts": 4_000,
  "node_modules/pkg/index.ts": 4_000,
  ".gitignore": 500,
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "agentool-glob-"));
  root = join(base, "root");
  for (const [path, seconds] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), path === ".gitignore" ? "node_modules/\n" : "x\n");
    await utimes(join(root, path), seconds, 1_700_000_000 + seconds);
  }
  await mkdir(join(base, "outside"));
  await writeFile(join(base, "outside", "leak.ts"), "x");
  await symlink(join(base, "outside"), join(root, "src", "linked"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

type Engine = { name: string; lister: () => FileLister | undefined };
const engines: Engine[] = [
  { name: "ripgrep", lister: () => createRipgrepLister({ root }) },
  { name: "js engine over the node seam", lister: () => undefined },
];

function makeTool(engine: Engine, maxResults?: number) {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const lister = engine.lister();
  return createGlobSearchTool({
    workspace,
    ...(lister === undefined ? {} : { lister }),
    ...(maxResults === undefined ? {} : { maxResults }),
  });
}

async function data(
  engine: Engine,
  input: Record<string, unknown>,
  maxResults?: number,
): Promise<GlobSearchToolData> {
  const result = await makeTool(engine, maxResults).run(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return result.data;
}

describe.each(engines)("glob_search with the $name", (engine) => {
  it("lists matching files newest first, without hidden, ignored, secret or symlinked files", async () => {
    const result = await data(engine, { pattern: "**/*.ts" });
    expect(result.files.map((file) => file.path)).toEqual([
      "src/new.ts",
      "src/mid.ts",
      "src/old.ts",
    ]);
    expect(result.files[0]?.modified).toBe(new Date((1_700_000_000 + 3_000) * 1000).toISOString());
    expect((await data(engine, { pattern: "*.ts", path: "src" })).files).toHaveLength(3);
    const tool = makeTool(engine);
    expect(tool.renderResult(await tool.run({ pattern: "*.md" }))).toBe(
      '1 file match "*.md" in . (newest first):\ndocs/guide.md',
    );
  });

  it("never returns secrets whatever the pattern", async () => {
    for (const pattern of ["**/.env", ".env", ".ssh/**", "**/*.pem", "**", "--files", "-u"]) {
      const result = await data(engine, { pattern });
      for (const file of result.files) expect(file.path).not.toMatch(/\.env|\.ssh|\.pem/);
    }
  });

  it("caps the list with the standard marker", async () => {
    const result = await data(engine, { pattern: "**/*" }, 2);
    expect(result.files.map((file) => file.path)).toEqual(["src/new.ts", "src/mid.ts"]);
    expect(result.omitted).toBe(2);
    expect(result.message).toMatch(TRUNCATION_MARKER_PATTERN);
  });

  it("says why an empty result is empty", async () => {
    const hidden = await data(engine, { pattern: ".github/*.ts" });
    expect(hidden.emptyReason).toBe("only_hidden_or_ignored");
    const ignored = await data(engine, { pattern: "node_modules/**" });
    expect(ignored.emptyReason).toBe("only_hidden_or_ignored");
    const none = await data(engine, { pattern: "*.rs" });
    expect(none.emptyReason).toBe("no_match");
    expect(none.message).toContain("*.rs");
  });

  it("refuses escapes, secret paths and files as path", async () => {
    const tool = makeTool(engine);
    for (const [path, code] of [
      ["../", "INVALID_PATH"],
      ["src/linked", "INVALID_PATH"],
      [".ssh", "BLOCKED"],
      ["missing", "FILE_NOT_FOUND"],
      ["src/new.ts", "INVALID_INPUT"],
    ] as const) {
      const result = await tool.run({ pattern: "*", path });
      expect(result.success ? "ok" : result.error.code).toBe(code);
    }
  });

  it("passes the conformance kit", async () => {
    await assertConformance([makeTool(engine)], {
      samples: { glob_search: { pattern: "**/*.ts" } },
    });
  });
});

describe("glob_search over the memory seam", () => {
  it("uses the JS engine by default", async () => {
    const fileSystem = createMemoryFileSystem({ "a/x.md": "1", "a/.y.md": "2", "b.txt": "3" });
    const tool = createGlobSearchTool({ workspace: createWorkspace({ fileSystem }) });
    const result = await tool.run({ pattern: "**/*.md" });
    expect(result.success && result.data.files.map((file) => file.path)).toEqual(["a/x.md"]);
  });
});
