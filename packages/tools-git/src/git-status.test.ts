import { symlinkSync } from "node:fs";
import { toOutputJsonSchema } from "@agentool/contract";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import {
  createGitStatusTool,
  type GitStatusToolData,
  gitStatusOutputSchema,
} from "./git-status.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
function repository(options?: { empty?: boolean }) {
  const created = createTemporaryRepository(options);
  repositories.push(created);
  return created;
}
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

/** Runs git_status and checks its data against the declared output schema (every key, in order). */
async function status(root: string, input: unknown = {}) {
  const result = await createGitStatusTool({ root }).run(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  expect(JSON.stringify(gitStatusOutputSchema.parse(result.data))).toBe(
    JSON.stringify(result.data),
  );
  return result.data;
}

describe("git_status", () => {
  it("reports a clean tree and says so", async () => {
    const repo = repository();
    const data = await status(repo.root);
    expect(data).toMatchObject({ branch: "main", clean: true, changes: [], no_commits: false });
    expect(
      createGitStatusTool({ root: repo.root }).renderResult({ success: true, data }),
    ).toContain("Working tree clean");
  });

  it("reports adds, edits, deletes, renames, staged and unstaged", async () => {
    const repo = repository();
    repo.commit("old name.txt", "rename me\n", "add file");
    repo.commit("gone.txt", "bye\n", "add gone");
    repo.write("README.md", "# Changed\n");
    repo.write("new file.txt", "new\n");
    repo.write("staged.txt", "staged\n");
    repo.git("add", "staged.txt");
    repo.git("rm", "--quiet", "gone.txt");
    repo.git("mv", "old name.txt", "new name.txt");
    const data = await status(repo.root);
    expect(data.changes).toEqual(
      expect.arrayContaining([
        { file: "README.md", status: "modified", staged: false },
        { file: "new file.txt", status: "untracked", staged: false },
        { file: "staged.txt", status: "added", staged: true },
        { file: "gone.txt", status: "deleted", staged: true },
        { file: "new name.txt", status: "renamed", staged: true, from: "old name.txt" },
      ]),
    );
    expect(data.clean).toBe(false);
    const text = createGitStatusTool({ root: repo.root }).renderResult({ success: true, data });
    expect(text).toContain("old name.txt -> new name.txt");
    expect(text).toContain("Staged (will be committed):");
  });

  it("handles unicode and CRLF files, and filters by path", async () => {
    const repo = repository();
    repo.write("docs/日本語 ファイル.md", "こんにちは\r\nworld\r\n");
    repo.write("other.txt", "x");
    const data = await status(repo.root, { path: "docs" });
    expect(data.changes).toEqual([{ file: "docs/", status: "untracked", staged: false }]);
    repo.git("add", "docs");
    const staged = await status(repo.root, { path: "docs/日本語 ファイル.md" });
    expect(staged.changes).toEqual([
      { file: "docs/日本語 ファイル.md", status: "added", staged: true },
    ]);
  });

  it("shows a merge conflict as conflicted", async () => {
    const repo = repository();
    repo.git("checkout", "--quiet", "-b", "other");
    repo.commit("README.md", "other side\n", "other");
    repo.git("checkout", "--quiet", "main");
    repo.commit("README.md", "main side\n", "main");
    try {
      repo.git("merge", "--quiet", "other");
    } catch {
      // The conflict is the point.
    }
    const data = await status(repo.root);
    expect(data.changes).toEqual([{ file: "README.md", status: "conflicted", staged: false }]);
  });

  it("works in an empty repository and on a detached HEAD", async () => {
    const empty = repository({ empty: true });
    const emptyData = await status(empty.root);
    expect(emptyData).toMatchObject({ no_commits: true, head: null, branch: "main", clean: true });
    expect(
      createGitStatusTool({ root: empty.root }).renderResult({ success: true, data: emptyData }),
    ).toContain("no commits yet");
    const repo = repository();
    repo.commit("a.txt", "a", "second");
    repo.git("checkout", "--quiet", "--detach", "HEAD~1");
    const detached = await status(repo.root);
    expect(detached).toMatchObject({ detached: true, branch: null });
    expect(detached.head).toMatch(/^[0-9a-f]{7}$/);
  });

  it("reports upstream ahead/behind", async () => {
    const repo = repository();
    repo.git("branch", "upstream-branch");
    repo.git("branch", "--set-upstream-to=upstream-branch");
    repo.commit("a.txt", "a", "ahead");
    const data = await status(repo.root);
    expect(data).toMatchObject({ upstream: "upstream-branch", ahead: 1, behind: 0 });
  });

  it("pages the change list: offset/limit, exact total, next_offset and the exact next call", async () => {
    const repo = repository();
    for (let index = 0; index < 30; index += 1)
      repo.write(`dir/file-${String(index).padStart(2, "0")}.txt`, "x");
    repo.git("add", "dir");
    const tool = createGitStatusTool({ root: repo.root, maxEntries: 10 });
    const first = await tool.run({});
    if (!first.success) throw new Error("failed");
    expect(first.data).toMatchObject({ offset: 1, total: 30, next_offset: 11, truncated: true });
    expect(first.data.changes).toHaveLength(10);
    const text = tool.renderResult(first) as string;
    expect(text).toContain("Changes 1–10 of 30:");
    expect(text).toContain("…[truncated: 20 more changes — call git_status again with offset=11]");
    const narrowed = await tool.run({ path: "dir", limit: 5 });
    if (!narrowed.success) throw new Error("failed");
    expect(narrowed.data).toMatchObject({ path: "dir", total: 30, next_offset: 6 });
    expect(tool.renderResult(narrowed)).toContain(
      'call git_status again with path="dir", limit=5, offset=6]',
    );
    const last = await tool.run({ offset: 21 });
    if (!last.success) throw new Error("failed");
    expect(last.data.changes.map((change) => change.file)).toEqual(
      Array.from({ length: 10 }, (_, index) => `dir/file-${20 + index}.txt`),
    );
    expect(last.data.truncated).toBe(false);
    expect(last.data.next_offset).toBeUndefined();
    expect(tool.renderResult(last)).not.toMatch(/truncated/);
    const past = await tool.run({ offset: 31 });
    expect(past).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    if (!past.success) {
      expect(past.error.message).toBe("offset=31 is past the end: there are 30 changes in all.");
      expect(past.error.hint).toMatch(/between 1 and 30/);
    }
    expect(await tool.run({ limit: 11 })).toMatchObject({ error: { code: "INVALID_INPUT" } });
  });

  it("offset past the end of a clean tree is INVALID_INPUT; offset 1 is the empty first page", async () => {
    const repo = repository();
    const tool = createGitStatusTool({ root: repo.root });
    expect(await tool.run({ offset: 1 })).toMatchObject({
      success: true,
      data: { clean: true, total: 0, truncated: false },
    });
    expect(await tool.run({ offset: 2 })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/there are 0 changes/) },
    });
  });

  it("a path with no changes says so instead of 'Working tree clean'; a missing path is FILE_NOT_FOUND", async () => {
    const repo = repository();
    repo.commit(".gitignore", "build/\n", "ignore build");
    repo.commit("src/kept.ts", "export {};\n", "kept");
    repo.write("other.txt", "elsewhere\n");
    repo.write("build/out.js", "x");
    const tool = createGitStatusTool({ root: repo.root });
    const quiet = await tool.run({ path: "src" });
    if (!quiet.success) throw new Error(JSON.stringify(quiet.error));
    expect(quiet.data).toMatchObject({ path: "src", clean: true, changes: [] });
    expect(quiet.data.empty_reason).toMatch(/nothing changed there/);
    const text = tool.renderResult(quiet) as string;
    expect(text).toContain("No changes under src: nothing changed there");
    expect(text).toContain("call git_status without path");
    expect(text).not.toContain("Working tree clean");
    const ignored = await tool.run({ path: "build" });
    expect(ignored).toMatchObject({
      success: true,
      data: { clean: true, empty_reason: expect.stringMatching(/ignored by \.gitignore/) },
    });
    const missing = await tool.run({ path: "no/such/file.ts" });
    expect(missing).toMatchObject({ success: false, error: { code: "FILE_NOT_FOUND" } });
    if (!missing.success) {
      expect(missing.error.message).toMatch(/no\/such\/file\.ts does not exist/);
      expect(missing.error.hint).not.toMatch(/git_log/);
    }
    const mounted = await createGitStatusTool({ root: repo.root, mountedTools: ["git_log"] }).run({
      path: "gone.ts",
    });
    expect(mounted.success === false && mounted.error.hint).toMatch(/git_log with this path/);
    // A deleted tracked file is a change, not a missing path.
    repo.git("rm", "-q", "--cached", "src/kept.ts");
    const { rmSync } = await import("node:fs");
    rmSync(`${repo.root}/src/kept.ts`);
    const deleted = await tool.run({ path: "src/kept.ts" });
    expect(deleted).toMatchObject({
      success: true,
      data: { changes: [{ file: "src/kept.ts", status: "deleted", staged: true }] },
    });
  });

  it("accepts file_path as a silent alias of path", async () => {
    const repo = repository();
    repo.write("a.txt", "a");
    repo.write("b.txt", "b");
    const result = await createGitStatusTool({ root: repo.root }).run({ file_path: "a.txt" });
    expect(result).toMatchObject({
      success: true,
      data: { changes: [{ file: "a.txt", status: "untracked", staged: false }] },
    });
  });

  it("names git_add in the conflict heading only when it is mounted", async () => {
    const repo = repository();
    repo.git("checkout", "--quiet", "-b", "other");
    repo.commit("README.md", "other side\n", "other");
    repo.git("checkout", "--quiet", "main");
    repo.commit("README.md", "main side\n", "main");
    try {
      repo.git("merge", "--quiet", "other");
    } catch {
      // The conflict is the point.
    }
    const alone = createGitStatusTool({ root: repo.root });
    expect(alone.renderResult(await alone.run({}))).toContain("Conflicted (resolve these):");
    const withAdd = createGitStatusTool({ root: repo.root, mountedTools: ["git_add"] });
    expect(withAdd.renderResult(await withAdd.run({}))).toContain(
      "Conflicted (resolve, then git_add):",
    );
  });

  it("refuses paths outside the repository, through symlinks and sibling prefixes", async () => {
    const repo = repository();
    symlinkSync(repo.base, `${repo.root}/escape`);
    const tool = createGitStatusTool({ root: repo.root });
    for (const path of [
      "../",
      "/etc",
      `${repo.root}-evil/x`,
      "escape/x",
      "escape",
      "~/x",
      "a\0b",
    ]) {
      const result = await tool.run({ path });
      expect(result.success, path).toBe(false);
      if (!result.success) expect(result.error.code).toBe("INVALID_PATH");
    }
    const inside = await tool.run({ path: `${repo.root}/README.md` });
    expect(inside.success).toBe(true);
  });

  it("fails clearly when the root is not a repository", async () => {
    const repo = repository();
    const result = await createGitStatusTool({ root: repo.base }).run({});
    expect(result).toMatchObject({ success: false, error: { code: "NOT_CONFIGURED" } });
    const missing = await createGitStatusTool({ root: `${repo.base}/nope` }).run({});
    expect(missing).toMatchObject({ success: false, error: { code: "NOT_CONFIGURED" } });
  });
});

