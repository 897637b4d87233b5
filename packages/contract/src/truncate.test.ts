import { describe, expect, it } from "vitest";
import {
  formatTruncationMarker,
  singularUnit,
  TRUNCATION_MARKER_PATTERN,
  truncateList,
  truncateText,
} from "./truncate.js";

const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");

describe("formatTruncationMarker", () => {
  it("writes the one standard marker with grouped numbers", () => {
    const marker = formatTruncationMarker({
      omitted: 1204,
      unit: "lines",
      next: "call again with offset=201",
    });
    expect(marker).toBe("…[truncated: 1,204 more lines — call again with offset=201]");
    expect(TRUNCATION_MARKER_PATTERN.test(marker)).toBe(true);
  });

  it("writes the singular for exactly one", () => {
    expect(formatTruncationMarker({ omitted: 1, unit: "entries", atLeast: true, next: "x" })).toBe(
      "…[truncated: at least 1 more entry — x]",
    );
    expect(singularUnit("matches")).toBe("match");
    expect(singularUnit("patch lines")).toBe("patch line");
    expect(singularUnit("commits")).toBe("commit");
    expect(singularUnit("changes")).toBe("change");
  });

  it("says to narrow the request when no next step is given", () => {
    expect(formatTruncationMarker({ omitted: 3, unit: "entries" })).toContain("narrow the request");
  });
});

describe("truncateText", () => {
  it("leaves short text alone", () => {
    expect(truncateText("a\nb", { maxLines: 5, maxBytes: 100, maxCharacters: 100 })).toEqual({
      text: "a\nb",
      truncated: false,
    });
  });

  it("cuts by lines and tells the next offset", () => {
    const result = truncateText(lines(10), {
      maxLines: 3,
      next: (cut) => `call again with offset=${cut.shownLines + 1}`,
    });
    expect(result.truncated).toBe(true);
    expect(result.cut).toMatchObject({
      shownLines: 3,
      totalLines: 10,
      omittedLines: 7,
      limit: "lines",
    });
    expect(result.text).toBe(
      "line 1\nline 2\nline 3\n…[truncated: 7 more lines — call again with offset=4]",
    );
  });

  it("does not count a trailing newline as an extra line", () => {
    expect(truncateText("a\nb\n", { maxLines: 2 }).truncated).toBe(false);
  });

  it("cuts by characters without splitting a surrogate pair", () => {
    const result = truncateText("ab😀cd", { maxCharacters: 3, next: "ask for less" });
    expect(result.text.startsWith("ab\n")).toBe(true);
    expect(result.text).toContain("…[truncated: 4 more characters — ask for less]");
  });

  it("cuts by UTF-8 bytes without splitting a character", () => {
    const result = truncateText("éééé", { maxBytes: 5 });
    expect(result.text.split("\n")[0]).toBe("éé");
    expect(result.cut?.limit).toBe("bytes");
    expect(result.cut?.omittedCharacters).toBe(2);
  });

  it("applies the tightest limit", () => {
    const result = truncateText(lines(100), { maxLines: 50, maxCharacters: 20 });
    expect(result.cut?.limit).toBe("characters");
    expect(result.text.split("\n…")[0]?.length).toBeLessThanOrEqual(20);
  });

  it("refuses nonsense limits", () => {
    expect(() => truncateText("x", { maxLines: -1 })).toThrow(/maxLines/);
    expect(() => truncateText("x", { maxBytes: 1.5 })).toThrow(/maxBytes/);
  });
});

describe("truncateList", () => {
  it("keeps the first items and writes a marker for the rest", () => {
    const result = truncateList([1, 2, 3, 4, 5], 2, { unit: "matches", next: "narrow the glob" });
    expect(result.items).toEqual([1, 2]);
    expect(result.omitted).toBe(3);
    expect(result.marker).toBe("…[truncated: 3 more matches — narrow the glob]");
  });

  it("has no marker when nothing is dropped", () => {
    expect(truncateList([1], 5).marker).toBeUndefined();
  });
});
