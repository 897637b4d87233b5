import { describe, expect, it } from "vitest";
import { defaultArgumentPolicy, sedScriptDanger } from "./argument-policy.js";

describe("defaultArgumentPolicy", () => {
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
