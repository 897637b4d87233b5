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
import { createRipgrepLister } from "./node/ripgrep/index.js";
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

function makeTool(engine: Engine, defaultLimit?: number) {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const lister = engine.lister();
  return createGlobSearchTool({
    workspace,
    ...(lister === undefined ? {} : { lister }),
    ...(defaultLimit === undefined ? {} : { defaultLimit }),
  });
}

async function data(
  engine: Engine,
  input: Record<string, unknown>,
  defaultLimit?: number,
): Promise<GlobSearchToolData> {
  const result = await makeTool(engine, defaultLimit).run(input);
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
      '1 file matches "*.md" in . (newest first):\ndocs/guide.md',
    );
  });

  it("never returns secrets whatever the pattern", async () => {
    for (const pattern of ["**/.env", ".env", ".ssh/**", "**/*.pem", "**", "--files", "-u"]) {
      const result = await data(engine, { pattern });
      for (const file of result.files) expect(file.path).not.toMatch(/\.env|\.ssh|\.pem/);
    }
  });

  it("pages the list with offset, an exact total and the contract marker", async () => {
    const result = await data(engine, { pattern: "**/*" }, 2);
    expect(result.files.map((file) => file.path)).toEqual(["src/new.ts", "src/mid.ts"]);
    expect(result.total).toBe(4);
    expect(result.truncated).toBe(true);
    expect(result.next_offset).toBe(3);
    const tool = makeTool(engine, 2);
    const text = String(tool.renderResult(await tool.run({ pattern: "**/*" })));
    expect(text).toMatch(TRUNCATION_MARKER_PATTERN);
    expect(text.split("\n")[0]).toBe('Files 1–2 of 4 matching "**/*" in . (newest first):');
    // The pattern, the path and the page size (here the tool's own default, 2) are repeated.
    expect(text).toContain(
      '…[truncated: 2 more files — call glob_search again with pattern="**/*", path=".", limit=2, offset=3]',
    );
    const paged = makeTool(engine);
    const inSrc = String(
      paged.renderResult(await paged.run({ pattern: "*.ts", path: "src", limit: 1 })),
    );
    expect(inSrc).toContain(
      'call glob_search again with pattern="*.ts", path="src", limit=1, offset=2]',
    );
    const rest = await data(engine, { pattern: "**/*", offset: 3 }, 2);
    expect(rest.files.map((file) => file.path)).toEqual(["docs/guide.md", "src/old.ts"]);
    expect(rest.truncated).toBe(false);
    expect(rest.next_offset).toBeUndefined();
    const viaLimit = await data(engine, { pattern: "**/*", limit: 3 });
    expect(viaLimit.files).toHaveLength(3);
    const past = await makeTool(engine).run({ pattern: "**/*", offset: 5 });
    expect(past.success ? "ok" : past.error.code).toBe("INVALID_INPUT");
    expect(past.success ? "" : past.error.message).toContain("4 files in all");
  });

  it("accepts the names other toolsets send (glob, head_limit)", async () => {
    const result = await data(engine, { glob: "**/*.ts", head_limit: 1 });
    expect(result.files.map((file) => file.path)).toEqual(["src/new.ts"]);
    expect(result.next_offset).toBe(2);
  });

  it("says why an empty result is empty", async () => {
    const hidden = await data(engine, { pattern: ".github/*.ts" });
    expect(hidden.empty_reason).toBe("only_hidden_or_ignored");
    expect(hidden.example_path).toBe(".github/ci.ts");
    const ignored = await data(engine, { pattern: "node_modules/**" });
    expect(ignored.empty_reason).toBe("only_hidden_or_ignored");
    const none = await data(engine, { pattern: "*.rs" });
    expect(none.empty_reason).toBe("no_match");
    expect(none.message).toContain("*.rs");
  });

  it("finds the same files in a directory whether the pattern is anchored at the root or not", async () => {
    for (const pattern of ["*.ts", "**/*.ts", "src/*.ts", "src/**"]) {
      const result = await data(engine, { pattern, path: "src" });
      expect({ pattern, files: result.files.map((file) => file.path) }).toEqual({
        pattern,
        files: ["src/new.ts", "src/mid.ts", "src/old.ts"],
      });
    }
    expect((await data(engine, { pattern: "docs/*.md", path: "src" })).files).toEqual([]);
  });

  it("suggests only a different pattern when nothing matches", async () => {
    // A glob without '/' already matches names at any depth: "**/*.rs" would change nothing.
    const bare = await data(engine, { pattern: "*.rs" });
    expect(bare.message).not.toContain("**/*.rs");
    expect(bare.message).toContain("already matches names at any depth");
    // A glob with '/' is anchored at the root: "**/" is a real alternative.
    const nested = await data(engine, { pattern: "lib/*.rs" });
    expect(nested.message).toContain('try "**/lib/*.rs"');
    // An absolute pattern gets its root-relative form, never "**//…".
    const absolute = await data(engine, { pattern: `${root}/src/*.rs` });
    expect(absolute.message).not.toContain("**//");
    expect(absolute.message).toContain('try "src/*.rs"');
    expect(absolute.message).toContain("not absolute paths");
  });

  it("refuses escapes, secret paths and files as path", async () => {
    const tool = makeTool(engine);
    for (const [path, code] of [
      ["../", "INVALID_PATH"],
      ["src/linked", "INVALID_PATH"],
      [".ssh", "BLOCKED"],
      ["missing", "FILE_NOT_FOUND"],
      ["src/new.ts", "INVALID_PATH"],
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
  it("names only the tools mounted beside it", () => {
    const workspace = createWorkspace({ fileSystem: createMemoryFileSystem({ "a.md": "1" }) });
    expect(createGlobSearchTool({ workspace }).description).not.toContain("grep_search");
    expect(
      createGlobSearchTool({ workspace, mountedTools: ["grep_search"] }).description,
    ).toContain("grep_search");
  });

  it("uses the JS engine by default", async () => {
    const fileSystem = createMemoryFileSystem({ "a/x.md": "1", "a/.y.md": "2", "b.txt": "3" });
    const tool = createGlobSearchTool({ workspace: createWorkspace({ fileSystem }) });
    const result = await tool.run({ pattern: "**/*.md" });
    expect(result.success && result.data.files.map((file) => file.path)).toEqual(["a/x.md"]);
  });
});
