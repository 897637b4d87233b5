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
});
