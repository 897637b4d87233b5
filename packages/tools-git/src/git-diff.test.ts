import { TRUNCATION_MARKER_PATTERN } from "@agentool/contract";
import { afterEach, describe, expect, it } from "vitest";
import { createGitDiffTool } from "./git-diff.js";
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

async function diff(root: string, input: unknown = {}, maxOutputBytes?: number) {
  const tool = createGitDiffTool({ root, ...(maxOutputBytes ? { maxOutputBytes } : {}) });
  const result = await tool.run(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return { data: result.data, text: tool.renderResult(result) as string };
}

describe("git_diff", () => {
  it("shows unstaged, staged and against-a-ref changes", async () => {
    const repo = repository();
    repo.write("README.md", "# Project\nmore\n");
    const unstaged = await diff(repo.root);
    expect(unstaged.data.files).toEqual([
      { file: "README.md", additions: 1, deletions: 0, binary: false },
    ]);
    expect(unstaged.data.diff).toContain("+more");
    expect((await diff(repo.root, { staged: true })).data.empty_reason).toMatch(
      /nothing is staged/,
    );
    repo.git("add", "README.md");
    expect((await diff(repo.root, { staged: true })).data.diff).toContain("+more");
    expect((await diff(repo.root)).text).toMatch(/No differences .*no unstaged changes/);
    repo.commit("README.md", "# Project\nmore\nand more\n", "second");
    const against = await diff(repo.root, { ref: "HEAD~1", context_lines: 0 });
    expect(against.data.compared).toMatch(/working tree vs HEAD~1/);
    expect(against.data.diff).toContain("+and more");
  });

  it("summarises binary files, handles CRLF, unicode names and renames", async () => {
    const repo = repository();
    repo.commit("crlf.txt", "one\r\ntwo\r\n", "crlf");
    repo.commit("before ü.txt", "rename me please\n".repeat(5), "to rename");
    repo.write("image.bin", Buffer.from([0, 1, 2, 3, 255, 0, 7]));
    repo.write("crlf.txt", "one\r\nTWO\r\n");
    repo.git("mv", "before ü.txt", "after ü.txt");
    repo.git("add", "-A");
    const { data, text } = await diff(repo.root, { staged: true });
    expect(data.files).toEqual(
      expect.arrayContaining([
        { file: "image.bin", additions: null, deletions: null, binary: true },
        { file: "crlf.txt", additions: 1, deletions: 1, binary: false },
        { file: "after ü.txt", from: "before ü.txt", additions: 0, deletions: 0, binary: false },
      ]),
    );
    expect(data.diff).toContain("Binary files");
    expect(data.diff).toContain("+TWO\r");
    expect(text).toContain("binary");
  });

  it("caps a large diff with a marker that says how to narrow it", async () => {
    const repo = repository();
    repo.write("big.txt", `${"line of text\n".repeat(20_000)}`);
    repo.write("small.txt", "small\n");
    repo.git("add", "-A");
    const { data } = await diff(repo.root, { staged: true }, 5_000);
    expect(data.truncated).toBe(true);
    expect(Buffer.byteLength(data.diff)).toBeLessThan(5_300);
    expect(data.diff).toMatch(TRUNCATION_MARKER_PATTERN);
    expect(data.diff).toMatch(/path set to one file/);
    expect(data.files.map((file) => file.file)).toEqual(["big.txt", "small.txt"]);
    const narrowed = await diff(repo.root, { staged: true, path: "small.txt" }, 5_000);
    expect(narrowed.data.truncated).toBe(false);
  });

  it("works before the first commit", async () => {
    const repo = repository({ empty: true });
    repo.write("a.txt", "a\n");
    repo.git("add", "a.txt");
    expect((await diff(repo.root, { staged: true })).data.diff).toContain("+a");
  });

  it("refuses an unknown ref with a hint", async () => {
    const repo = repository();
    const result = await createGitDiffTool({ root: repo.root }).run({ ref: "no-such-branch" });
    expect(result).toMatchObject({ success: false, error: { code: "GIT_ERROR" } });
    if (!result.success) expect(result.error.hint).toMatch(/git_log/);
  });
});
