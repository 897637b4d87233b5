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
  it("lists the last 10 commits by default: ISO dates in data, the day and no email in the text", async () => {
    const repo = repositoryWithHistory();
    const tool = createGitLogTool({ root: repo.root });
    const result = await tool.run({});
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.commits).toHaveLength(10);
    expect(result.data).toMatchObject({ offset: 1, truncated: true, next_offset: 11 });
    const [first, second] = result.data.commits;
    expect(first).toMatchObject({ message: "By Grace", author: "Grace Hopper" });
    expect(first).not.toHaveProperty("author_email");
    expect(second?.message).toBe("Change 12\n\nBody 12");
    expect(first?.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(first?.short_hash.length).toBeGreaterThanOrEqual(7);
    expect(first?.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    const text = tool.renderResult(result) as string;
    expect(text).toMatch(/^[0-9a-f]{7,} 2024-01-02 Grace Hopper — By Grace$/m);
    expect(text).not.toMatch(/T03:04:05|@|navy\.mil/);
    expect(text).toMatch(/^Commits 1–10 of 14, newest first:$/m);
    expect(text).toContain("…[truncated: 4 more commits — call git_log again with offset=11]");
  });

  it("include_email adds the email to data and text", async () => {
    const repo = repositoryWithHistory();
    const tool = createGitLogTool({ root: repo.root });
    const result = await tool.run({ limit: 1, include_email: true });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.commits[0]).toMatchObject({ author_email: "grace@navy.mil" });
    expect(tool.renderResult(result)).toContain("Grace Hopper <grace@navy.mil> — By Grace");
    expect(tool.renderResult(result)).toContain("include_email=true, offset=2]");
    expect(tool.renderResult(result)).toContain(
      "call git_log again with limit=1, include_email=true, offset=2]",
    );
  });

  it("pages with 1-based offset: the exact total on every page, every argument in the marker", async () => {
    const repo = repositoryWithHistory();
    const tool = createGitLogTool({ root: repo.root });
    const run = async (input: unknown) => {
      const result = await tool.run(input);
      if (!result.success) throw new Error(JSON.stringify(result.error));
      return { data: result.data, text: tool.renderResult(result) as string };
    };
    const first = await run({ limit: 5 });
    expect(first.data).toMatchObject({ offset: 1, total: 14, next_offset: 6, truncated: true });
    expect(first.data).not.toHaveProperty("total_at_least");
    expect(first.text).toContain("Commits 1–5 of 14, newest first:");
    expect(first.text).toContain(
      "…[truncated: 9 more commits — call git_log again with limit=5, offset=6]",
    );
    const second = await run({ limit: 5, offset: 6 });
    expect(second.data).toMatchObject({ total: 14, next_offset: 11, truncated: true });
    expect(second.data.commits[0]?.message).toBe("Change 8\n\nBody 8");
    // Exactly one commit past the page: the count is exact, not "at least".
    const bound = await run({ limit: 3, offset: 11 });
    expect(bound.data).toMatchObject({ total: 14, next_offset: 14, truncated: true });
    expect(bound.text).toContain(
      "…[truncated: 1 more commit — call git_log again with limit=3, offset=14]",
    );
    const last = await run({ limit: 5, offset: 11 });
    expect(last.data.commits.map((commit) => commit.message.split("\n")[0])).toEqual([
      "Change 3",
      "Change 2",
      "Change 1",
      "Initial commit",
    ]);
    expect(last.data).toMatchObject({ total: 14, truncated: false });
    expect(last.data.next_offset).toBeUndefined();
    expect(last.text).not.toMatch(/truncated/);
    const past = await tool.run({ offset: 15 });
    expect(past).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: "offset=15 is past the end: there are 14 commits in all.",
      },
    });
    const filteredPast = await tool.run({ path: "even.txt", offset: 7 });
    expect(filteredPast).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/there are 6 commits/) },
    });
    const filtered = await run({ path: "even.txt", limit: 2, author: "test" });
    expect(filtered.data).toMatchObject({ total: 6 });
    expect(filtered.text).toContain(
      '…[truncated: 4 more commits — call git_log again with path="even.txt", limit=2, author="test", offset=3]',
    );
    const dated = await run({ since: "2024-01-01", until: "2024-01-03", ref: "HEAD~2", limit: 4 });
    expect(dated.data).toMatchObject({ total: 12, next_offset: 5 });
    expect(await tool.run({ offset: 0 })).toMatchObject({ error: { code: "INVALID_INPUT" } });
  });

  it("filters by path, author, dates and ref", async () => {
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
    expect(late).toMatchObject({ total: 0, truncated: false });
    expect(late.empty_reason).toMatch(/no commit matches/);
    expect(
      (await run({ ref: "HEAD~13", limit: 5 })).commits.map((commit) => commit.message),
    ).toEqual(["Initial commit"]);
  });

  it("accepts max_count, revision and file_path as silent aliases", async () => {
    const repo = repositoryWithHistory();
    const tool = createGitLogTool({ root: repo.root });
    const result = await tool.run({ max_count: 2, revision: "HEAD~1", file_path: "odd.txt" });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data.commits.map((commit) => commit.message.split("\n")[0])).toEqual([
      "Change 11",
      "Change 9",
    ]);
  });

  it("an unknown ref is INVALID_INPUT naming git_branch only when it is mounted", async () => {
    const repo = repositoryWithHistory();
    const alone = await createGitLogTool({ root: repo.root }).run({ ref: "no-such-branch" });
    expect(alone).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    if (!alone.success) {
      expect(alone.error.message).toMatch(/"no-such-branch" does not name a commit/);
      expect(alone.error.hint).toMatch(/git_log list them/);
      expect(alone.error.hint).not.toMatch(/git_branch/);
    }
    const mounted = await createGitLogTool({ root: repo.root, mountedTools: ["git_branch"] }).run({
      ref: "no-such-branch",
    });
    expect(mounted.success === false && mounted.error.hint).toMatch(/git_log and git_branch/);
  });

  it("explains an empty repository and refuses limits above the cap", async () => {
    const repo = createTemporaryRepository({ empty: true });
    repositories.push(repo);
    const tool = createGitLogTool({ root: repo.root, maxLimit: 20 });
    const result = await tool.run({});
    expect(result).toMatchObject({ success: true, data: { commits: [], total: 0 } });
    expect(tool.renderResult(result)).toMatch(/no commits yet/);
    expect(await tool.run({ offset: 2 })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/there are 0 commits/) },
    });
    expect(await tool.run({ limit: 21 })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
  });
});
