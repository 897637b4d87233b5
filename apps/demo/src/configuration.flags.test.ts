import { describe, expect, it } from "vitest";
import { readFlags } from "./configuration.js";

describe("readFlags", () => {
  it("reads --interactive and refuses unknown arguments", () => {
    expect(readFlags([])).toEqual({ interactive: false });
    expect(readFlags(["--interactive"])).toEqual({ interactive: true });
    expect(readFlags(["--", "-i"])).toEqual({ interactive: true });
    expect(() => readFlags(["--interactiv"])).toThrow(/unknown argument "--interactiv"/);
  });
});
