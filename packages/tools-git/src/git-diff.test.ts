import { parseNextCall } from "@agentool/contract";
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

async function diff(
  root: string,
  input: unknown = {},
  maxOutputBytes?: number,
  maxEntries?: number,
) {
  const tool = createGitDiffTool({
    root,
    ...(maxOutputBytes ? { maxOutputBytes } : {}),
    ...(maxEntries ? { maxEntries } : {}),
  });
  const result = await tool.run(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return { data: result.data, text: tool.renderResult(result) as string };
}

/** The next call a rendered page's marker names (the contract's marker, parsed back). */
function nextCall(text: string, offset?: number) {
  const markers = text.match(/…\[truncated: [^\]]+\]/g) ?? [];
  for (const marker of markers) {
    const call = parseNextCall(marker);
    if (call !== undefined && (offset === undefined || call.args.offset === offset)) return call;
  }
  return undefined;
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

  it("pages one file's patch over 50 KB by line until the end, each marker naming the exact next call", async () => {
    const repo = repository();
    const lines = Array.from({ length: 6_000 }, (_, index) => `line ${index + 1} of a long file`);
    repo.write("big.txt", `${lines.join("\n")}\n`);
    repo.git("add", "big.txt");
    const expected = repo.git("diff", "--cached", "--no-color", "--", "big.txt");
    expect(Buffer.byteLength(expected)).toBeGreaterThan(50_000);
    let input: Record<string, unknown> = { staged: true };
    let patch = "";
    let pages = 0;
    for (;;) {
      const { data, text } = await diff(repo.root, input);
      pages += 1;
      expect(data.unit).toBe("lines");
      expect(data.total).toBe(expected.trimEnd().split("\n").length);
      expect(Buffer.byteLength(data.diff)).toBeLessThanOrEqual(50_000);
      expect(text.split("\n")[0]).toBe("index (staged) vs HEAD: 1 file changed, +6,000 −0");
      patch += data.diff;
      if (data.next_offset === undefined) {
        expect(data.truncated).toBe(false);
        expect(text).not.toMatch(/truncated/);
        break;
      }
      expect(data.truncated).toBe(true);
      const call = nextCall(text, data.next_offset);
      expect(call?.tool).toBe("git_diff");
      expect(call?.args).toEqual({ staged: true, path: "big.txt", offset: data.next_offset });
      expect(text).toContain(
        `…[truncated: ${(data.total - data.next_offset + 1).toLocaleString("en-US")} more lines — call git_diff again with `,
      );
      if (pages === 1) {
        expect(text).toContain(
          `call git_diff again with staged=true, path="big.txt", offset=${data.next_offset}]`,
        );
      }
      input = call?.args ?? {};
    }
    expect(pages).toBeGreaterThan(2);
    expect(patch).toBe(expected);
    expect(
      await createGitDiffTool({ root: repo.root }).run({ staged: true, offset: 99_999 }),
    ).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/patch lines in all/) },
    });
  });

  it("pages files with one marker per page; a file too large for a page names its rest in a sentence", async () => {
    const repo = repository();
    repo.write("a-big.txt", `${"line of text\n".repeat(2_000)}`);
    repo.write("b-small.txt", "small\n");
    repo.write("c-small.txt", "also small\n");
    repo.git("add", "-A");
    const first = await diff(repo.root, { staged: true }, 5_000);
    expect(first.data).toMatchObject({
      unit: "files",
      offset: 1,
      total: 3,
      total_files: 3,
      additions: 2_002,
      next_offset: 2,
      truncated: true,
      files: [{ file: "a-big.txt" }],
      partial: { file: "a-big.txt", total_lines: 2_006 },
    });
    expect(Buffer.byteLength(first.data.diff)).toBeLessThanOrEqual(5_000);
    expect(first.text.split("\n")[0]).toBe("index (staged) vs HEAD: 3 files changed, +2,002 −0");
    expect(first.text).toContain("Files 1–1 of 3:");
    expect(first.text).toContain(
      "…[truncated: 2 more files — call git_diff again with staged=true, offset=2]",
    );
    // One marker per page (a model, and parseNextCall, read the first): it names the next files.
    expect(first.text.match(/…\[truncated: [^\]]+\]/g)).toHaveLength(1);
    expect(parseNextCall(first.text)?.args).toEqual({ staged: true, offset: 2 });
    const partial = first.data.partial;
    expect(first.text).toContain(
      `a-big.txt: patch lines 1–${partial?.shown_lines} of 2,006 are shown; git_diff with staged=true, path="a-big.txt", offset=${partial?.next_offset} shows the rest of it.`,
    );
    const rest = parseNextCall(
      `call git_diff again with ${/git_diff with (.*) shows the rest/.exec(first.text)?.[1]}`,
    );
    expect(rest?.args).toEqual({ staged: true, path: "a-big.txt", offset: partial?.next_offset });
    const following = await diff(repo.root, rest?.args, 5_000);
    expect(following.data).toMatchObject({ unit: "lines", offset: partial?.next_offset });
    expect(first.data.diff + following.data.diff).toBe(
      repo
        .git("diff", "--cached", "--no-color", "--", "a-big.txt")
        .split("\n")
        .slice(0, (partial?.next_offset ?? 1) - 1 + following.data.diff.split("\n").length - 1)
        .join("\n")
        .concat("\n"),
    );
    const second = await diff(repo.root, { staged: true, offset: 2 }, 5_000);
    expect(second.data).toMatchObject({ offset: 2, total: 3, truncated: false });
    expect(second.data.files.map((file) => file.file)).toEqual(["b-small.txt", "c-small.txt"]);
    expect(second.data.next_offset).toBeUndefined();
    expect(second.data.diff).toContain("+also small");
    expect(
      await createGitDiffTool({ root: repo.root }).run({ staged: true, offset: 4 }),
    ).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: "offset=4 is past the end: there are 3 files in all.",
      },
    });
  });

  it("a diff larger than git's read cap still pages: the list is complete, each page's patch read apart", async () => {
    const repo = repository();
    const big = (name: string) =>
      `${Array.from({ length: 30_000 }, (_, index) => `${name} ${index} ${"x".repeat(20)}`).join("\n")}\n`;
    repo.write("1-big.txt", big("one"));
    repo.write("2-small.txt", "two\n");
    repo.write("3-big.txt", big("three"));
    repo.write("4-small.txt", "four\n");
    repo.git("add", "-A");
    const first = await diff(repo.root, { staged: true }, 20_000);
    expect(first.data).toMatchObject({
      total: 4,
      additions: 60_002,
      files: [{ file: "1-big.txt" }],
      partial: { file: "1-big.txt", total_lines: 30_006 },
      next_offset: 2,
    });
    const second = await diff(repo.root, { staged: true, offset: 2 }, 20_000);
    expect(second.data.files.map((file) => file.file)).toEqual(["2-small.txt"]);
    expect(second.data.next_offset).toBe(3);
    const third = await diff(repo.root, { staged: true, offset: 3 }, 20_000);
    expect(third.data).toMatchObject({ partial: { file: "3-big.txt" }, next_offset: 4 });
    const end = await diff(repo.root, { staged: true, path: "3-big.txt", offset: 30_000 }, 20_000);
    expect(end.data.diff).toBe(
      "+three 29993 xxxxxxxxxxxxxxxxxxxx\n+three 29994 xxxxxxxxxxxxxxxxxxxx\n+three 29995 xxxxxxxxxxxxxxxxxxxx\n+three 29996 xxxxxxxxxxxxxxxxxxxx\n+three 29997 xxxxxxxxxxxxxxxxxxxx\n+three 29998 xxxxxxxxxxxxxxxxxxxx\n+three 29999 xxxxxxxxxxxxxxxxxxxx\n",
    );
    expect(end.data.truncated).toBe(false);
  });

  it("counts are exact: 600 changed files say 600, and files_only pages the list", async () => {
    const repo = repository();
    for (let index = 0; index < 600; index += 1) {
      repo.write(`many/file-${String(index).padStart(3, "0")}.txt`, `${index}\n`);
    }
    repo.git("add", "many");
    const page = await diff(repo.root, { staged: true });
    expect(page.data).toMatchObject({
      total: 600,
      total_files: 600,
      additions: 600,
      truncated: true,
    });
    expect(page.text.split("\n")[0]).toBe("index (staged) vs HEAD: 600 files changed, +600 −0");
    expect(page.data.files.length).toBe((page.data.next_offset ?? 0) - 1);
    expect(page.text).toContain(
      `…[truncated: ${600 - page.data.files.length} more files — call git_diff again with staged=true, offset=${page.data.next_offset}]`,
    );
    const listed = await diff(repo.root, { staged: true, files_only: true, limit: 250 });
    expect(listed.data).toMatchObject({ files_only: true, total: 600, next_offset: 251, diff: "" });
    expect(listed.data.files).toHaveLength(250);
    expect(listed.text).toContain("Files 1–250 of 600:");
    expect(listed.text).toContain(
      "…[truncated: 350 more files — call git_diff again with staged=true, files_only=true, limit=250, offset=251]",
    );
    const tail = await diff(repo.root, { staged: true, files_only: true, offset: 501 });
    expect(tail.data.files[0]?.file).toBe("many/file-500.txt");
    expect(tail.data).toMatchObject({ truncated: false });
    const capped = await diff(repo.root, { staged: true, name_only: true }, undefined, 100);
    expect(capped.data).toMatchObject({ total: 600, next_offset: 101 });
  });

  it("compares two commits: base + ref, 'A..B' and 'A...B'", async () => {
    const repo = repository();
    const start = repo.git("rev-parse", "HEAD").trim();
    repo.git("checkout", "--quiet", "-b", "feature");
    repo.commit("feature.txt", "feature work\n", "feature");
    repo.git("checkout", "--quiet", "main");
    repo.commit("main.txt", "main work\n", "main moves on");
    repo.write("feature.txt", "uncommitted edit, never part of a commit diff\n");
    const pair = await diff(repo.root, { base: "main", ref: "feature" });
    expect(pair.data.compared).toMatch(/^feature \([0-9a-f]{7}\) vs main \([0-9a-f]{7}\)$/);
    expect(pair.data.files.map((file) => [file.file, file.additions, file.deletions])).toEqual([
      ["feature.txt", 1, 0],
      ["main.txt", 0, 1],
    ]);
    expect(pair.data.diff).not.toContain("uncommitted edit");
    const dots = await diff(repo.root, { ref: "main..feature" });
    expect(dots.data.files).toEqual(pair.data.files);
    expect(dots.data.diff).toBe(pair.data.diff);
    const since = await diff(repo.root, { ref: "main...feature" });
    expect(since.data.files.map((file) => file.file)).toEqual(["feature.txt"]);
    expect(since.data.compared).toContain(`where feature branched off main (${start.slice(0, 7)})`);
    const same = await diff(repo.root, { base: "main", ref: "main" });
    expect(same.text).toMatch(/No differences .*the two commits have the same content/);
    const aliases = await diff(repo.root, { from: "main", to: "feature" });
    expect(aliases.data.files).toEqual(pair.data.files);
    const tool = createGitDiffTool({ root: repo.root });
    expect(await tool.run({ ref: "main..feature", staged: true })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/no index side/) },
    });
    expect(await tool.run({ ref: "main..feature", base: "HEAD~1" })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: expect.stringMatching(/already names two commits/) },
    });
  });

  it("staged + ref compares the index with that commit, and says so when they match", async () => {
    const repo = repository();
    repo.commit("notes.txt", "v1\n", "v1");
    repo.commit("notes.txt", "v2\n", "v2");
    repo.write("notes.txt", "v3\n");
    repo.git("add", "notes.txt");
    repo.write("notes.txt", "v4 unstaged\n");
    const indexVsOld = await diff(repo.root, { staged: true, ref: "HEAD~1" });
    expect(indexVsOld.data.compared).toMatch(/^index \(staged\) vs HEAD~1 \([0-9a-f]{7}\)$/);
    expect(indexVsOld.data.diff).toContain("-v1");
    expect(indexVsOld.data.diff).toContain("+v3");
    expect(indexVsOld.data.diff).not.toContain("v4");
    repo.write("notes.txt", "v1\n");
    repo.git("add", "notes.txt");
    const matching = await diff(repo.root, { staged: true, ref: "HEAD~1" });
    expect(matching.text).toBe(
      `No differences (${matching.data.compared}): the index matches HEAD~1 (staged=true compares the index — what the next commit would contain — with HEAD~1).`,
    );
    expect((await diff(repo.root, { cached: true })).data.diff).toContain("-v2");
  });

  it("works before the first commit", async () => {
    const repo = repository({ empty: true });
    repo.write("a.txt", "a\n");
    repo.git("add", "a.txt");
    expect((await diff(repo.root, { staged: true })).data.diff).toContain("+a");
  });

  it("an unknown ref or base is INVALID_INPUT with a hint to the mounted tools that list them", async () => {
    const repo = repository();
    const alone = await createGitDiffTool({ root: repo.root }).run({ ref: "no-such-branch" });
    expect(alone).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    if (!alone.success) expect(alone.error.hint).not.toMatch(/git_log|git_branch/);
    const tool = createGitDiffTool({ root: repo.root, mountedTools: ["git_log", "git_branch"] });
    for (const input of [
      { ref: "no-such-branch" },
      { base: "nope", ref: "HEAD" },
      { ref: "HEAD..nope" },
    ]) {
      const result = await tool.run(input);
      expect(result, JSON.stringify(input)).toMatchObject({
        success: false,
        error: {
          code: "INVALID_INPUT",
          hint: expect.stringMatching(/git_log and git_branch list them/),
        },
      });
    }
  });

  it("names git_status and git_add in descriptions and reasons only when they are mounted", async () => {
    const repo = repository();
    const alone = createGitDiffTool({ root: repo.root });
    expect(alone.description).not.toMatch(/git_status|git_add/);
    const staged = await alone.run({ staged: true });
    expect(alone.renderResult(staged)).not.toMatch(/git_add/);
    const mounted = createGitDiffTool({ root: repo.root, mountedTools: ["git_status", "git_add"] });
    expect(mounted.description).toContain("git_status lists them");
    expect(mounted.renderResult(await mounted.run({ staged: true }))).toContain(
      "Stage files with git_add",
    );
  });
});
