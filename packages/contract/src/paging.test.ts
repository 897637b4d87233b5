import { describe, expect, it } from "vitest";
import {
  formatNextCall,
  formatPageMarker,
  isOffsetPastEnd,
  offsetPastEnd,
  pageItems,
  pagingInputShape,
  parseNextCall,
} from "./paging.js";
import { TRUNCATION_MARKER_PATTERN } from "./truncate.js";

describe("formatPageMarker", () => {
  it("names the exact next call", () => {
    const marker = formatPageMarker({
      tool: "read_file",
      nextOffset: 801,
      omitted: 1204,
      unit: "lines",
    });
    expect(marker).toBe("…[truncated: 1,204 more lines — call read_file again with offset=801]");
    expect(TRUNCATION_MARKER_PATTERN.test(marker)).toBe(true);
  });

  it("repeats the other arguments before offset, quoting strings, and can say at least", () => {
    const marker = formatPageMarker({
      tool: "git_diff",
      nextOffset: 3,
      omitted: 1000,
      unit: "files",
      atLeast: true,
      args: { path: 'src/a "b".ts', staged: true },
    });
    expect(marker).toBe(
      '…[truncated: at least 1,000 more files — call git_diff again with path="src/a \\"b\\".ts", staged=true, offset=3]',
    );
    expect(TRUNCATION_MARKER_PATTERN.test(marker)).toBe(true);
    expect(parseNextCall(marker)).toEqual({
      tool: "git_diff",
      args: { path: 'src/a "b".ts', staged: true, offset: 3 },
    });
  });

  it("parseNextCall finds no call in plain text", () => {
    expect(parseNextCall("nothing here")).toBeUndefined();
    expect(formatNextCall("git_status", {})).toBe("call git_status again");
    expect(parseNextCall("call git_status again")).toEqual({ tool: "git_status", args: {} });
  });
});

describe("pageItems", () => {
  const items = Array.from({ length: 12 }, (_, index) => index + 1);

  it("cuts the first page and points at the next", () => {
    expect(pageItems(items, { limit: 5 })).toEqual({
      items: [1, 2, 3, 4, 5],
      page: { total: 12, next_offset: 6, truncated: true },
    });
  });

  it("serves the last page without next_offset", () => {
    expect(pageItems(items, { offset: 11, limit: 5 })).toEqual({
      items: [11, 12],
      page: { total: 12, truncated: false },
    });
  });

  it("pages through everything exactly once", () => {
    const seen: number[] = [];
    let offset: number | undefined = 1;
    while (offset !== undefined) {
      const { items: page, page: info }: ReturnType<typeof pageItems<number>> = pageItems(items, {
        offset,
        limit: 5,
      });
      seen.push(...page);
      offset = info.next_offset;
    }
    expect(seen).toEqual(items);
  });
});

describe("offset past the end", () => {
  it("accepts offset 1 on an empty list and refuses beyond the last item", () => {
    expect(isOffsetPastEnd(1, 0)).toBe(false);
    expect(isOffsetPastEnd(2, 0)).toBe(true);
    expect(isOffsetPastEnd(12, 12)).toBe(false);
    expect(isOffsetPastEnd(13, 12)).toBe(true);
  });

  it("is INVALID_INPUT naming the total and the valid range", () => {
    const failure = offsetPastEnd({
      tool: "list_directory",
      offset: 900,
      total: 812,
      unit: "entries",
    });
    expect(failure.error.code).toBe("INVALID_INPUT");
    expect(failure.error.message).toContain("812 entries");
    expect(failure.error.hint).toContain("between 1 and 812");
    expect(
      offsetPastEnd({ tool: "read_file", offset: 5, total: 1, unit: "lines" }).error.message,
    ).toBe("offset=5 is past the end: there is 1 line in all.");
  });
});

describe("pagingInputShape", () => {
  it("describes both fields and bounds limit", () => {
    const shape = pagingInputShape({
      unit: "entry",
      units: "entries",
      defaultLimit: 500,
      maxLimit: 5000,
    });
    expect(shape.offset.description).toContain("1-based");
    expect(shape.limit.description).toContain("entries");
    expect(shape.limit.safeParse(5001).success).toBe(false);
    expect(shape.offset.safeParse(0).success).toBe(false);
    expect(shape.offset.safeParse(10 ** 12).success).toBe(true);
  });

  it("takes a largest offset and whole descriptions", () => {
    const shape = pagingInputShape({
      unit: "commit",
      defaultLimit: 30,
      maxLimit: 500,
      maxOffset: 1000,
      offsetDescription: "Where to start.",
      limitDescription: "How many.",
    });
    expect(shape.offset.safeParse(1000).success).toBe(true);
    expect(shape.offset.safeParse(1001).success).toBe(false);
    expect(shape.offset.description).toBe("Where to start.");
    expect(shape.limit.description).toBe("How many.");
  });
});
