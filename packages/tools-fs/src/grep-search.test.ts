import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatCount, TRUNCATION_MARKER_PATTERN } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepSearchTool, type GrepSearchToolData } from "./grep-search.js";
import type { TextSearcher } from "./internal/search-types.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createRipgrepSearcher } from "./node/ripgrep/index.js";
import { createWorkspace } from "./workspace.js";

let base: string;
let root: string;

const fixture: Record<string, string> = {
  "src/a.ts":
    "const alpha = 1;\n// TODO fix alpha\nconst beta = alpha;\nconst gamma = (alpha + 1);\n",
  "src/b.ts": "TODO: two\nnothing here\n",
  "docs/readme.md": "hello --pre=/bin/sh world\nrun --pre=./pre.sh now\n",
  "docs/long.txt": `${"x".repeat(5000)}NEEDLE${"y".repeat(5000)}\n`,
  ".env": "SECRET=TODO_TOKEN\n",
  ".ssh/id_rsa": "TODO key\n",
  "config/prod.pem": "TODO pem\n",
  ".hidden/h.ts": "only_in_hidden\n",
  "node_modules/pkg/index.js": "only_in_ignored TODO\n",
  ".gitignore": "node_modules/\n",
  "pre.sh": "#!/bin/sh\ntouch MARKER\ncat\n",
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "agentool-grep-"));
  root = join(base, "root");
  for (const [path, content] of Object.entries(fixture)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await chmod(join(root, "pre.sh"), 0o755);
  await mkdir(join(base, "outside"), { recursive: true });
  await writeFile(join(base, "outside", "leak.txt"), "TODO outside the root\n");
  await symlink(join(base, "outside"), join(root, "src", "linked-dir"));
  await symlink(join(base, "outside", "leak.txt"), join(root, "src", "linked-file.txt"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

type Engine = { name: string; searcher: () => TextSearcher | undefined };

const engines: Engine[] = [
  { name: "ripgrep", searcher: () => createRipgrepSearcher({ root }) },
  { name: "js engine over the node seam", searcher: () => undefined },
];

async function search(engine: Engine, input: Record<string, unknown>) {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const searcher = engine.searcher();
  const tool = createGrepSearchTool(
    searcher === undefined ? { workspace } : { workspace, searcher },
  );
  const result = await tool.run(input);
  return { tool, result };
}

async function data(engine: Engine, input: Record<string, unknown>): Promise<GrepSearchToolData> {
  const { result } = await search(engine, input);
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.data;
}

function allPaths(result: GrepSearchToolData): string[] {
  return result.files.map((file) => file.path);
}

describe.each(engines)("grep_search with the $name", (engine) => {
  it("finds matches sorted by path then line, never in secret, hidden, ignored or symlinked files", async () => {
    const result = await data(engine, { pattern: "TODO" });
    expect(allPaths(result)).toEqual(["src/a.ts", "src/b.ts"]);
    expect(result.files[0]?.lines).toEqual([{ line: 2, text: "// TODO fix alpha", kind: "match" }]);
    expect(result.match_count).toBe(2);
    expect(result.total).toBe(2);
    expect(result.total_files).toBe(2);
    expect(result.next_offset).toBeUndefined();
    expect(result.truncated).toBe(false);
    const { tool, result: raw } = await search(engine, { pattern: "TODO" });
    expect(tool.renderResult(raw)).toBe(
      '2 matching lines in 2 files for "TODO" in .:\nsrc/a.ts\n2: // TODO fix alpha\n\nsrc/b.ts\n1: TODO: two',
    );
  });

  it("searches for a pattern that looks like a flag instead of running it", async () => {
    const result = await data(engine, { pattern: "--pre=/bin/sh" });
    expect(allPaths(result)).toEqual(["docs/readme.md"]);
    const viaScript = await data(engine, { pattern: "--pre=./pre.sh", literal: true });
    expect(allPaths(viaScript)).toEqual(["docs/readme.md"]);
    for (const pattern of ["--files", "-u", "--hidden", "--pre=./pre.sh"]) {
      const flagged = await data(engine, { pattern, glob: "*.md" });
      expect(allPaths(flagged).every((path) => path === "docs/readme.md")).toBe(true);
    }
    await expect(
      import("node:fs/promises").then((fs) => fs.access(join(root, "MARKER"))),
    ).rejects.toThrow();
  });

  it("never returns secret files whatever the glob", async () => {
    for (const glob of ["**/.env", ".env", ".ssh/**", "**/*.pem", "config/**", "**"]) {
      const result = await data(engine, { pattern: "TODO", glob });
      for (const path of allPaths(result)) {
        expect(path).not.toMatch(/\.env|\.ssh|\.pem/);
      }
    }
  });

  it("treats a glob that looks like a flag as a glob", async () => {
    for (const glob of ["--files", "-u", "--pre=./pre.sh"]) {
      const result = await data(engine, { pattern: "TODO", glob });
      expect(result.files).toEqual([]);
      expect(result.empty_reason).toBe("glob_matched_nothing");
    }
  });

  it("does not return hidden files, but says when matches exist only there", async () => {
    const hidden = await data(engine, { pattern: "only_in_hidden" });
    expect(hidden.files).toEqual([]);
    expect(hidden.empty_reason).toBe("only_hidden_or_ignored");
    expect(hidden.message).toContain(".hidden/h.ts");
    const ignored = await data(engine, { pattern: "only_in_ignored" });
    expect(ignored.empty_reason).toBe("only_hidden_or_ignored");
    expect(ignored.message).toContain('path="node_modules/pkg"');
    for (const glob of ["**", "**/*.js", "node_modules/**", ".hidden/*"]) {
      const viaGlob = await data(engine, { pattern: "only_in_(ignored|hidden)", glob });
      expect(viaGlob.files).toEqual([]);
    }
    const explicit = await data(engine, { pattern: "only_in_ignored", path: "node_modules/pkg" });
    expect(allPaths(explicit)).toEqual(["node_modules/pkg/index.js"]);
  });

  it("says why an empty result is empty", async () => {
    const none = await data(engine, { pattern: "zzz_no_such_text" });
    expect(none.empty_reason).toBe("no_match");
    expect(none.message).toMatch(/No match/);
    const glob = await data(engine, { pattern: "TODO", glob: "*.nope" });
    expect(glob.empty_reason).toBe("glob_matched_nothing");
    expect(glob.message).toContain("*.nope");
  });

  it("says why an empty result is empty with a glob too: absent, only hidden or ignored, glob matched nothing", async () => {
    const cases: Array<[Record<string, unknown>, string, string | undefined]> = [
      [{ pattern: "zzz_no_such_text", glob: "**/*.ts" }, "no_match", undefined],
      [{ pattern: "only_in_hidden", glob: "**/*.ts" }, "only_hidden_or_ignored", ".hidden/h.ts"],
      [{ pattern: "only_in_hidden", glob: "**/*.md" }, "no_match", undefined],
      [
        { pattern: "only_in_ignored", glob: "**/*.js" },
        "only_hidden_or_ignored",
        "node_modules/pkg/index.js",
      ],
      [{ pattern: "only_in_ignored", glob: "**/*.ts" }, "no_match", undefined],
      [{ pattern: "only_in_hidden", glob: "*.nope" }, "glob_matched_nothing", undefined],
      [{ pattern: "only_in_hidden", path: "src", glob: "src/*.ts" }, "no_match", undefined],
    ];
    for (const [input, reason, example] of cases) {
      const result = await data(engine, input);
      expect({ input, reason: result.empty_reason, example: result.example_path }).toEqual({
        input,
        reason,
        example,
      });
      expect(result.files).toEqual([]);
    }
  });

  it("refuses paths outside the root and secret paths", async () => {
    for (const path of ["../", "../outside", "/etc", "src/../../outside"]) {
      const { result } = await search(engine, { pattern: "TODO", path });
      expect(result.success ? "ok" : result.error.code).toBe("INVALID_PATH");
    }
    const { result: throughLink } = await search(engine, {
      pattern: "TODO",
      path: "src/linked-dir",
    });
    expect(throughLink.success ? "ok" : throughLink.error.code).toBe("INVALID_PATH");
    const { result: secret } = await search(engine, { pattern: "TODO", path: ".ssh" });
    expect(secret.success ? "ok" : secret.error.code).toBe("BLOCKED");
    const { result: missing } = await search(engine, { pattern: "TODO", path: "nope" });
    expect(missing.success ? "ok" : missing.error.code).toBe("FILE_NOT_FOUND");
  });

  it("searches one file or one directory", async () => {
    expect(allPaths(await data(engine, { pattern: "TODO", path: "src/b.ts" }))).toEqual([
      "src/b.ts",
    ]);
    expect(allPaths(await data(engine, { pattern: "alpha", path: "./src" }))).toEqual(["src/a.ts"]);
  });

  it("pages matches with offset, the contract marker and an exact total", async () => {
    const result = await data(engine, { pattern: "alpha", limit: 2 });
    expect(result.match_count).toBe(2);
    expect(result.truncated).toBe(true);
    expect(result.total).toBe(4);
    expect(result.next_offset).toBe(3);
    const { tool, result: raw } = await search(engine, { pattern: "alpha", limit: 2 });
    const text = String(tool.renderResult(raw));
    expect(text).toMatch(TRUNCATION_MARKER_PATTERN);
    expect(text).toContain(
      '…[truncated: 2 more matches — call grep_search again with pattern="alpha", path=".", limit=2, offset=3]',
    );
    expect(text.split("\n")[0]).toBe(
      'Matching lines 1–2 of 4 (in 1 file) for "alpha" in ., sorted by path:',
    );
    const next = await data(engine, { pattern: "alpha", limit: 2, offset: 3 });
    expect(next.files[0]?.lines?.map((line) => line.line)).toEqual([3, 4]);
    expect(next.truncated).toBe(false);
    expect(next.next_offset).toBeUndefined();
    const files = await data(engine, {
      pattern: "TODO",
      output_mode: "files_with_matches",
      limit: 1,
    });
    expect(files.files).toEqual([{ path: "src/a.ts" }]);
    expect(files.total).toBe(2);
    expect(files.next_offset).toBe(2);
    const rest = await data(engine, {
      pattern: "TODO",
      output_mode: "files_with_matches",
      limit: 1,
      offset: 2,
    });
    expect(rest.files).toEqual([{ path: "src/b.ts" }]);
  });

  it("names the whole next call: every filter at a value of its own, the mode and the limit", async () => {
    const input = {
      pattern: "ALPHA",
      path: "src",
      glob: "*.ts",
      ignore_case: true,
      context_lines: 1,
      limit: 1,
    };
    const { tool, result } = await search(engine, input);
    const text = String(tool.renderResult(result));
    expect(text).toContain(
      'call grep_search again with pattern="ALPHA", path="src", glob="*.ts", context_lines=1, ignore_case=true, limit=1, offset=2]',
    );
    const literal = await search(engine, { pattern: "alpha", literal: true, limit: 1 });
    expect(String(literal.tool.renderResult(literal.result))).toContain(
      'call grep_search again with pattern="alpha", path=".", literal=true, limit=1, offset=2]',
    );
    const files = await search(engine, { pattern: "TODO", output_mode: "count", limit: 1 });
    expect(String(files.tool.renderResult(files.result))).toContain(
      'call grep_search again with pattern="TODO", path=".", output_mode="count", limit=1, offset=2]',
    );
  });

  it("echoes the pattern as written (one backslash) and cuts a long one", async () => {
    const escaped = await search(engine, { pattern: "\\balpha\\b", limit: 2 });
    expect(String(escaped.tool.renderResult(escaped.result)).split("\n")[0]).toBe(
      'Matching lines 1–2 of 4 (in 1 file) for "\\balpha\\b" in ., sorted by path:',
    );
    const long = `alpha|${"z".repeat(4_994)}`;
    const cut = await search(engine, { pattern: long, limit: 2 });
    const text = String(cut.tool.renderResult(cut.result));
    expect(text.split("\n")[0]).toBe(
      `Matching lines 1–2 of 4 (in 1 file) for "alpha|${"z".repeat(114)}"…[truncated: 4,880 more characters — the search used the whole pattern] in ., sorted by path:`,
    );
    // The next call still carries the whole pattern.
    expect(text).toContain(`pattern="${long}"`);
    const none = await search(engine, { pattern: "\\bzzz_absent\\b" });
    expect(String(none.tool.renderResult(none.result))).toContain(
      'No match for "\\bzzz_absent\\b" in .',
    );
  });

  it("refuses an offset past the end with offsetPastEnd", async () => {
    const { result } = await search(engine, { pattern: "alpha", offset: 5 });
    expect(result.success ? "ok" : result.error.code).toBe("INVALID_INPUT");
    expect(result.success ? "" : result.error.message).toContain("4 matching lines in all");
    const { result: empty } = await search(engine, { pattern: "zzz_absent", offset: 2 });
    expect(empty.success ? "ok" : empty.error.code).toBe("INVALID_INPUT");
  });

  it("reports files or counts", async () => {
    const files = await data(engine, { pattern: "alpha|TODO", output_mode: "files_with_matches" });
    expect(files.files).toEqual([{ path: "src/a.ts" }, { path: "src/b.ts" }]);
    const counts = await data(engine, { pattern: "alpha", output_mode: "count" });
    expect(counts.files).toEqual([{ path: "src/a.ts", count: 4 }]);
    expect(counts.total_matches).toBe(4);
  });

  it("shows context lines, ignores case, matches literals", async () => {
    const context = await data(engine, { pattern: "TODO", path: "src/a.ts", context_lines: 1 });
    expect(context.files[0]?.lines?.map((line) => `${line.line}${line.kind}`)).toEqual([
      "1context",
      "2match",
      "3context",
    ]);
    expect(allPaths(await data(engine, { pattern: "todo", ignore_case: true }))).toEqual([
      "src/a.ts",
      "src/b.ts",
    ]);
    expect((await data(engine, { pattern: "todo" })).files).toEqual([]);
    const literal = await data(engine, { pattern: "(alpha + 1)", literal: true });
    expect(literal.files[0]?.lines?.[0]?.line).toBe(4);
  });

  it("cuts long lines around the match", async () => {
    const result = await data(engine, { pattern: "NEEDLE" });
    const line = result.files[0]?.lines?.[0];
    expect(line?.text).toContain("NEEDLE");
    expect(line?.text.length).toBeLessThanOrEqual(302);
    expect(line?.cut).toBe(10_006 - 300);
  });

  it("keeps a cut line's text as it is in data and marks the cut with the contract's marker in the render", async () => {
    const { tool, result } = await search(engine, { pattern: "NEEDLE" });
    if (!result.success) throw new Error("expected success");
    const line = result.data.files[0]?.lines?.[0];
    // Data is facts: the kept slice of the file, no ellipsis; cut_start says where it begins.
    expect(line?.text).not.toContain("…");
    expect(line?.text.length).toBe(300);
    const start = line?.cut_start ?? 0;
    expect(start).toBeGreaterThan(0);
    expect(fixture["docs/long.txt"]?.slice(start, start + 300)).toBe(line?.text);
    const text = tool.renderResult(result) as string;
    expect(text).toContain(
      `1: …${line?.text}… …[truncated: 9,706 more characters — line 1 is too long to show whole]`,
    );
    expect(text).not.toContain("[line cut");
  });

  it("refuses an invalid regular expression with INVALID_INPUT", async () => {
    const { result } = await search(engine, { pattern: "(unclosed" });
    expect(result.success ? "ok" : result.error.code).toBe("INVALID_INPUT");
  });

  it("passes the conformance kit", async () => {
    const { tool } = await search(engine, { pattern: "x" });
    await assertConformance([tool], { samples: { grep_search: { pattern: "TODO" } } });
  });
});

describe("grep_search with the js engine over the memory seam", () => {
  const fileSystem = createMemoryFileSystem(
    {
      "a.md": "hello world\nsecond hello\n",
      "sub/b.md": "Hello again\n",
      ".env": "hello secret\n",
      ".cache/c.md": "hello hidden\n",
      "ignored/d.md": "hello ignored\n",
      ".gitignore": "ignored/\n",
    },
    { symlinks: { "sub/link.md": "../a.md" } },
  );
  const tool = createGrepSearchTool({ workspace: createWorkspace({ fileSystem }) });

  it("searches with the same rules as ripgrep", async () => {
    const result = await tool.run({ pattern: "hello", ignore_case: true });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.files.map((file) => [file.path, file.count])).toEqual([
      ["a.md", 2],
      ["sub/b.md", 1],
    ]);
    const secret = await tool.run({ pattern: "secret", glob: "**/.env" });
    expect(secret.success && secret.data.files).toEqual([]);
  });

  it("stops deterministically at the limit", async () => {
    const result = await tool.run({ pattern: "hello", limit: 1 });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.files).toEqual([
      { path: "a.md", count: 1, lines: [{ line: 1, text: "hello world", kind: "match" }] },
    ]);
    expect(result.data.total).toBe(2);
    expect(result.data.next_offset).toBe(2);
  });

  it("rejects bad options", () => {
    expect(() =>
      createGrepSearchTool({ workspace: createWorkspace({ fileSystem }), limit: 3 } as never),
    ).toThrow(/Known options/);
  });
});

describe("grep_search pages: deterministic, true counts, same order in both engines", () => {
  let big: string;
  const directories = ["a", "a b", "a-c", "a.b", "ab", "b", "Z"];

  beforeAll(async () => {
    big = await mkdtemp(join(tmpdir(), "agentool-grep-pages-"));
    // 7 directories × 30 files × 4 matching lines = 840 matches (more than the 500 budget).
    for (const directory of directories) {
      await mkdir(join(big, directory), { recursive: true });
      for (let file = 0; file < 30; file += 1) {
        const lines = [];
        for (let line = 1; line <= 12; line += 1)
          lines.push(line % 3 === 0 ? `hit ${directory}/${file} line ${line}` : `plain ${line}`);
        await writeFile(join(big, directory, `f${file}.txt`), `${lines.join("\n")}\n`);
      }
    }
    await writeFile(join(big, "a.b.txt"), "hit at the top\n");
    await writeFile(join(big, ".env"), "hit secret\n".repeat(50));
    await mkdir(join(big, "keys"), { recursive: true });
    await writeFile(join(big, "keys", "server.pem"), "hit pem\n".repeat(50));
  });

  afterAll(async () => {
    await rm(big, { recursive: true, force: true });
  });

  function tools() {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root: big }) });
    return {
      ripgrep: createGrepSearchTool({ workspace, searcher: createRipgrepSearcher({ root: big }) }),
      js: createGrepSearchTool({ workspace }),
    };
  }

  async function page(tool: ReturnType<typeof tools>["js"], input: Record<string, unknown>) {
    const result = await tool.run(input);
    if (!result.success) throw new Error(JSON.stringify(result.error));
    return { data: result.data, text: String(tool.renderResult(result)) };
  }

  function matchIds(data: GrepSearchToolData): string[] {
    return data.files.flatMap((file) =>
      (file.lines ?? [])
        .filter((line) => line.kind === "match")
        .map((line) => `${file.path}:${line.line}`),
    );
  }

  it("returns the same capped page every time, a prefix of the one path order", async () => {
    const { ripgrep, js } = tools();
    const first = await page(ripgrep, { pattern: "hit", limit: 10 });
    for (let run = 0; run < 12; run += 1) {
      expect((await page(ripgrep, { pattern: "hit", limit: 10 })).data).toEqual(first.data);
    }
    expect(matchIds(first.data)).toEqual([
      "Z/f0.txt:3",
      "Z/f0.txt:6",
      "Z/f0.txt:9",
      "Z/f0.txt:12",
      "Z/f1.txt:3",
      "Z/f1.txt:6",
      "Z/f1.txt:9",
      "Z/f1.txt:12",
      "Z/f10.txt:3",
      "Z/f10.txt:6",
    ]);
    // The JS engine walks the same order and cuts the same page.
    expect((await page(js, { pattern: "hit", limit: 10 })).data).toEqual(first.data);
    // The capped page is the prefix of the exact, complete listing (a different pass of rg).
    const whole = await page(ripgrep, { pattern: "hit", limit: 1000 });
    expect(whole.data.total).toBe(841);
    expect(whole.data.total_files).toBe(211);
    expect(matchIds(whole.data).slice(0, 10)).toEqual(matchIds(first.data));
    // Path order: segment by segment, `a/…` before `a b/…`, `a-c/…`, `a.b.txt`, `a.b/…`.
    const order = [...new Set(whole.data.files.map((file) => file.path.split("/")[0]))];
    expect(order).toEqual(["Z", "a", "a b", "a-c", "a.b", "a.b.txt", "ab", "b"]);
    expect(matchIds((await page(js, { pattern: "hit", limit: 1000 })).data)).toEqual(
      matchIds(whole.data),
    );
  }, 30_000);

  it("pages through every match with offset, in both engines, and the pages add up", async () => {
    for (const tool of Object.values(tools())) {
      const seen: string[] = [];
      let offset: number | undefined = 1;
      let pages = 0;
      while (offset !== undefined) {
        const { data, text } = await page(tool, { pattern: "hit", limit: 300, offset });
        seen.push(...matchIds(data));
        if (data.next_offset !== undefined) {
          expect(text).toContain(
            `call grep_search again with pattern="hit", path=".", limit=300, offset=${data.next_offset}]`,
          );
        }
        offset = data.next_offset;
        pages += 1;
      }
      expect(pages).toBe(3);
      expect(seen).toHaveLength(841);
      expect(new Set(seen).size).toBe(841);
      expect(seen.some((id) => id.includes(".env") || id.includes(".pem"))).toBe(false);
    }
  });

  it("knows the exact total in content mode whenever count mode does, the same on every later page", async () => {
    const { ripgrep, js } = tools();
    for (const tool of [ripgrep, js]) {
      // 841 matching lines in 211 files: more lines than a small page counts, fewer files than
      // count mode's budget — count mode says 841 at once, and so does content mode now.
      const counted = await page(tool, { pattern: "hit", output_mode: "count", limit: 10 });
      expect(counted.data.total_matches).toBe(841);
      // The first page stays "at least" (ripgrep's count pass would cost a scan of the tree on
      // the most common call; the JS engine keeps the same rule so both answer alike); every
      // later page is exact, and the same.
      const first = await page(tool, { pattern: "hit", limit: 10 });
      expect(first.data.total).toBeUndefined();
      expect(first.data.total_at_least).toBe(501);
      for (const offset of [21, 501, 831]) {
        const { data, text } = await page(tool, { pattern: "hit", limit: 10, offset });
        expect(data.total).toBe(841);
        expect(data.total_files).toBe(211);
        expect(data.total_at_least).toBeUndefined();
        expect(text.split("\n")[0]).toBe(
          `Matching lines ${formatCount(offset)}–${formatCount(offset + 9)} of 841 (in 211 files) for "hit" in ., sorted by path:`,
        );
      }
    }
  }, 30_000);

  it("never prints a partial sum as a total in count mode", async () => {
    const { ripgrep, js } = tools();
    for (const tool of [ripgrep, js]) {
      const capped = await page(tool, { pattern: "hit", output_mode: "count", limit: 100 });
      expect(capped.data.files).toHaveLength(100);
      expect(capped.data.match_count).toBe(400);
      expect(capped.data.total).toBe(211);
      expect(capped.data.total_matches).toBe(841);
      expect(capped.text.split("\n")[0]).toBe(
        'Files 1–100 of 211 with matches for "hit" in ., sorted by path (400 matching lines in these 100 files; 841 in all):',
      );
      const whole = await page(tool, { pattern: "hit", output_mode: "count", limit: 1000 });
      expect(whole.text.split("\n")[0]).toBe('841 matching lines in 211 files for "hit" in .:');
      const rows = whole.data.files.map((file) => `${file.path}: ${file.count}`);
      const second = await page(tool, { pattern: "hit", output_mode: "count", offset: 101 });
      expect(second.data.files.map((file) => `${file.path}: ${file.count}`)).toEqual(
        rows.slice(100, 200),
      );
    }
  });

  it("says 'at least' with a true lower bound when more files match than count mode counts", async () => {
    // More matching files (520) than count mode's budget for a small page (500).
    const wide = await mkdtemp(join(tmpdir(), "agentool-grep-wide-"));
    await mkdir(join(wide, "wide"));
    await Promise.all(
      Array.from({ length: 520 }, (_, file) =>
        writeFile(
          join(wide, "wide", `w${String(file).padStart(3, "0")}.txt`),
          "broad one\nbroad two\n",
        ),
      ),
    );
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root: wide }) });
    const ripgrep = createGrepSearchTool({
      workspace,
      searcher: createRipgrepSearcher({ root: wide }),
    });
    const js = createGrepSearchTool({ workspace });
    for (const tool of [ripgrep, js]) {
      const input = { pattern: "broad", path: "wide", limit: 10, offset: 21 };
      const { data, text } = await page(tool, input);
      expect(data.total).toBeUndefined();
      expect(data.total_at_least).toBe(501);
      expect(data.next_offset).toBe(31);
      expect(data.truncated).toBe(true);
      expect(text.split("\n")[0]).toBe(
        'Matching lines 21–30 of at least 501 for "broad" in wide, sorted by path:',
      );
      expect(text).toContain(
        '…[truncated: at least 471 more matches — call grep_search again with pattern="broad", path="wide", limit=10, offset=31]',
      );
      expect(text).not.toMatch(/\b1 more/);
      // Count mode stops at the same number of files.
      const counted = await page(tool, { ...input, output_mode: "count", offset: 1 });
      expect(counted.data.total).toBeUndefined();
      expect(counted.data.total_at_least).toBe(501);
    }
    await rm(wide, { recursive: true, force: true });
  }, 30_000);

  it("shortens a page to the output cap and moves next_offset back instead of cutting text", async () => {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root: big }) });
    const tool = createGrepSearchTool({
      workspace,
      searcher: createRipgrepSearcher({ root: big }),
      maxOutputCharacters: 2_000,
    });
    const { data, text } = await page(tool, { pattern: "hit", limit: 500 });
    expect(text.length).toBeLessThanOrEqual(2_000);
    expect(data.match_count).toBeLessThan(500);
    expect(data.next_offset).toBe((data.match_count ?? 0) + 1);
    expect(text).toContain(
      `call grep_search again with pattern="hit", path=".", limit=500, offset=${data.next_offset}]`,
    );
    expect(text).not.toContain("narrow the search");
  });

  it("prints -- between groups only when context lines are shown", async () => {
    for (const tool of Object.values(tools())) {
      const bare = await page(tool, { pattern: "hit", path: "a/f0.txt" });
      expect(bare.text).toBe(
        '4 matching lines in 1 file for "hit" in a/f0.txt:\na/f0.txt\n3: hit a/0 line 3\n6: hit a/0 line 6\n9: hit a/0 line 9\n12: hit a/0 line 12',
      );
      const spaced = await page(tool, {
        pattern: "line (3|12)$",
        path: "a/f0.txt",
        context_lines: 1,
      });
      expect(spaced.text).toContain("4- plain 4\n--\n11- plain 11");
    }
  });
});

