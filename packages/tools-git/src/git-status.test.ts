import { symlinkSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createGitStatusTool } from "./git-status.js";
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

async function status(root: string, input: unknown = {}) {
  const result = await createGitStatusTool({ root }).run(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
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

  it("caps the change list with the standard marker", async () => {
    const repo = repository();
    for (let index = 0; index < 30; index += 1) repo.write(`file-${index}.txt`, "x");
    const result = await createGitStatusTool({ root: repo.root, maxEntries: 10 }).run({});
    if (!result.success) throw new Error("failed");
    expect(result.data.changes).toHaveLength(10);
    expect(result.data.total_changes).toBe(30);
    expect(result.data.truncated).toMatch(
      /…\[truncated: 20 more changes — call git_status again with path/,
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
