import { describe, expect, it } from "vitest";
import { createMemoryFileSystem } from "../memory-file-system.js";
import {
  createIgnoreMatcher,
  loadIgnoreRules,
  matchIgnoreRules,
  parseIgnoreFile,
} from "./gitignore.js";

function ignored(text: string, path: string, isDirectory = false): boolean {
  return matchIgnoreRules(parseIgnoreFile(text, ""), path, isDirectory) === true;
}

describe("parseIgnoreFile / matchIgnoreRules", () => {
  it("matches a name at any depth when the pattern has no slash", () => {
    expect(ignored("*.log", "a.log")).toBe(true);
    expect(ignored("*.log", "deep/down/a.log")).toBe(true);
    expect(ignored("*.log", "a.log.txt")).toBe(false);
  });

  it("skips comments and blank lines, honours escapes and trailing spaces", () => {
    expect(parseIgnoreFile("# comment\n\n   \n", "")).toEqual([]);
    expect(ignored("\\#notes", "#notes")).toBe(true);
    expect(ignored("\\!bang", "!bang")).toBe(true);
    expect(ignored("a.txt   ", "a.txt")).toBe(true);
  });

  it("anchors patterns with a leading or middle slash", () => {
    expect(ignored("/build", "build", true)).toBe(true);
    expect(ignored("/build", "src/build", true)).toBe(false);
    expect(ignored("docs/*.md", "docs/a.md")).toBe(true);
    expect(ignored("docs/*.md", "x/docs/a.md")).toBe(false);
    expect(ignored("docs/*.md", "docs/sub/a.md")).toBe(false);
  });

  it("matches directory-only patterns only against directories", () => {
    expect(ignored("cache/", "cache", true)).toBe(true);
    expect(ignored("cache/", "cache", false)).toBe(false);
    expect(ignored("cache/", "a/cache", true)).toBe(true);
  });

  it("supports ** at the start, middle and end", () => {
    expect(ignored("**/tmp", "a/b/tmp", true)).toBe(true);
    expect(ignored("a/**/z.txt", "a/z.txt")).toBe(true);
    expect(ignored("a/**/z.txt", "a/b/c/z.txt")).toBe(true);
    expect(ignored("out/**", "out/x/y.js")).toBe(true);
    expect(ignored("out/**", "out", true)).toBe(false);
  });

  it("lets the last matching rule win, including negations", () => {
    expect(ignored("*.log\n!keep.log", "keep.log")).toBe(false);
    expect(ignored("*.log\n!keep.log", "other.log")).toBe(true);
    expect(ignored("!keep.log\n*.log", "keep.log")).toBe(true);
    expect(matchIgnoreRules(parseIgnoreFile("*.log", ""), "a.txt", false)).toBeUndefined();
  });

  it("supports character classes and ?", () => {
    expect(ignored("file[0-9].txt", "file7.txt")).toBe(true);
    expect(ignored("file[!0-9].txt", "file7.txt")).toBe(false);
    expect(ignored("?.c", "a.c")).toBe(true);
    expect(ignored("?.c", "ab.c")).toBe(false);
  });
});

describe("createIgnoreMatcher", () => {
  const fileSystem = createMemoryFileSystem({
    ".gitignore": "node_modules/\n*.log\n/dist\n",
    "src/.gitignore": "!important.log\ngenerated/\n",
    "src/important.log": "x",
    "src/debug.log": "x",
    "src/generated/a.ts": "x",
    "src/app.ts": "x",
    "node_modules/pkg/index.js": "x",
    "dist/bundle.js": "x",
    "lib/dist/keep.js": "x",
    "pkg/.ignore": "*.tmp\n",
    "pkg/a.tmp": "x",
  });

  it("reads the ignore files of one directory", async () => {
    expect((await loadIgnoreRules(fileSystem, "")).map((rule) => rule.source)).toEqual([
      "node_modules/",
      "*.log",
      "/dist",
    ]);
    expect(await loadIgnoreRules(fileSystem, "missing")).toEqual([]);
  });

  it("applies nested files, anchored patterns, negations and ignored parents", async () => {
    const matcher = createIgnoreMatcher(fileSystem);
    expect(await matcher.isIgnored("src/app.ts", false)).toBe(false);
    expect(await matcher.isIgnored("src/debug.log", false)).toBe(true);
    expect(await matcher.isIgnored("src/important.log", false)).toBe(false);
    expect(await matcher.isIgnored("src/generated", true)).toBe(true);
    expect(await matcher.isIgnored("src/generated/a.ts", false)).toBe(true);
    expect(await matcher.isIgnored("node_modules/pkg/index.js", false)).toBe(true);
    expect(await matcher.isIgnored("dist/bundle.js", false)).toBe(true);
    expect(await matcher.isIgnored("lib/dist/keep.js", false)).toBe(false);
    expect(await matcher.isIgnored("pkg/a.tmp", false)).toBe(true);
    expect(await matcher.isIgnored("", true)).toBe(false);
  });
});
