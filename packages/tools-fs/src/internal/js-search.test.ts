import { describe, expect, it } from "vitest";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { searchRequest } from "../test-support/search-request.js";
import { compileSearchPattern, createJsLister, createJsSearcher } from "./js-search.js";
import { comparePaths, type SearchRequest } from "./search-types.js";

const request = (overrides: Partial<SearchRequest>): SearchRequest =>
  searchRequest({ isSecret: (path) => path.endsWith(".env"), ...overrides });

const fileSystem = createMemoryFileSystem(
  {
    "a.txt": "one hit\ntwo\nthree hit\n",
    "big.txt": `${"hit ".repeat(100)}\n`,
    "bin.dat": new Uint8Array([104, 105, 116, 0, 1, 2]),
    "sub/c.txt": "hit again\n",
    ".env": "hit secret\n",
    ".hidden/d.txt": "hit hidden\n",
    ".gitignore": "ignored/\n",
    "ignored/e.txt": "hit ignored\n",
  },
  { symlinks: { "sub/link.txt": "../a.txt" } },
);
const signal = new AbortController().signal;

describe("comparePaths", () => {
  it("orders segment by segment, by code point (the order of rg --sort path)", () => {
    const paths = ["ab", "a.b", "a/b", "Z", "a b/z", "a-c/x/y", "é", "a/b/c", "a"];
    expect([...paths].sort(comparePaths)).toEqual([
      "Z",
      "a",
      "a/b",
      "a/b/c",
      "a b/z",
      "a-c/x/y",
      "a.b",
      "ab",
      "é",
    ]);
  });
});

describe("compileSearchPattern", () => {
  it("honours (?i), literal text and refuses invalid patterns", () => {
    expect(compileSearchPattern("(?i)HELLO", false, false).test("hello")).toBe(true);
    expect(compileSearchPattern("a.b", true, false).test("axb")).toBe(false);
    expect(() => compileSearchPattern("(", false, false)).toThrow(/not a valid regular expression/);
  });
});

describe("createJsSearcher", () => {
  it("skips binary, secret, hidden, ignored and symlinked files; walks in path order", async () => {
    const outcome = await createJsSearcher({ fileSystem }).search(
      request({ pattern: "hit", outputMode: "count" }),
      signal,
    );
    expect(outcome.files.map((file) => [file.path, file.count])).toEqual([
      ["a.txt", 2],
      ["big.txt", 1],
      ["sub/c.txt", 1],
    ]);
    const everything = await createJsSearcher({ fileSystem }).search(
      request({ pattern: "hit", outputMode: "files_with_matches", includeHiddenAndIgnored: true }),
      signal,
    );
    expect(everything.files.map((file) => file.path)).toEqual([
      ".hidden/d.txt",
      "a.txt",
      "big.txt",
      "ignored/e.txt",
      "sub/c.txt",
    ]);
  });

  it("cuts pages out of one path order and counts up to the budget", async () => {
    const many = createMemoryFileSystem({
      "a-c.txt": "hit\n",
      "a/b.txt": "hit\nhit\n",
      "a.b.txt": "hit\n",
      "b.txt": "hit\n".repeat(600),
    });
    const searcher = createJsSearcher({ fileSystem: many });
    const page = await searcher.search(request({ pattern: "hit", limit: 2 }), signal);
    expect(page.files.map((file) => [file.path, file.count])).toEqual([["a/b.txt", 2]]);
    // 604 matching lines in 4 files: the first page counts lines up to the budget, as the
    // ripgrep engine's first page does ("at least 501"); a later page counts files, as count
    // mode does, so its total is exact.
    expect(page.total).toBeUndefined();
    expect(page.totalAtLeast).toBe(501);
    const second = await searcher.search(request({ pattern: "hit", limit: 2, offset: 3 }), signal);
    expect(second.files.map((file) => [file.path, file.count])).toEqual([
      ["a-c.txt", 1],
      ["a.b.txt", 1],
    ]);
    expect(second.total).toBe(604);
    expect(second.totalFiles).toBe(4);
    expect(second.totalAtLeast).toBeUndefined();
    const rows = await searcher.search(
      request({ pattern: "hit", outputMode: "count", limit: 10 }),
      signal,
    );
    expect(rows.total).toBe(4);
    expect(rows.totalMatches).toBe(604);
  });

  it("explains an empty result by looking only into what the walk skipped", async () => {
    const outcome = await createJsSearcher({ fileSystem }).search(
      request({ pattern: "hit hidden", explainEmpty: true }),
      signal,
    );
    expect(outcome.files).toEqual([]);
    expect(outcome.total).toBe(0);
    expect(outcome.hiddenMatch).toBe(".hidden/d.txt");
    const secret = await createJsSearcher({ fileSystem }).search(
      request({ pattern: "hit secret", explainEmpty: true }),
      signal,
    );
    expect(secret.hiddenMatch).toBeUndefined();
  });

  it("skips files above the size cap and stops on abort", async () => {
    const small = await createJsSearcher({ fileSystem, maxFileBytes: 100 }).search(
      request({ pattern: "hit" }),
      signal,
    );
    expect(small.files.map((file) => file.path)).not.toContain("big.txt");
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(
      createJsSearcher({ fileSystem }).search(request({ pattern: "hit" }), controller.signal),
    ).rejects.toThrow("stopped");
  });

  it("applies include and exclude globs over workspace paths", async () => {
    const include = await createJsSearcher({ fileSystem }).search(
      request({ pattern: "hit", glob: "sub/*.txt" }),
      signal,
    );
    expect(include.files.map((file) => file.path)).toEqual(["sub/c.txt"]);
    const exclude = await createJsSearcher({ fileSystem }).search(
      request({ pattern: "hit", glob: "!sub" }),
      signal,
    );
    expect(exclude.files.map((file) => file.path)).toEqual(["a.txt", "big.txt"]);
  });
});

describe("createJsLister", () => {
  it("lists visible files matching the glob", async () => {
    const outcome = await createJsLister({ fileSystem }).list(
      { ...request({ glob: "**/*.txt" }), limit: 2 },
      signal,
    );
    expect(outcome.files).toHaveLength(2);
    expect(outcome.total).toBe(3);
    const next = await createJsLister({ fileSystem }).list(
      { ...request({ glob: "**/*.txt" }), offset: 3, limit: 2 },
      signal,
    );
    expect(next.files).toHaveLength(1);
    expect(next.total).toBe(3);
  });
});
