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
    // The fs family's code for "the destination exists", with the next call in the hint.
    expect(again).toMatchObject({
      success: false,
      error: {
        code: "FILE_ALREADY_EXISTS",
        message: "A branch named feature/x already exists.",
        hint: 'Pick another name, or call git_branch with action="list" to see existing branches.',
      },
    });
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
    const refused = await tool.run({ action: "create" });
    expect(refused).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect(refused.success || refused.error.message).toMatch(
      /creating branches is not enabled \(the git tools are read-only\)/,
    );
    expect(await tool.run({ action: "list", name: "x" })).toMatchObject({
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/unknown field "name"/) },
    });
    expect(Object.keys(tool.input.shape)).toEqual(["action", "offset", "limit"]);
    // action may be left out in list-only mode: the call lists.
    expect(await tool.run({})).toMatchObject({ success: true, data: { action: "list" } });
    const listed = await tool.run({ action: "list" });
    expect(tool.renderResult(listed)).toMatch(/no commits yet/);
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.git("checkout", "-q", "--detach");
    const detached = await createGitBranchTool({ root: repo.root }).run({ action: "list" });
    expect(detached).toMatchObject({ success: true, data: { current: null } });
  });

  it("pages branches in a stable order with the exact next call, and takes branch as an alias of name", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    for (const name of ["c-topic", "a-topic", "b-topic", "d-topic"]) repo.git("branch", name);
    const tool = createGitBranchTool({ root: repo.root, allowCreate: true, maxEntries: 2 });
    const first = await tool.run({ action: "list" });
    if (!first.success || first.data.action !== "list") throw new Error("expected a list");
    // Same commit date everywhere: ties are broken by name, so pages never overlap.
    expect(first.data.branches.map((branch) => branch.name)).toEqual(["a-topic", "b-topic"]);
    expect(first.data).toMatchObject({ offset: 1, total: 5, next_offset: 3, truncated: true });
    const text = tool.renderResult(first) as string;
    expect(text).toContain("Branches 1–2 of 5:");
    expect(text).toContain(
      '…[truncated: 3 more branches — call git_branch again with action="list", offset=3]',
    );
    const sized = await tool.run({ action: "list", limit: 1 });
    expect(tool.renderResult(sized as never)).toContain(
      '…[truncated: 4 more branches — call git_branch again with action="list", limit=1, offset=2]',
    );
    const rest = await tool.run({ action: "list", offset: 5 });
    expect(rest).toMatchObject({
      success: true,
      data: { branches: [{ name: "main" }], truncated: false },
    });
    expect(await tool.run({ action: "list", offset: 6 })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/there are 5 branches/) },
    });
    expect(
      await tool.run({ action: "create", branch: "e-topic", start_point: "HEAD" }),
    ).toMatchObject({ success: true, data: { action: "create", name: "e-topic" } });
    expect(await tool.run({ action: "create", name: "f", base: "no-such-base" })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });
});
