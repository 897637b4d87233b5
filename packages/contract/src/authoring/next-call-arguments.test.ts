import { describe, expect, it } from "vitest";
import { formatNextCall, parseNextCall } from "../paging.js";
import { givenCallArguments, nextCallArguments } from "./next-call-arguments.js";

describe("nextCallArguments", () => {
  it("keeps every given value in order, drops absent ones and those equal to their default", () => {
    const args = nextCallArguments(
      {
        pattern: "TODO",
        path: "src",
        glob: undefined,
        ignore_case: true,
        literal: false,
        output_mode: "content",
        tags: ["ops", "db"],
        limit: 5,
      },
      { literal: false, output_mode: "content", limit: 100, tags: [] },
    );
    expect(args).toEqual({
      pattern: "TODO",
      path: "src",
      ignore_case: true,
      tags: ["ops", "db"],
      limit: 5,
    });
    expect(Object.keys(args)).toEqual(["pattern", "path", "ignore_case", "tags", "limit"]);
  });

  it("compares lists by value and writes a marker the kit reads back whole", () => {
    expect(nextCallArguments({ tags: [] }, { tags: [] })).toEqual({});
    const next = formatNextCall("memory_search", {
      ...nextCallArguments({ query: "db", tags: ["ops"], limit: 5 }, { limit: 10 }),
      offset: 6,
    });
    expect(parseNextCall(`[truncated: 3 more — ${next}]`)?.args).toEqual({
      query: "db",
      tags: ["ops"],
      limit: 5,
      offset: 6,
    });
  });
});

describe("givenCallArguments", () => {
  it("repeats the call as sent besides offset, skipping what a marker cannot carry", () => {
    expect(
      givenCallArguments({
        path: "src",
        staged: false,
        limit: 5,
        offset: 6,
        files: ["a.ts", "b.ts"],
        absent: undefined,
        nested: { deep: 1 },
        mixed: [1, { two: 2 }],
      }),
    ).toEqual({ path: "src", staged: false, limit: 5, files: ["a.ts", "b.ts"] });
  });
});
