import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitCommitTool } from "./git-commit.js";
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

describe("git_commit", () => {
  it("commits what is staged and returns the hash", async () => {
    const repo = repository();
    repo.write("a.txt", "a\n");
    repo.git("add", "a.txt");
    const tool = createGitCommitTool({ root: repo.root });
    const result = await tool.run({ message: "  Add a\n\nBecause.  " });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data).toMatchObject({
      message: "Add a\n\nBecause.",
      branch: "main",
      total_files: 1,
    });
    expect(result.data.hash).toBe(repo.git("rev-parse", "HEAD").trim());
    expect(repo.git("log", "-1", "--format=%an")).toBe("Test User\n");
    expect(tool.renderResult(result)).toMatch(/^Committed [0-9a-f]{7,} on main: Add a/);
  });

  it("commits only the given files, or every change when files is omitted", async () => {
    const repo = repository();
    repo.write("one.txt", "1\n");
    repo.write("two.txt", "2\n");
    repo.git("add", "two.txt");
    const author = { name: "Agent", email: "agent@example.com" };
    const tool = createGitCommitTool({ root: repo.root, author });
    const some = await tool.run({ message: "one only", files: ["one.txt"] });
    expect(some).toMatchObject({ success: true, data: { files: [{ file: "one.txt" }] } });
    expect(repo.git("status", "--porcelain")).toBe("A  two.txt\n");
    expect(repo.git("log", "-1", "--format=%an <%ae> / %cn")).toBe(
      "Agent <agent@example.com> / Agent\n",
    );
    repo.write("three.txt", "3\n");
    repo.write("README.md", "changed\n");
    const all = await tool.run({ message: "everything" });
    expect(all).toMatchObject({ success: true, data: { total_files: 3 } });
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  it("follows the seed: without files it stages every change (edits, deletions, new files) and lists what it staged", async () => {
    const repo = repository();
    repo.commit("gone.txt", "bye\n", "add gone");
    repo.write(".gitignore", "build/\n");
    repo.git("add", ".gitignore");
    repo.git("commit", "-qm", "ignore build");
    repo.write("README.md", "# Edited, not staged\n");
    repo.write("src/new.ts", "export const fresh = true;\n");
    repo.write("build/out.js", "generated\n");
    repo.write(".env", "TOKEN=secret\n");
    rmSync(join(repo.root, "gone.txt"));
    repo.write("notes.txt", "already staged\n");
    repo.git("add", "notes.txt");
    const tool = createGitCommitTool({ root: repo.root, mountedTools: ["git_status"] });
    // Before: "Nothing to commit: no changes are staged." unless all=true.
    const result = await tool.run({ message: "Only unstaged edits and new files" });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.staged_files).toEqual(["README.md", "gone.txt", "src/new.ts"]);
    expect(result.data.files.map((file) => file.file).sort()).toEqual([
      "README.md",
      "gone.txt",
      "notes.txt",
      "src/new.ts",
    ]);
    const text = tool.renderResult(result) as string;
    expect(text).toContain("Staged first: README.md, gone.txt, src/new.ts");
    expect(text).toContain("ignored and secret paths are never staged");
    // Ignored and secret paths stay out of the index and the commit.
    expect(repo.git("status", "--porcelain", "--ignored")).toBe("?? .env\n!! build/\n");
    expect(repo.git("show", "--name-only", "--format=", "HEAD")).not.toMatch(/\.env|build/);
  });

  it("staged_only commits only what is staged; nothing to commit is CONFLICT naming the next call", async () => {
    const repo = repository();
    repo.write("staged.txt", "s\n");
    repo.git("add", "staged.txt");
    repo.write("README.md", "# unstaged edit\n");
    const tool = createGitCommitTool({ root: repo.root, mountedTools: ["git_add", "git_status"] });
    const only = await tool.run({ message: "staged only", staged_only: true });
    expect(only).toMatchObject({ success: true, data: { files: [{ file: "staged.txt" }] } });
    expect(only.success && only.data.staged_files).toBeUndefined();
    expect(repo.git("status", "--porcelain")).toBe(" M README.md\n");
    const nothing = await tool.run({ message: "nothing", staged_only: true });
    expect(nothing).toMatchObject({
      success: false,
      error: {
        code: "CONFLICT",
        message:
          "Nothing to commit: nothing is staged, and staged_only=true commits only what is staged.",
        hint: "Stage files with git_add, or call git_commit without staged_only to stage and commit every change. git_status shows what changed.",
      },
    });
    expect(await tool.run({ message: "x", files: ["README.md"], staged_only: true })).toMatchObject(
      {
        error: { code: "INVALID_INPUT" },
      },
    );
  });

  it("without files, an unresolved merge conflict is refused before anything is staged", async () => {
    const repo = repository();
    repo.git("checkout", "-q", "-b", "other");
    repo.commit("README.md", "theirs\n", "theirs");
    repo.git("checkout", "-q", "main");
    repo.commit("README.md", "ours\n", "ours");
    try {
      repo.git("merge", "-q", "other");
    } catch {
      // Conflict expected.
    }
    const result = await createGitCommitTool({ root: repo.root }).run({ message: "merge" });
    expect(result).toMatchObject({ success: false, error: { code: "GIT_ERROR" } });
    expect(repo.git("status", "--porcelain")).toBe("UU README.md\n");
  });

  it("refuses an empty commit (CONFLICT, the next step in the hint) and an empty message", async () => {
    const repo = repository();
    const tool = createGitCommitTool({ root: repo.root, mountedTools: ["git_add", "git_status"] });
    const nothing = await tool.run({ message: "nothing" });
    expect(nothing).toMatchObject({
      success: false,
      error: {
        code: "CONFLICT",
        message:
          "Nothing to commit: the working tree has no changes (ignored and secret paths are never staged).",
        hint: "Change files first, then call git_commit again. git_status shows what changed.",
      },
    });
    const unchanged = await tool.run({ message: "x", files: ["README.md"] });
    expect(unchanged).toMatchObject({
      success: false,
      error: {
        code: "CONFLICT",
        message: "Nothing to commit: README.md has no changes.",
        hint: "Call git_commit without files to commit every change. git_status shows what changed.",
      },
    });
    // Alone, the hint names no tool that is not there.
    const alone = await createGitCommitTool({ root: repo.root }).run({ message: "nothing" });
    expect(alone.success === false && alone.error.hint).toBe(
      "Change files first, then call git_commit again.",
    );
    expect(await tool.run({ message: "   " })).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect(await tool.run({ message: "x", files: ["../outside"] })).toMatchObject({
      error: { code: "INVALID_PATH" },
    });
  });

  it("makes the first commit of an empty repository", async () => {
    const repo = repository({ empty: true });
    repo.write("first.txt", "first\n");
    const result = await createGitCommitTool({ root: repo.root }).run({ message: "First" });
    expect(result).toMatchObject({ success: true, data: { branch: "main", total_files: 1 } });
  });

  it("fails with a clear GIT_ERROR when no author is configured", async () => {
    const repo = repository();
    repo.git("config", "--unset", "user.name");
    repo.git("config", "--unset", "user.email");
    repo.write("a.txt", "a");
    const previous = { HOME: process.env.HOME, XDG: process.env.XDG_CONFIG_HOME };
    process.env.HOME = repo.base;
    delete process.env.XDG_CONFIG_HOME;
    try {
      const result = await createGitCommitTool({ root: repo.root }).run({ message: "x" });
      expect(result).toMatchObject({ success: false, error: { code: "GIT_ERROR" } });
      if (!result.success) expect(result.error.message).toMatch(/No commit author/);
    } finally {
      process.env.HOME = previous.HOME;
      if (previous.XDG !== undefined) process.env.XDG_CONFIG_HOME = previous.XDG;
    }
  });

  it("refuses to commit during an unresolved merge conflict", async () => {
    const repo = repository();
    repo.git("checkout", "-q", "-b", "other");
    repo.commit("README.md", "theirs\n", "theirs");
    repo.git("checkout", "-q", "main");
    repo.commit("README.md", "ours\n", "ours");
    try {
      repo.git("merge", "-q", "other");
    } catch {
      // Conflict expected.
    }
    const result = await createGitCommitTool({ root: repo.root }).run({
      message: "merge",
      staged_only: true,
    });
    expect(result).toMatchObject({ success: false, error: { code: "GIT_ERROR" } });
  });

  it("says how many more files the commit holds with the contract's marker; takes paths as an alias", async () => {
    const repo = repository();
    for (let index = 0; index < 4; index += 1) repo.write(`d/${index}.txt`, `${index}\n`);
    const tool = createGitCommitTool({
      root: repo.root,
      maxEntries: 2,
      mountedTools: ["git_show"],
    });
    const result = await tool.run({ message: "four files", paths: ["d"] });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data).toMatchObject({ total_files: 4 });
    expect(result.data.files).toHaveLength(2);
    expect(tool.renderResult(result)).toContain(
      `…[truncated: 2 more files — git_show with revision="${result.data.short_hash}" lists them all]`,
    );
  });
});
