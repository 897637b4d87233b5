import { describe, expect, it } from "vitest";
import { createSecretPathMatcher, globToRegExp, matchesAny } from "./glob.js";

describe("globToRegExp", () => {
  const matches = (pattern: string, path: string) => globToRegExp(pattern).test(path);

  it("matches a name without a slash at any depth", () => {
    expect(matches(".env", ".env")).toBe(true);
    expect(matches(".env", "config/.env")).toBe(true);
    expect(matches(".env", "config/.envrc")).toBe(false);
    expect(matches("*.pem", "deploy/keys/server.pem")).toBe(true);
  });

  it("anchors patterns with a slash at the root", () => {
    expect(matches("src/*.ts", "src/a.ts")).toBe(true);
    expect(matches("src/*.ts", "lib/src/a.ts")).toBe(false);
    expect(matches("src/*.ts", "src/deep/a.ts")).toBe(false);
    expect(matches("src/**/*.ts", "src/deep/er/a.ts")).toBe(true);
    expect(matches("src/**/*.ts", "src/a.ts")).toBe(true);
    expect(matches("**/*.md", "a/b/c.md")).toBe(true);
  });

  it("supports ?, classes and alternatives, and escapes regex characters", () => {
    expect(matches("file?.txt", "file1.txt")).toBe(true);
    expect(matches("file[0-9].txt", "file7.txt")).toBe(true);
    expect(matches("file[!0-9].txt", "file7.txt")).toBe(false);
    expect(matches("*.{ts,tsx}", "a/b.tsx")).toBe(true);
    expect(matches("*.{ts,tsx}", "a/b.js")).toBe(false);
    expect(matches("a+b.txt", "a+b.txt")).toBe(true);
    expect(matches("a+b.txt", "aab.txt")).toBe(false);
  });
});

describe("matchesAny", () => {
  it("matches a path inside a matching directory", () => {
    const patterns = [globToRegExp(".ssh"), globToRegExp(".git/config")];
    expect(matchesAny("home/.ssh/id_rsa", patterns)).toBe(true);
    expect(matchesAny(".git/config", patterns)).toBe(true);
    expect(matchesAny(".git/HEAD", patterns)).toBe(false);
    expect(matchesAny("", patterns)).toBe(false);
  });
});

describe("createSecretPathMatcher", () => {
  it("knows the default secrets and their template exceptions", () => {
    const isSecret = createSecretPathMatcher();
    for (const path of [
      ".env",
      "config/.env.production",
      "deploy/server.pem",
      "home/.ssh/id_ed25519",
      ".git/config",
      "app/secrets.yaml",
    ]) {
      expect(isSecret(path), path).toBe(true);
    }
    for (const path of [".env.example", "src/env.ts", ".git/HEAD", "README.md", ""]) {
      expect(isSecret(path), path).toBe(false);
    }
  });

  it("takes the host's own lists", () => {
    const isSecret = createSecretPathMatcher({
      secretPaths: ["private/**"],
      secretExceptions: ["private/public.md"],
    });
    expect(isSecret("private/a.md")).toBe(true);
    expect(isSecret("private/public.md")).toBe(false);
    expect(isSecret(".env")).toBe(false);
  });
});
