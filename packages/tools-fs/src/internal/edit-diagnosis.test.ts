import { describe, expect, it } from "vitest";
import { findClosestRegion } from "./edit-diagnosis.js";

describe("findClosestRegion", () => {
  it("returns undefined for a blank needle", () => {
    expect(findClosestRegion("a\nb\n", "\n\n")).toBeUndefined();
  });
});
