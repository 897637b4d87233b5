import { afterEach, describe, expect, it } from "vitest";
import { createGitBranchTool } from "./git-branch.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

describe("git_branch", () => {
  it("lists branches with the current one and creates a branch without switching", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.commit("a.txt", "a", "second");
    const tool = createGitBranchTool({ root: repo.root, allowCreate: true });
    const created = await tool.run({ action: "create", name: "feature/x", base: "HEAD~1" });
    expect(created).toMatchObject({
      success: true,
      data: { name: "feature/x", checked_out: false },
    });
    expect(repo.git("rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("main");
    const listed = await tool.run({ action: "list" });
    if (!listed.success || listed.data.action !== "list") throw new Error("expected a list");
    expect(listed.data.current).toBe("main");
    expect(listed.data.branches.map((branch) => branch.name).sort()).toEqual(["feature/x", "main"]);
    expect(tool.renderResult(listed)).toMatch(/^\* main/m);
    const again = await tool.run({ action: "create", name: "feature/x" });
    expect(again).toMatchObject({ success: false, error: { code: "GIT_ERROR" } });
    for (const name of ["bad name", "a..b", "x~1", "HEAD", "ends.lock"]) {
      expect(await tool.run({ action: "create", name }), name).toMatchObject({
        success: false,
        error: { code: "INVALID_INPUT" },
      });
    }
    expect(await tool.run({ action: "create" })).toMatchObject({
      error: { code: "INVALID_INPUT" },
    });
  });

  it("is list-only and read-only without allowCreate; explains an empty repository and detached HEAD", async () => {
    const empty = createTemporaryRepository({ empty: true });
    repositories.push(empty);
    const tool = createGitBranchTool({ root: empty.root });
    expect(tool.annotations).toMatchObject({ readOnly: true });
    expect(await tool.run({ action: "create", name: "x" })).toMatchObject({
      error: { code: "INVALID_INPUT" },
    });
    const listed = await tool.run({ action: "list" });
    expect(tool.renderResult(listed)).toMatch(/no commits yet/);
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.git("checkout", "-q", "--detach");
    const detached = await createGitBranchTool({ root: repo.root }).run({ action: "list" });
    expect(detached).toMatchObject({ success: true, data: { current: null } });
  });
});
