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

  it("commits only the given files, or everything with all", async () => {
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
    const all = await tool.run({ message: "everything", all: true });
    expect(all).toMatchObject({ success: true, data: { total_files: 3 } });
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  it("refuses an empty commit, both files and all, and an empty message", async () => {
    const repo = repository();
    const tool = createGitCommitTool({ root: repo.root, mountedTools: ["git_add", "git_status"] });
    const nothing = await tool.run({ message: "nothing" });
    expect(nothing).toMatchObject({ success: false, error: { code: "GIT_ERROR" } });
    if (!nothing.success) {
      expect(nothing.error.message).toMatch(/Nothing to commit/);
      expect(nothing.error.hint).toMatch(/git_add/);
    }
    // Alone, the hint names no tool that is not there.
    const alone = await createGitCommitTool({ root: repo.root }).run({ message: "nothing" });
    expect(alone.success === false && alone.error.hint).toBe("Pass files or all=true.");
    expect(await tool.run({ message: "x", files: ["README.md"], all: true })).toMatchObject({
      error: { code: "INVALID_INPUT" },
    });
    expect(await tool.run({ message: "   " })).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect(await tool.run({ message: "x", files: ["../outside"] })).toMatchObject({
      error: { code: "INVALID_PATH" },
    });
  });

  it("makes the first commit of an empty repository", async () => {
    const repo = repository({ empty: true });
    repo.write("first.txt", "first\n");
    const result = await createGitCommitTool({ root: repo.root }).run({
      message: "First",
      all: true,
    });
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
      const result = await createGitCommitTool({ root: repo.root }).run({
        message: "x",
        all: true,
      });
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
      all: false,
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
