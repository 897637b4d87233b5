import { ToolFailureError } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { parseKeys } from "./keys.js";

describe("parseKeys", () => {
  it("reads combinations, sequences and other platforms' names", () => {
    expect(parseKeys("ctrl+s")).toEqual([["ctrl", "s"]]);
    expect(parseKeys("Down Down enter")).toEqual([["Down"], ["Down"], ["Return"]]);
    expect(parseKeys("cmd+shift+T")).toEqual([["super", "shift", "T"]]);
    expect(parseKeys("ctrl+/ ctrl++ f5 pagedown")).toEqual([
      ["ctrl", "slash"],
      ["ctrl", "plus"],
      ["F5"],
      ["Page_Down"],
    ]);
  });

  it("refuses what is not a key name, pointing at type", () => {
    for (const text of ["", "a;b", "$(id)", "ctrl+", "--clearmodifiers", "x".repeat(201), "é"]) {
      let caught: unknown;
      try {
        parseKeys(text);
      } catch (error) {
        caught = error;
      }
      expect(ToolFailureError.isInstance(caught) && caught.code).toBe("INVALID_INPUT");
    }
  });
});
