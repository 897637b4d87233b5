import { afterEach, describe, expect, it } from "vitest";
import { createGitLogTool } from "./git-log.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

function repositoryWithHistory() {
  const repo = createTemporaryRepository();
  repositories.push(repo);
  for (let index = 1; index <= 12; index += 1) {
    repo.commit(
      index % 2 === 0 ? "even.txt" : "odd.txt",
      `${index}\n`,
      `Change ${index}\n\nBody ${index}`,
    );
  }
  repo.git(
    "-c",
    "user.name=Grace Hopper",
    "-c",
    "user.email=grace@navy.mil",
    "commit",
    "--allow-empty",
    "-qm",
    "By Grace",
  );
  return repo;
}

describe("git_log", () => {
  it("lists the last 10 commits by default with ISO dates, newest first", async () => {
    const repo = repositoryWithHistory();
    const tool = createGitLogTool({ root: repo.root });
    const result = await tool.run({});
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.commits).toHaveLength(10);
    expect(result.data.has_more).toBe(true);
    expect(result.data.next_offset).toBe(10);
    const [first, second] = result.data.commits;
    expect(first).toMatchObject({
      message: "By Grace",
      author: "Grace Hopper",
      author_email: "grace@navy.mil",
    });
    expect(second?.message).toBe("Change 12\n\nBody 12");
    expect(first?.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(first?.short_hash.length).toBeGreaterThanOrEqual(7);
    expect(first?.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(tool.renderResult(result)).toContain("call git_log again with offset=10");
  });

  it("filters by path, author, dates, ref, and pages with offset", async () => {
    const repo = repositoryWithHistory();
    const tool = createGitLogTool({ root: repo.root });
    const run = async (input: unknown) => {
      const result = await tool.run(input);
      if (!result.success) throw new Error(JSON.stringify(result.error));
      return result.data;
    };
    expect((await run({ path: "even.txt", limit: 100 })).commits).toHaveLength(6);
    expect((await run({ author: "GRACE" })).commits.map((commit) => commit.message)).toEqual([
      "By Grace",
    ]);
    expect(
      (await run({ since: "2024-01-01", until: "2024-01-03", limit: 50 })).commits,
    ).toHaveLength(14);
    const late = await run({ since: "2030-01-01" });
    expect(late.commits).toEqual([]);
    expect(late.empty_reason).toMatch(/no commit matches/);
    expect(
      (await run({ ref: "HEAD~13", limit: 5 })).commits.map((commit) => commit.message),
    ).toEqual(["Initial commit"]);
    const page = await run({ limit: 5, offset: 10 });
    expect(page.commits).toHaveLength(4);
    expect(page.has_more).toBe(false);
  });

  it("explains an empty repository and refuses limits above the cap", async () => {
    const repo = createTemporaryRepository({ empty: true });
    repositories.push(repo);
    const tool = createGitLogTool({ root: repo.root, maxLimit: 20 });
    const result = await tool.run({});
    expect(result).toMatchObject({ success: true, data: { commits: [] } });
    expect(tool.renderResult(result)).toMatch(/no commits yet/);
    expect(await tool.run({ limit: 21 })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });
});
