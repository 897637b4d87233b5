import { afterEach, describe, expect, it } from "vitest";
import { createGitAddTool } from "./git-add.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

describe("git_add", () => {
  it("stages new, modified, deleted and space/unicode-named files", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.commit("old.txt", "old\n", "old");
    repo.write("README.md", "# Edited\n");
    repo.write("dir with space/é file.txt", "new\n");
    repo.git("rm", "-q", "--cached", "old.txt");
    repo.git("add", "old.txt");
    repo.write("old.txt", "");
    const { rmSync } = await import("node:fs");
    rmSync(`${repo.root}/old.txt`);
    const tool = createGitAddTool({ root: repo.root });
    const result = await tool.run({ files: ["README.md", "dir with space", "./old.txt"] });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.staged).toEqual(
      expect.arrayContaining([
        { file: "README.md", status: "modified", staged: true },
        { file: "dir with space/é file.txt", status: "added", staged: true },
        { file: "old.txt", status: "deleted", staged: true },
      ]),
    );
    expect(tool.renderResult(result)).toMatch(/Staged 3 changes/);
    const again = await tool.run({ files: ["README.md"] });
    expect(again.success).toBe(true);
  });

  it("refuses missing and ignored files with a next step", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.commit(".gitignore", "build/\n", "ignore");
    repo.write("build/out.js", "x");
    const tool = createGitAddTool({ root: repo.root });
    const missing = await tool.run({ files: ["nope.txt"] });
    expect(missing).toMatchObject({ success: false, error: { code: "FILE_NOT_FOUND" } });
    const ignored = await tool.run({ files: ["build/out.js"] });
    expect(ignored).toMatchObject({ success: false, error: { code: "GIT_ERROR" } });
    if (!ignored.success) expect(ignored.error.message).toMatch(/ignored/);
    expect(await tool.run({ files: [] })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });

  it("accepts paths as a silent alias of files; names only mounted tools as the next step", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.write("a.txt", "a\n");
    const alone = createGitAddTool({ root: repo.root });
    const result = await alone.run({ paths: ["a.txt"] });
    expect(result).toMatchObject({ success: true, data: { total_staged: 1 } });
    expect(alone.renderResult(result)).not.toMatch(/git_commit|git_diff/);
    expect(alone.description).not.toMatch(/git_commit|git_diff|git_status/);
    const mounted = createGitAddTool({ root: repo.root, mountedTools: ["git_commit", "git_diff"] });
    expect(mounted.renderResult(await mounted.run({ files: ["a.txt"] }))).toContain(
      "Next: git_commit with a message (or git_diff staged=true to review).",
    );
  });

  it("says how many more are staged with the contract's marker", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    for (let index = 0; index < 4; index += 1) repo.write(`d/${index}.txt`, `${index}\n`);
    const tool = createGitAddTool({ root: repo.root, maxEntries: 2, mountedTools: ["git_status"] });
    const result = await tool.run({ files: ["d"] });
    expect(result).toMatchObject({ success: true, data: { total_staged: 4 } });
    expect(tool.renderResult(result)).toContain(
      "…[truncated: 2 more changes — git_status lists every staged change]",
    );
  });
});
