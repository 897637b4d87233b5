import { afterEach, describe, expect, it } from "vitest";
import { createGitShowTool } from "./git-show.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

describe("git_show", () => {
  it("shows a commit's message, files and diff", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.commit("src/a.ts", "export const a = 1;\n", "Add a\n\nWith a body.");
    const tool = createGitShowTool({ root: repo.root });
    const result = await tool.run({ revision: "HEAD" });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    expect(result.data).toMatchObject({
      kind: "commit",
      message: "Add a\n\nWith a body.",
      author: "Test User",
      files: [{ file: "src/a.ts", additions: 1, deletions: 0, binary: false }],
    });
    expect(result.success && result.data.kind === "commit" && result.data.parents).toHaveLength(1);
    expect(tool.renderResult(result)).toContain("+export const a = 1;");
  });

  it("shows a file at an old revision, a directory, and a deleted file", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.commit("notes.md", "old text\n", "v1");
    repo.commit("notes.md", "new text\n", "v2");
    repo.git("rm", "-q", "notes.md");
    repo.git("commit", "-qm", "remove");
    const tool = createGitShowTool({ root: repo.root });
    const old = await tool.run({ revision: "HEAD~2", path: "notes.md" });
    expect(old).toMatchObject({
      success: true,
      data: { kind: "file", content: "old text", total_lines: 1 },
    });
    const listing = await tool.run({ revision: "HEAD~1", path: "." });
    expect(listing).toMatchObject({
      success: true,
      data: { kind: "directory", entries: ["README.md", "notes.md"] },
    });
    const gone = await tool.run({ revision: "HEAD", path: "notes.md" });
    expect(gone).toMatchObject({ success: false, error: { code: "FILE_NOT_FOUND" } });
    const outside = await tool.run({ revision: "HEAD", path: "../x" });
    expect(outside).toMatchObject({ success: false, error: { code: "INVALID_PATH" } });
  });

  it("pages long files with offset and summarises binary files", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    const lines = Array.from({ length: 5_000 }, (_, index) => `line ${index + 1}`).join("\n");
    repo.commit("long.txt", `${lines}\n`, "long");
    repo.write("blob.bin", Buffer.from([1, 0, 2, 0, 3]));
    repo.git("add", "blob.bin");
    repo.git("commit", "-qm", "binary");
    const tool = createGitShowTool({ root: repo.root });
    const first = await tool.run({ revision: "HEAD", path: "long.txt" });
    if (!first.success || first.data.kind !== "file") throw new Error("expected a file");
    expect(first.data.truncated).toBe(true);
    expect(first.data.content).toMatch(/call git_show again with offset=2001/);
    const next = await tool.run({ revision: "HEAD", path: "long.txt", offset: 4_999 });
    expect(next).toMatchObject({
      success: true,
      data: { content: "line 4999\nline 5000", truncated: false },
    });
    const binary = await tool.run({ revision: "HEAD", path: "blob.bin" });
    expect(binary).toMatchObject({ success: true, data: { binary: true, size: 5, content: "" } });
    expect(tool.renderResult(binary)).toMatch(/binary file, 5 bytes/);
  });
});
