import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRUNCATION_MARKER_PATTERN } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepSearchTool, type GrepSearchToolData } from "./grep-search.js";
import type { TextSearcher } from "./internal/search-types.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createRipgrepSearcher } from "./node/ripgrep-search.js";
import { createWorkspace } from "./workspace.js";

let base: string;
let root: string;

const fixture: Record<string, string> = {
  "src/a.ts":
    "const alpha = 1;\n// TODO fix alpha\nconst beta = alpha;\nconst gamma = (alpha + 1);\n",
  "src/b.ts": "TODO: two\nnothing here\n",
  "docs/readme.md": "hello --pre=/bin/sh world\nrun --pre=./pre.sh now\n",
  "docs/long.txt": `${"x".repeat(5000)}NEEDLE${"y".repeat(5000)}\n`,
  ".env": "SECRET=TODO_TOKEN\n",
  ".ssh/id_rsa": "TODO key\n",
  "config/prod.pem": "TODO pem\n",
  ".hidden/h.ts": "only_in_hidden\n",
  "node_modules/pkg/index.js": "only_in_ignored TODO\n",
  ".gitignore": "node_modules/\n",
  "pre.sh": "#!/bin/sh\ntouch MARKER\ncat\n",
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "agentool-grep-"));
  root = join(base, "root");
  for (const [path, content] of Object.entries(fixture)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await chmod(join(root, "pre.sh"), 0o755);
  await mkdir(join(base, "outside"), { recursive: true });
  await writeFile(join(base, "outside", "leak.txt"), "TODO outside the root\n");
  await symlink(join(base, "outside"), join(root, "src", "linked-dir"));
  await symlink(join(base, "outside", "leak.txt"), join(root, "src", "linked-file.txt"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

type Engine = { name: string; searcher: () => TextSearcher | undefined };

const engines: Engine[] = [
  { name: "ripgrep", searcher: () => createRipgrepSearcher({ root }) },
  { name: "js engine over the node seam", searcher: () => undefined },
];

async function search(engine: Engine, input: Record<string, unknown>) {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const searcher = engine.searcher();
  const tool = createGrepSearchTool(
    searcher === undefined ? { workspace } : { workspace, searcher },
  );
  const result = await tool.run(input);
  return { tool, result };
}

async function data(engine: Engine, input: Record<string, unknown>): Promise<GrepSearchToolData> {
  const { result } = await search(engine, input);
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.data;
}

function allPaths(result: GrepSearchToolData): string[] {
  return result.files.map((file) => file.path);
}

describe.each(engines)("grep_search with the $name", (engine) => {
  it("finds matches sorted by path then line, never in secret, hidden, ignored or symlinked files", async () => {
    const result = await data(engine, { pattern: "TODO" });
    expect(allPaths(result)).toEqual(["src/a.ts", "src/b.ts"]);
    expect(result.files[0]?.lines).toEqual([{ line: 2, text: "// TODO fix alpha", kind: "match" }]);
    expect(result.matchCount).toBe(2);
    expect(result.truncated).toBe(false);
    const { tool, result: raw } = await search(engine, { pattern: "TODO" });
    expect(tool.renderResult(raw)).toBe(
      '2 matching lines in 2 files for "TODO" in .:\nsrc/a.ts\n2: // TODO fix alpha\n\nsrc/b.ts\n1: TODO: two',
    );
  });

  it("searches for a pattern that looks like a flag instead of running it", async () => {
    const result = await data(engine, { pattern: "--pre=/bin/sh" });
    expect(allPaths(result)).toEqual(["docs/readme.md"]);
    const viaScript = await data(engine, { pattern: "--pre=./pre.sh", literal: true });
    expect(allPaths(viaScript)).toEqual(["docs/readme.md"]);
    for (const pattern of ["--files", "-u", "--hidden", "--pre=./pre.sh"]) {
      const flagged = await data(engine, { pattern, glob: "*.md" });
      expect(allPaths(flagged).every((path) => path === "docs/readme.md")).toBe(true);
    }
    await expect(
      import("node:fs/promises").then((fs) => fs.access(join(root, "MARKER"))),
    ).rejects.toThrow();
  });

  it("never returns secret files whatever the glob", async () => {
    for (const glob of ["**/.env", ".env", ".ssh/**", "**/*.pem", "config/**", "**"]) {
      const result = await data(engine, { pattern: "TODO", glob });
      for (const path of allPaths(result)) {
        expect(path).not.toMatch(/\.env|\.ssh|\.pem/);
      }
    }
  });

  it("treats a glob that looks like a flag as a glob", async () => {
    for (const glob of ["--files", "-u", "--pre=./pre.sh"]) {
      const result = await data(engine, { pattern: "TODO", glob });
      expect(result.files).toEqual([]);
      expect(result.emptyReason).toBe("glob_matched_nothing");
    }
  });

  it("does not return hidden files, but says when matches exist only there", async () => {
    const hidden = await data(engine, { pattern: "only_in_hidden" });
    expect(hidden.files).toEqual([]);
    expect(hidden.emptyReason).toBe("only_hidden_or_ignored");
    expect(hidden.message).toContain(".hidden/h.ts");
    const ignored = await data(engine, { pattern: "only_in_ignored" });
    expect(ignored.emptyReason).toBe("only_hidden_or_ignored");
    expect(ignored.message).toContain('path="node_modules/pkg"');
    for (const glob of ["**", "**/*.js", "node_modules/**", ".hidden/*"]) {
      const viaGlob = await data(engine, { pattern: "only_in_(ignored|hidden)", glob });
      expect(viaGlob.files).toEqual([]);
    }
    const explicit = await data(engine, { pattern: "only_in_ignored", path: "node_modules/pkg" });
    expect(allPaths(explicit)).toEqual(["node_modules/pkg/index.js"]);
  });

  it("says why an empty result is empty", async () => {
    const none = await data(engine, { pattern: "zzz_no_such_text" });
    expect(none.emptyReason).toBe("no_match");
    expect(none.message).toMatch(/No match/);
    const glob = await data(engine, { pattern: "TODO", glob: "*.nope" });
    expect(glob.emptyReason).toBe("glob_matched_nothing");
    expect(glob.message).toContain("*.nope");
  });

  it("refuses paths outside the root and secret paths", async () => {
    for (const path of ["../", "../outside", "/etc", "src/../../outside"]) {
      const { result } = await search(engine, { pattern: "TODO", path });
      expect(result.success ? "ok" : result.error.code).toBe("INVALID_PATH");
    }
    const { result: throughLink } = await search(engine, {
      pattern: "TODO",
      path: "src/linked-dir",
    });
    expect(throughLink.success ? "ok" : throughLink.error.code).toBe("INVALID_PATH");
    const { result: secret } = await search(engine, { pattern: "TODO", path: ".ssh" });
    expect(secret.success ? "ok" : secret.error.code).toBe("BLOCKED");
    const { result: missing } = await search(engine, { pattern: "TODO", path: "nope" });
    expect(missing.success ? "ok" : missing.error.code).toBe("FILE_NOT_FOUND");
  });

  it("searches one file or one directory", async () => {
    expect(allPaths(await data(engine, { pattern: "TODO", path: "src/b.ts" }))).toEqual([
      "src/b.ts",
    ]);
    expect(allPaths(await data(engine, { pattern: "alpha", path: "./src" }))).toEqual(["src/a.ts"]);
  });

  it("caps results with the standard marker and says how to narrow", async () => {
    const result = await data(engine, { pattern: "alpha", limit: 2 });
    expect(result.matchCount).toBe(2);
    expect(result.truncated).toBe(true);
    expect(result.message).toMatch(TRUNCATION_MARKER_PATTERN);
    expect(result.message).toContain("limit=2");
    expect(result.message).toContain("glob");
    const files = await data(engine, {
      pattern: "TODO",
      output_mode: "files_with_matches",
      limit: 1,
    });
    expect(files.files).toHaveLength(1);
    expect(files.truncated).toBe(true);
  });

  it("reports files or counts", async () => {
    const files = await data(engine, { pattern: "alpha|TODO", output_mode: "files_with_matches" });
    expect(files.files).toEqual([
      { path: "src/a.ts", count: 1 },
      { path: "src/b.ts", count: 1 },
    ]);
    const counts = await data(engine, { pattern: "alpha", output_mode: "count" });
    expect(counts.files).toEqual([{ path: "src/a.ts", count: 4 }]);
  });

  it("shows context lines, ignores case, matches literals", async () => {
    const context = await data(engine, { pattern: "TODO", path: "src/a.ts", context_lines: 1 });
    expect(context.files[0]?.lines?.map((line) => `${line.line}${line.kind}`)).toEqual([
      "1context",
      "2match",
      "3context",
    ]);
    expect(allPaths(await data(engine, { pattern: "todo", ignore_case: true }))).toEqual([
      "src/a.ts",
      "src/b.ts",
    ]);
    expect((await data(engine, { pattern: "todo" })).files).toEqual([]);
    const literal = await data(engine, { pattern: "(alpha + 1)", literal: true });
    expect(literal.files[0]?.lines?.[0]?.line).toBe(4);
  });

  it("cuts long lines around the match", async () => {
    const result = await data(engine, { pattern: "NEEDLE" });
    const line = result.files[0]?.lines?.[0];
    expect(line?.text).toContain("NEEDLE");
    expect(line?.text.length).toBeLessThanOrEqual(302);
    expect(line?.cut).toBe(10_006 - 300);
  });

  it("refuses an invalid regular expression with INVALID_INPUT", async () => {
    const { result } = await search(engine, { pattern: "(unclosed" });
    expect(result.success ? "ok" : result.error.code).toBe("INVALID_INPUT");
  });

  it("passes the conformance kit", async () => {
    const { tool } = await search(engine, { pattern: "x" });
    await assertConformance([tool], { samples: { grep_search: { pattern: "TODO" } } });
  });
});

describe("grep_search with the js engine over the memory seam", () => {
  const fileSystem = createMemoryFileSystem(
    {
      "a.md": "hello world\nsecond hello\n",
      "sub/b.md": "Hello again\n",
      ".env": "hello secret\n",
      ".cache/c.md": "hello hidden\n",
      "ignored/d.md": "hello ignored\n",
      ".gitignore": "ignored/\n",
    },
    { symlinks: { "sub/link.md": "../a.md" } },
  );
  const tool = createGrepSearchTool({ workspace: createWorkspace({ fileSystem }) });

  it("searches with the same rules as ripgrep", async () => {
    const result = await tool.run({ pattern: "hello", ignore_case: true });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.files.map((file) => [file.path, file.count])).toEqual([
      ["a.md", 2],
      ["sub/b.md", 1],
    ]);
    const secret = await tool.run({ pattern: "secret", glob: "**/.env" });
    expect(secret.success && secret.data.files).toEqual([]);
  });

  it("stops deterministically at the limit", async () => {
    const result = await tool.run({ pattern: "hello", limit: 1 });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.files).toEqual([
      { path: "a.md", count: 1, lines: [{ line: 1, text: "hello world", kind: "match" }] },
    ]);
    expect(result.data.overflow).toBe(1);
  });

  it("rejects bad options", () => {
    expect(() =>
      createGrepSearchTool({ workspace: createWorkspace({ fileSystem }), limit: 3 } as never),
    ).toThrow(/Known options/);
  });
});
