import { describe, expect, it } from "vitest";
import { defaultArgumentPolicy, sedScriptDanger } from "./argument-policy.js";

describe("defaultArgumentPolicy", () => {
  it("refuses paths inside .git for every program, and git's options that write its control files", () => {
    const git = "/usr/bin/git";
    for (const argv of [
      ["cp", "payload", ".git/hooks/pre-commit"],
      ["mv", "tpl", "sub/.GIT"],
      ["tar", "-xf", "a.tar", "--directory=.git"],
      ["git", "init", "--template=tpl"],
      ["git", "init", "--templ", "tpl"],
      ["git", "clone", "--template", "tpl", "a", "b"],
      ["git", "init", "--separate-git-dir", "elsewhere"],
      ["git", "checkout-index", "-a", "--prefix=hooks/"],
    ]) {
      expect(
        defaultArgumentPolicy(argv, argv[0] === "git" ? git : `/bin/${argv[0]}`),
        argv.join(" "),
      ).toBeDefined();
    }
    for (const argv of [
      ["git", "add", ".gitignore", ".github/workflows/ci.yml"],
      ["git", "commit", "-m", "the .git directory"],
      ["git", "init"],
      ["cp", "a.git", "b"],
    ]) {
      expect(
        defaultArgumentPolicy(argv, argv[0] === "git" ? git : `/bin/${argv[0]}`),
        argv.join(" "),
      ).toBeUndefined();
    }
  });

  it("reads sed scripts: e, w, r and s///e, s///w refused; plain scripts let through", () => {
    for (const script of [
      "1e id",
      "s/a/b/e",
      "s|a|b|gw out",
      "$r /etc/passwd",
      "/x/w f",
      "1{e id\n}",
      "2,5W f",
    ]) {
      expect(sedScriptDanger(script), script).toBeDefined();
    }
    for (const script of [
      "s/a/b/g",
      "s/e/w/",
      "1,3d",
      "/start/,/end/p",
      "y/abc/xyz/",
      "$!N;P;D",
      "s/\\/e/x/",
    ]) {
      expect(sedScriptDanger(script), script).toBeUndefined();
    }
  });

  it("tells git's global -c from a subcommand's -c, and tar's abbreviations from its safe options", () => {
    expect(defaultArgumentPolicy(["git", "-c", "a=b", "log"], "/usr/bin/git")?.refused).toBe("-c");
    expect(defaultArgumentPolicy(["git", "commit", "-c", "HEAD"], "/usr/bin/git")).toBeUndefined();
    expect(defaultArgumentPolicy(["git", "log", "-p"], "/usr/bin/git")).toBeUndefined();
    expect(
      defaultArgumentPolicy(["tar", "--to-com=x", "-xf", "a.tar"], "/usr/bin/tar")?.refused,
    ).toBe("--to-com");
    expect(
      defaultArgumentPolicy(["tar", "--checkpoint=10", "-cf", "a.tar", "."], "/usr/bin/tar"),
    ).toBeUndefined();
    expect(defaultArgumentPolicy(["tar", "xIf", "x", "a.tar"], "/usr/bin/tar")?.refused).toBe("-I");
    expect(defaultArgumentPolicy(["ls", "--pre"], "/usr/bin/ls")).toBeUndefined();
  });
});
