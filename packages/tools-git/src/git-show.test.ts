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
    const old = await tool.run({ revision: "HEAD~2", file_at_revision: "notes.md" });
    expect(old).toMatchObject({
      success: true,
      data: { kind: "file", content: "old text", total: 1, truncated: false },
    });
    const listing = await tool.run({ revision: "HEAD~1", file_at_revision: "." });
    expect(listing).toMatchObject({
      success: true,
      data: { kind: "directory", entries: ["README.md", "notes.md"] },
    });
    const gone = await tool.run({ revision: "HEAD", file_at_revision: "notes.md" });
    expect(gone).toMatchObject({ success: false, error: { code: "FILE_NOT_FOUND" } });
    const outside = await tool.run({ revision: "HEAD", file_at_revision: "../x" });
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
    const first = await tool.run({ revision: "HEAD~1", file_at_revision: "long.txt" });
    if (!first.success || first.data.kind !== "file") throw new Error("expected a file");
    expect(first.data).toMatchObject({ truncated: true, total: 5_000, next_offset: 2_001 });
    expect(first.data.content).not.toMatch(/truncated/);
    expect(first.data.content.split("\n")).toHaveLength(2_000);
    const text = tool.renderResult(first) as string;
    expect(text).toContain("long.txt at ");
    expect(text).toContain("(lines 1–2,000 of 5,000):");
    expect(text).toContain(
      '…[truncated: 3,000 more lines — call git_show again with revision="HEAD~1", file_at_revision="long.txt", offset=2001]',
    );
    const next = await tool.run({ revision: "HEAD", file_at_revision: "long.txt", offset: 4_999 });
    expect(next).toMatchObject({
      success: true,
      data: { content: "line 4999\nline 5000", truncated: false },
    });
    expect(
      await tool.run({ revision: "HEAD", file_at_revision: "long.txt", offset: 5_001 }),
    ).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: "offset=5001 is past the end: there are 5,000 lines in all.",
      },
    });
    const binary = await tool.run({ revision: "HEAD", file_at_revision: "blob.bin" });
    expect(binary).toMatchObject({ success: true, data: { binary: true, size: 5, content: "" } });
    expect(tool.renderResult(binary)).toMatch(/binary file, 5 bytes/);
  });

  it("pages its own commit diff per path; the marker names git_show, never a working-tree diff", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    const lines = Array.from({ length: 3_000 }, (_, index) => `committed line ${index + 1}`);
    repo.write("big.txt", `${lines.join("\n")}\n`);
    repo.write("small-a.txt", "a\n");
    repo.write("small-b.txt", "b\n");
    repo.git("add", "-A");
    repo.git("commit", "-qm", "three files");
    repo.commit("later.txt", "later\n", "a later commit");
    // Uncommitted edits must never show up as if they were the commit.
    repo.write("big.txt", "uncommitted edit\n");
    const tool = createGitShowTool({ root: repo.root, maxOutputBytes: 10_000 });
    const first = await tool.run({ revision: "HEAD~1" });
    if (!first.success || first.data.kind !== "commit") throw new Error("expected a commit");
    expect(first.data).toMatchObject({
      revision: "HEAD~1",
      unit: "files",
      total: 3,
      total_files: 3,
      additions: 3_002,
      files: [{ file: "big.txt" }],
      next_offset: 2,
      truncated: true,
      partial: { file: "big.txt", total_lines: 3_006 },
    });
    const text = tool.renderResult(first) as string;
    expect(text).toContain("3 files changed, +3,002 −0");
    expect(text).not.toMatch(/git_diff/);
    const partial = first.data.partial;
    // One marker per page: the rest of the cut file is named in a sentence.
    expect(text.match(/…\[truncated: [^\]]+\]/g)).toHaveLength(1);
    expect(text).toContain(
      `git_show with revision="HEAD~1", path="big.txt", offset=${partial?.next_offset} shows the rest of it.`,
    );
    expect(text).toContain(
      '…[truncated: 2 more files — call git_show again with revision="HEAD~1", offset=2]',
    );
    let input: Record<string, unknown> = {
      revision: "HEAD~1",
      path: "big.txt",
      offset: partial?.next_offset,
    };
    let patch = first.data.diff;
    for (;;) {
      const page = await tool.run(input);
      if (!page.success || page.data.kind !== "commit") throw new Error(JSON.stringify(page));
      expect(page.data).toMatchObject({ unit: "lines", path: "big.txt", total: 3_006 });
      expect(page.data.diff).not.toContain("uncommitted edit");
      patch += page.data.diff;
      if (page.data.next_offset === undefined) break;
      expect(tool.renderResult(page)).toContain(
        `call git_show again with revision="HEAD~1", path="big.txt", offset=${page.data.next_offset}]`,
      );
      input = { ...input, offset: page.data.next_offset };
    }
    expect(patch).toBe(repo.git("show", "--format=", "--no-color", "HEAD~1", "--", "big.txt"));
    const rest = await tool.run({ revision: "HEAD~1", offset: 2 });
    expect(rest).toMatchObject({
      success: true,
      data: { files: [{ file: "small-a.txt" }, { file: "small-b.txt" }], truncated: false },
    });
    expect(await tool.run({ revision: "HEAD~1", offset: 4 })).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: "offset=4 is past the end: there are 3 files in all.",
      },
    });
    expect(
      await tool.run({ revision: "HEAD", path: "big.txt", file_at_revision: "big.txt" }),
    ).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
  });

  it("pages a directory at a revision, shows a merge against its first parent, takes aliases", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    for (let index = 0; index < 12; index += 1)
      repo.write(`dir/f${String(index).padStart(2, "0")}.txt`, `${index}\n`);
    repo.git("add", "-A");
    repo.git("commit", "-qm", "a dozen");
    const tool = createGitShowTool({ root: repo.root, maxEntries: 5 });
    const first = await tool.run({ commit: "HEAD", file_at_revision: "dir" });
    expect(first).toMatchObject({
      success: true,
      data: {
        kind: "directory",
        total: 12,
        next_offset: 6,
        truncated: true,
        entries: ["f00.txt", "f01.txt", "f02.txt", "f03.txt", "f04.txt"],
      },
    });
    expect(tool.renderResult(first)).toContain(
      '…[truncated: 7 more entries — call git_show again with revision="HEAD", file_at_revision="dir", offset=6]',
    );
    expect(await tool.run({ revision: "HEAD", file_at_revision: "dir", offset: 11 })).toMatchObject(
      {
        success: true,
        data: { entries: ["f10.txt", "f11.txt"], truncated: false },
      },
    );
    expect(await tool.run({ revision: "HEAD", file_at_revision: "dir", offset: 13 })).toMatchObject(
      {
        success: false,
        error: { code: "INVALID_INPUT" },
      },
    );
    repo.git("checkout", "-q", "-b", "side");
    repo.commit("side.txt", "side\n", "side");
    repo.git("checkout", "-q", "main");
    repo.commit("main.txt", "main\n", "main");
    repo.git("merge", "-q", "--no-edit", "side");
    const merge = await createGitShowTool({ root: repo.root }).run({ ref: "HEAD" });
    expect(merge).toMatchObject({
      success: true,
      data: { kind: "commit", files: [{ file: "side.txt", additions: 1 }] },
    });
    if (merge.success && merge.data.kind === "commit") expect(merge.data.parents).toHaveLength(2);
  });

  it("not a repository is NOT_CONFIGURED; an unknown revision is INVALID_INPUT", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    expect(await createGitShowTool({ root: repo.base }).run({ revision: "HEAD" })).toMatchObject({
      success: false,
      error: { code: "NOT_CONFIGURED" },
    });
    const unknown = await createGitShowTool({ root: repo.root, mountedTools: ["git_log"] }).run({
      revision: "deadbeef",
    });
    expect(unknown).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", hint: expect.stringMatching(/git_log list them/) },
    });
  });

  it("an empty commit diff says why: a path the commit did not touch, an empty commit, a range", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.commit("a.txt", "a\n", "add a");
    const tool = createGitShowTool({ root: repo.root, mountedTools: ["git_diff"] });
    const elsewhere = await tool.run({ revision: "HEAD", path: "README.md" });
    if (!elsewhere.success || elsewhere.data.kind !== "commit")
      throw new Error("expected a commit");
    expect(elsewhere.data).toMatchObject({ total_files: 0, total: 0, truncated: false });
    expect(elsewhere.data.empty_reason).toMatch(/did not change README\.md/);
    expect(tool.renderResult(elsewhere)).toMatch(
      /No changes: this commit did not change README\.md/,
    );
    repo.git("commit", "-q", "--allow-empty", "-m", "nothing");
    const empty = await tool.run({ revision: "HEAD" });
    if (!empty.success || empty.data.kind !== "commit") throw new Error("expected a commit");
    expect(empty.data.empty_reason).toMatch(/changes no file/);
    expect(tool.renderResult(empty)).toMatch(/No changes: /);
    const shown = await tool.run({ revision: "HEAD~1" });
    if (!shown.success || shown.data.kind !== "commit") throw new Error("expected a commit");
    expect(shown.data.total_files).toBe(1);
    expect(shown.data.empty_reason).toBeUndefined();
    const range = await tool.run({ revision: "HEAD~1..HEAD" });
    expect(range).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", hint: expect.stringMatching(/git_diff/) },
    });
  });

  it("path means what it means in git_diff, git_log and git_status: what the commit changed there", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.commit("src/a.ts", "export const a = 1;\nexport const keep = 0;\n", "add a");
    repo.write("src/a.ts", "export const a = 2;\nexport const keep = 0;\n");
    repo.write("src/b.ts", "export const b = 1;\n");
    repo.git("add", "-A");
    repo.git("commit", "-qm", "change a, add b");
    const tool = createGitShowTool({ root: repo.root });
    // "What did commit X change in file Y": the diff of that file, not the whole file.
    const changed = await tool.run({ revision: "HEAD", path: "src/a.ts" });
    if (!changed.success || changed.data.kind !== "commit") throw new Error("expected a commit");
    expect(changed.data).toMatchObject({ path: "src/a.ts", total_files: 1 });
    expect(changed.data.diff).toContain("-export const a = 1;\n+export const a = 2;");
    expect(changed.data.files.map((file) => file.file)).toEqual(["src/a.ts"]);
    // The file as it was: its own field.
    const content = await tool.run({ revision: "HEAD~1", file_at_revision: "src/a.ts" });
    expect(content).toMatchObject({
      success: true,
      data: { kind: "file", content: "export const a = 1;\nexport const keep = 0;" },
    });
    // The old field name still works as a silent alias of path.
    const alias = await tool.run({ revision: "HEAD", diff_path: "src/b.ts" });
    expect(alias).toMatchObject({ success: true, data: { kind: "commit", path: "src/b.ts" } });
    expect(tool.input.shape).toHaveProperty("file_at_revision");
    expect(tool.input.shape).not.toHaveProperty("diff_path");
  });
});