describe("git_status's declared output schema", () => {
  function expectSchemaMatch(data: unknown) {
    expect(JSON.stringify(gitStatusOutputSchema.parse(data))).toBe(JSON.stringify(data));
  }

  it("is the data type exactly, and the tool declares it", () => {
    expectTypeOf<z.output<typeof gitStatusOutputSchema>>().toEqualTypeOf<GitStatusToolData>();
    expect(createGitStatusTool({ root: "/tmp" }).output).toBe(gitStatusOutputSchema);
  });

  it("matches a cut page (next_offset), a path filter and an empty_reason, dropping nothing", async () => {
    const repo = repository();
    repo.commit(".gitignore", "build/\n", "ignore build");
    for (let index = 0; index < 4; index += 1) repo.write(`dir/file-${index}.txt`, "x");
    repo.git("add", "dir");
    repo.write("build/out.js", "x");
    const tool = createGitStatusTool({ root: repo.root, maxEntries: 2 });
    const outcomes = await Promise.all([
      tool.run({}),
      tool.run({ path: "dir", limit: 1, offset: 2 }),
      tool.run({ path: "build" }),
    ]);
    const datas = outcomes.map((outcome) => {
      if (!outcome.success) throw new Error(JSON.stringify(outcome.error));
      return outcome.data;
    });
    expect(datas.map((data) => data.next_offset)).toEqual([3, 3, undefined]);
    expect(datas[2]?.empty_reason).toMatch(/ignored/);
    for (const data of datas) expectSchemaMatch(data);
  });

  it("gives a JSON Schema with nullable branch fields and the optional keys left out of required", () => {
    const schema = toOutputJsonSchema(createGitStatusTool({ root: "/tmp" }));
    expect(schema?.required).toEqual([
      "branch",
      "detached",
      "head",
      "no_commits",
      "upstream",
      "ahead",
      "behind",
      "changes",
      "offset",
      "total",
      "truncated",
      "clean",
      "call_arguments",
    ]);
    expect(schema?.additionalProperties).toBe(false);
    expect(schema?.properties).toHaveProperty("branch", {
      description: "The current branch, or null when HEAD is detached.",
      type: ["string", "null"],
    });
  });
});
