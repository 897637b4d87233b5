import { describe, expect, it } from "vitest";
import { normalizeRelativePath } from "./relative-path.js";

describe("normalizeRelativePath", () => {
  const roots = ["/repo", "/real/repo/"];

  it("normalises ./, //, \\ and inner .. that stay inside, and absolute paths under a root", () => {
    expect(normalizeRelativePath("./src//a.ts", { roots })).toEqual({ path: "src/a.ts" });
    expect(normalizeRelativePath("src\\lib\\..\\a.ts", { roots })).toEqual({ path: "src/a.ts" });
    expect(normalizeRelativePath("", { roots })).toEqual({ path: "" });
    expect(normalizeRelativePath("/repo/src/a.ts", { roots })).toEqual({ path: "src/a.ts" });
    expect(normalizeRelativePath("/real/repo", { roots })).toEqual({ path: "" });
  });

  it("refuses escapes, NUL bytes, line breaks, home, drive and UNC paths, and sibling prefixes", () => {
    for (const attack of [
      "../etc/passwd",
      "src/../../x",
      "..\\..\\windows",
      "/etc/passwd",
      "/repo-evil/a.txt",
      "/repository/a.txt",
      "a\0b",
      "a\nb",
      "~/.ssh/id_rsa",
      "~",
      "C:/Windows/system32",
      "C:\\Windows",
      "//server/share",
    ]) {
      expect(normalizeRelativePath(attack, { roots }).problem, attack).toBeTypeOf("string");
    }
  });

  it("names the argument and the root in the problem", () => {
    expect(
      normalizeRelativePath("../x", { argument: "destination", rootName: "repository" }).problem,
    ).toBe('destination "../x" climbs above the repository root.');
  });
});