describe("grep_search descriptions and aliases", () => {
  const workspace = () =>
    createWorkspace({ fileSystem: createMemoryFileSystem({ "a.md": "hi\n" }) });

  it("names only the tools mounted beside it", () => {
    const alone = createGrepSearchTool({ workspace: workspace() });
    expect(alone.description).not.toMatch(/read_file|glob_search|list_directory/);
    const family = createGrepSearchTool({
      workspace: workspace(),
      mountedTools: ["read_file", "glob_search"],
    });
    expect(family.description).toContain("read_file");
    expect(family.description).toContain("glob_search");
  });

  it("accepts the names other toolsets send for its fields", async () => {
    const tool = createGrepSearchTool({
      workspace: createWorkspace({
        fileSystem: createMemoryFileSystem({ "a.md": "Hi there\nhi again\n", "b.txt": "hi\n" }),
      }),
    });
    const result = await tool.run({
      regex: "HI",
      case_insensitive: true,
      include: "*.md",
      head_limit: 1,
    });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.files).toEqual([
      { path: "a.md", count: 1, lines: [{ line: 1, text: "Hi there", kind: "match" }] },
    ]);
    expect(result.data.next_offset).toBe(2);
    const unknown = await tool.run({ pattern: "hi", max_count: 3 });
    expect(unknown.success ? "ok" : unknown.error.code).toBe("INVALID_INPUT");
  });
});
