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

  it("refuses control characters and bidi controls, naming the code point, never echoing it raw", () => {
    const problem = normalizeRelativePath("src/\u202Ets.exe").problem;
    expect(problem).toBe(
      'path "src/\\u202Ets.exe" contains U+202E (RIGHT-TO-LEFT OVERRIDE), an invisible text-direction control: it hides or reverses what the name shows.',
    );
    expect(problem).not.toContain("\u202E");
    for (const [input, code] of [
      ["a\tb", "U+0009 (TAB)"],
      ["a\u001bb", "U+001B (ESCAPE)"],
      ["a\u007fb", "U+007F (DELETE)"],
      ["a\u0085b", "U+0085"],
      ["a\u009bb", "U+009B"],
      ["a\u061cb", "U+061C (ARABIC LETTER MARK)"],
      ["a\u200eb", "U+200E (LEFT-TO-RIGHT MARK)"],
      ["a\u200fb", "U+200F (RIGHT-TO-LEFT MARK)"],
      ["a\u202ab", "U+202A"],
      ["a\u2066b", "U+2066 (LEFT-TO-RIGHT ISOLATE)"],
      ["a\u2069b", "U+2069 (POP DIRECTIONAL ISOLATE)"],
    ] as const) {
      const refused = normalizeRelativePath(input).problem ?? "";
      expect(refused, input).toContain(`contains ${code}`);
      expect(refused).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\t]/);
    }
    // Letters of right-to-left scripts, zero-width joiners and other Unicode stay accepted.
    for (const input of ["docs/\u05e9\u05dc\u05d5\u05dd.md", "a\u200db", "caf\u00e9/\u4e2d.txt"]) {
      expect(normalizeRelativePath(input)).toEqual({ path: input });
    }
  });

  it("names the argument and the root in the problem", () => {
    expect(
      normalizeRelativePath("../x", { argument: "destination", rootName: "repository" }).problem,
    ).toBe('destination "../x" climbs above the repository root.');
  });
});
