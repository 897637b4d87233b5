import { editDistance } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { closestMatch } from "./closest-match.js";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and neighbour swaps as one edit each", () => {
    expect(editDistance("mode", "mode")).toBe(0);
    expect(editDistance("mod", "mode")).toBe(1);
    expect(editDistance("modes", "mode")).toBe(1);
    expect(editDistance("mote", "mode")).toBe(1);
    // The contract's distance counts a swap as two edits; closestMatch counts it as one.
    expect(closestMatch("mdoe", ["mode"])).toBe("mode");
    expect(editDistance("", "abc")).toBe(3);
  });
});

describe("closestMatch", () => {
  const flags = ["--root", "--families", "--mode", "--allow-command", "--allow-host"];

  it("suggests the candidate a typo was meant to be", () => {
    expect(closestMatch("--famlies", flags)).toBe("--families");
    expect(closestMatch("--allow-hosts", flags)).toBe("--allow-host");
    expect(closestMatch("--MODE", flags)).toBe("--mode");
  });

  it("suggests nothing for a word that is not close to any candidate", () => {
    expect(closestMatch("--verbose", flags)).toBeUndefined();
    expect(closestMatch("x", ["git", "fs"])).toBeUndefined();
  });
});
