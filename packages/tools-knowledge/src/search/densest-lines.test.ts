import { describe, expect, it } from "vitest";
import { tokenize } from "../engine/tokenize.js";
import { densestLines, focusExcerpt } from "./densest-lines.js";

const terms = (query: string) => new Set(tokenize(query, { mode: "query" }));
const filler = (count: number, from = 1) =>
  Array.from({ length: count }, (_, index) => `Line ${from + index} of plain filler prose here.`);

describe("densestLines", () => {
  it("keeps a span that fits whole", () => {
    const lines = filler(5);
    expect(densestLines(lines, { start: 2, end: 4 }, terms("filler"), 10_000, 2)).toEqual({
      start: 2,
      end: 4,
    });
  });

  it("picks the run of whole lines where the query's terms are densest, within the budget", () => {
    const lines = [
      ...filler(40),
      "The staging cluster rotates its certificates weekly.",
      ...filler(3, 42),
    ];
    const shown = densestLines(
      lines,
      { start: 1, end: lines.length },
      terms("rotating certificates"),
      200,
      1,
    );
    const text = lines.slice(shown.start - 1, shown.end).join("\n");
    expect(text).toContain("rotates its certificates");
    expect(text.length).toBeLessThanOrEqual(200);
    expect(shown.start).toBeGreaterThan(30);
  });

  it("prefers more distinct terms over repeats of one, then the run nearest the anchor", () => {
    const lines = [
      ...filler(10),
      "cache cache cache cache",
      ...filler(10, 12),
      "cache eviction policy",
      ...filler(10, 24),
    ];
    const shown = densestLines(
      lines,
      { start: 1, end: lines.length },
      terms("cache eviction"),
      60,
      1,
    );
    expect(lines.slice(shown.start - 1, shown.end).join("\n")).toContain("cache eviction policy");
    // No term anywhere: the run starting at the anchor.
    const none = densestLines(lines, { start: 1, end: lines.length }, terms("zebra"), 60, 5);
    expect(none.start).toBe(5);
  });
});

describe("focusExcerpt", () => {
  const passage = [...filler(30, 101), "Deploys freeze on Fridays after noon.", ...filler(5, 132)];
  const hit = {
    excerpt: passage.join("\n"),
    start_line: 101,
    end_line: 101 + passage.length - 1,
    reference: `docs/ops.md:101-${101 + passage.length - 1}`,
  };

  it("shows the matching lines and names exactly them in the reference", () => {
    const focused = focusExcerpt(hit, terms("deploy freeze fridays"), 300);
    expect(focused.excerpt).toContain("Deploys freeze on Fridays after noon.");
    expect(focused.excerpt.length).toBeLessThanOrEqual(300);
    expect(focused.truncated).toBe(true); // lines of the passage left out
    expect(focused.reference).toBe(`docs/ops.md:${focused.start_line}-${focused.end_line}`);
    expect(focused.excerpt).toBe(
      passage.slice(focused.start_line - 101, focused.end_line - 101 + 1).join("\n"),
    );
  });

  it("leaves a short excerpt as it is, and cuts one that is not the span line for line", () => {
    expect(focusExcerpt(hit, terms("deploy"), 100_000).excerpt).toBe(hit.excerpt);
    const piece = { ...hit, end_line: 101, reference: "docs/ops.md:101-101" };
    const cut = focusExcerpt(piece, terms("deploy"), 300);
    expect(cut.truncated).toBe(true);
    expect(cut.reference).toBe("docs/ops.md:101-101");
    expect(cut.excerpt.length).toBeLessThanOrEqual(300);
  });
});
