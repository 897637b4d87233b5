import { describe, expect, it } from "vitest";
import { SequenceMatcher } from "./sequence-matcher.js";

/** Every start where the matcher reports the pattern. */
function starts<Value>(values: readonly Value[], pattern: readonly Value[]): number[] {
  const matcher = new SequenceMatcher(pattern);
  const found: number[] = [];
  for (const [index, value] of values.entries()) {
    if (matcher.push(value)) found.push(index - matcher.length + 1);
  }
  return found;
}

/** The same by brute force. */
function bruteForce<Value>(values: readonly Value[], pattern: readonly Value[]): number[] {
  const found: number[] = [];
  for (let start = 0; start + pattern.length <= values.length; start += 1) {
    if (pattern.every((value, offset) => values[start + offset] === value)) found.push(start);
  }
  return found;
}

describe("SequenceMatcher", () => {
  it("finds overlapping and repeated occurrences of lines", () => {
    expect(starts(["a", "a", "a", "b", "a", "a"], ["a", "a"])).toEqual([0, 1, 4]);
    expect(starts(["x", "}", "}", "}", "y"], ["}", "}"])).toEqual([1, 2]);
    expect(starts(["a", "b"], ["c"])).toEqual([]);
  });

  it("agrees with a brute-force search on random sequences over a small alphabet", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % 3;
    };
    for (let round = 0; round < 200; round += 1) {
      const values = Array.from({ length: 60 }, next);
      const pattern = Array.from({ length: 1 + (round % 5) }, next);
      expect(starts(values, pattern), `round ${round}`).toEqual(bruteForce(values, pattern));
    }
  });

  it("refuses an empty pattern", () => {
    expect(() => new SequenceMatcher([])).toThrow(RangeError);
  });
});
