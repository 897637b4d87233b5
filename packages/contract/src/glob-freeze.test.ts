import { describe, expect, it } from "vitest";
import { createSecretPathMatcher, globToRegExp, matchesAny } from "./glob.js";

/** Runs synchronous `work` and returns how long it blocked the event loop, in ms. */
function timed(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

describe("globToRegExp on hostile patterns (linear matching)", () => {
  it("a run of ** segments does not backtrack exponentially", () => {
    const glob = globToRegExp(`${"**/".repeat(30)}z`);
    const path = `${"a/".repeat(40)}y`;
    const elapsed = timed(() => {
      expect(glob.test(path)).toBe(false);
      expect(glob.test(`${"a/".repeat(40)}z`)).toBe(true);
    });
    expect(elapsed).toBeLessThan(250);
  }, 10_000);

  it("many * in one segment stay linear on a long name", () => {
    const glob = globToRegExp("*a*a*a*a*a*a*a*b");
    const name = "a".repeat(5_000);
    const elapsed = timed(() => {
      expect(glob.test(name)).toBe(false);
      expect(glob.test(`${name}b`)).toBe(true);
    });
    expect(elapsed).toBeLessThan(250);
  }, 10_000);

  it("matchesAny over a deep path with a hostile pattern is fast", () => {
    const patterns = [globToRegExp("**/*a*a*a*a*a*a*b/**"), globToRegExp(`${"**/".repeat(20)}q`)];
    const path = Array.from({ length: 200 }, () => "a".repeat(30)).join("/");
    const elapsed = timed(() => expect(matchesAny(path, patterns)).toBe(false));
    expect(elapsed).toBeLessThan(250);
  }, 10_000);

  it("keeps the old meanings", () => {
    const cases: Array<[string, string, boolean]> = [
      ["*.pem", "deploy/keys/server.pem", true],
      ["*.pem", "server.pem.txt", false],
      ["src/**", "src/a/b.ts", true],
      ["src/**", "lib/a.ts", false],
      ["**/**/**/z", "z", true],
      ["**/**/**/z", "a/b/c/z", true],
      ["a/**/b", "a/b", true],
      ["a/**/b", "a/x/y/b", true],
      ["a/**/b", "a/xb", false],
      ["*.{ts,tsx}", "x/y.tsx", true],
      ["*.{ts,tsx}", "x/y.js", false],
      ["[!a]bc", "xbc", true],
      ["[!a]bc", "abc", false],
      ["file?.md", "dir/file1.md", true],
      ["file?.md", "file/.md", false],
      ["/top.txt", "top.txt", true],
      ["/top.txt", "a/top.txt", false],
      ["*", "a/b", true],
      ["a*", "b/abc", true],
      ["src/*.ts", "src/a/b.ts", false],
    ];
    for (const [pattern, path, expected] of cases) {
      expect([pattern, path, globToRegExp(pattern).test(path)]).toEqual([pattern, path, expected]);
    }
    expect(matchesAny("home/.ssh/id_rsa", [globToRegExp(".ssh")])).toBe(true);
    expect(matchesAny("home/ssh/id", [globToRegExp(".ssh")])).toBe(false);
    expect(createSecretPathMatcher()("config/.env.production")).toBe(true);
  });
});
