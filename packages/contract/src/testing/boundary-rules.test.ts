import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import {
  formatPageMarker,
  isOffsetPastEnd,
  offsetPastEnd,
  pageItems,
  pagingInputShape,
} from "../paging.js";
import { ok } from "../result.js";
import { formatTruncationMarker } from "../truncate.js";
import { findAbsentToolNames, findForeignMarkers, findNonSnakeCaseKeys } from "./boundary-rules.js";
import { assertConformance, checkConformance } from "./check-conformance.js";

const LINES = Array.from({ length: 25 }, (_, index) => `line ${index + 1}`);

interface PagedData {
  lines: string[];
  /** The page size asked for (the marker repeats it, so following it keeps the page size). */
  limit?: number;
  total: number;
  next_offset?: number;
  truncated: boolean;
}

/** A well-behaved paged tool: the model of what every family does. */
function pagedTool(
  overrides: {
    name?: string;
    description?: string;
    execute?: (offset: number, limit: number) => PagedData | Record<string, unknown>;
    render?: (data: PagedData) => string;
  } = {},
) {
  const name = overrides.name ?? "list_lines";
  return defineTool({
    name,
    description:
      overrides.description ??
      "Lists the lines of the probe text, a page at a time. Use offset to page through.",
    input: z.object({
      ...pagingInputShape({ unit: "line", defaultLimit: 10, maxLimit: 100 }),
    }),
    annotations: { readOnly: true },
    execute: ({ offset = 1, limit = 10 }) => {
      if (overrides.execute) return ok(overrides.execute(offset, limit) as PagedData);
      if (isOffsetPastEnd(offset, LINES.length))
        return offsetPastEnd({ tool: name, offset, total: LINES.length, unit: "lines" });
      const { items, page } = pageItems(LINES, { offset, limit });
      return ok<PagedData>({ lines: items, limit, ...page });
    },
    render:
      overrides.render ??
      ((data) =>
        `${data.lines.join("\n")}${
          data.next_offset === undefined
            ? ""
            : `\n${formatPageMarker({ tool: name, nextOffset: data.next_offset, omitted: data.total - data.next_offset + 1, unit: "lines", args: data.limit === undefined ? {} : { limit: data.limit } })}`
        }`),
  });
}

function rules(report: Awaited<ReturnType<typeof checkConformance>>): string[] {
  return report.violations.map((violation) => violation.rule);
}

describe("boundary rules in the conformance kit", () => {
  it("passes a paged tool whose marker reaches the next page", async () => {
    await assertConformance([pagedTool()], {
      samples: { list_lines: {} },
      cutSamples: { list_lines: { limit: 5 } },
    });
  });

  it("fails on a camelCase data key, nested ones included", async () => {
    const camel = pagedTool({
      execute: () => ({ lines: [], total: 0, truncated: false, meta: { nextOffset: 3 } }),
      render: () => "nothing",
    });
    const report = await checkConformance([camel], { samples: { list_lines: {} } });
    expect(report.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          rule: "data-snake-case",
          message: expect.stringContaining("meta.nextOffset"),
        }),
      ]),
    );
  });

  it("fails on a truncation note that is not the contract's marker", async () => {
    const adHoc = pagedTool({
      render: (data) => `${data.lines.join("\n")}\n[truncated, 20 more lines]`,
    });
    const report = await checkConformance([adHoc], { samples: { list_lines: { limit: 5 } } });
    expect(rules(report)).toContain("marker");
  });

  it("fails on a cut output without next_offset", async () => {
    const noNext = pagedTool({
      execute: (offset, limit) => ({
        lines: LINES.slice(offset - 1, offset - 1 + limit),
        total: LINES.length,
        truncated: true,
      }),
      render: (data) => data.lines.join("\n"),
    });
    const report = await checkConformance([noNext], { cutSamples: { list_lines: { limit: 5 } } });
    expect(report.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          rule: "paging",
          message: expect.stringContaining("next_offset"),
        }),
      ]),
    );
  });

  it("fails when the marker's next call is a dead end (it makes the call)", async () => {
    const deadEnd = pagedTool({
      execute: (offset) => {
        if (offset > 1) throw new Error("cannot page");
        return { lines: LINES.slice(0, 5), total: 25, next_offset: 6, truncated: true };
      },
    });
    const report = await checkConformance([deadEnd], { cutSamples: { list_lines: {} } });
    expect(report.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          rule: "marker",
          message: expect.stringContaining("fails when followed literally"),
        }),
      ]),
    );
  });

  it("fails when the marker names another offset than next_offset, or no marker at all", async () => {
    const wrongOffset = pagedTool({
      render: (data) =>
        `${data.lines.join("\n")}\n${formatPageMarker({ tool: "list_lines", nextOffset: 2, omitted: 1, unit: "lines" })}`,
    });
    const silent = pagedTool({ name: "silent_lines", render: (data) => data.lines.join("\n") });
    const report = await checkConformance([wrongOffset, silent], {
      cutSamples: { list_lines: { limit: 5 }, silent_lines: { limit: 5 } },
    });
    const markerTools = report.violations
      .filter((violation) => violation.rule === "marker")
      .map((violation) => violation.tool);
    expect(markerTools).toEqual(expect.arrayContaining(["list_lines", "silent_lines"]));
  });

  it("fails when a cut sample is not cut, and when a tool cuts without offset", async () => {
    const notCut = pagedTool();
    const unpageable = defineTool({
      name: "tail_log",
      description: "Shows the log's last lines. Use it to see recent events.",
      input: z.object({}),
      annotations: { readOnly: true },
      execute: () => ok({ text: "…", truncated: true }),
      render: () => formatTruncationMarker({ omitted: 3, unit: "lines", next: "narrow the log" }),
    });
    const report = await checkConformance([notCut, unpageable], {
      cutSamples: { list_lines: { limit: 100 } },
      samples: { tail_log: {} },
    });
    expect(
      report.violations.filter((violation) => violation.rule === "paging").map((v) => v.tool),
    ).toEqual(expect.arrayContaining(["list_lines", "tail_log"]));
    const allowed = await checkConformance([unpageable], {
      samples: { tail_log: {} },
      unpaged: ["tail_log"],
    });
    expect(rules(allowed)).not.toContain("paging");
  });

  it("fails on a description that names a tool not mounted beside it", async () => {
    const chatty = pagedTool({
      description: "Lists lines. To change one, use edit_file; to find one, use grep_search.",
    });
    const report = await checkConformance([chatty]);
    const messages = report.violations
      .filter((violation) => violation.rule === "description-names-absent-tool")
      .map((violation) => violation.message);
    expect(messages).toHaveLength(2);
    expect(messages.join(" ")).toContain("edit_file");
    const mounted = await checkConformance([chatty], { alsoMounted: ["edit_file", "grep_search"] });
    expect(rules(mounted)).not.toContain("description-names-absent-tool");
  });

  it("fails on a read-only tool whose identical calls differ", async () => {
    let calls = 0;
    const random = pagedTool({
      execute: () => {
        calls += 1;
        return { lines: [String(calls)], total: 1, truncated: false };
      },
    });
    const report = await checkConformance([random], { samples: { list_lines: {} } });
    expect(rules(report)).toContain("deterministic");
    const excused = await checkConformance([random], {
      samples: { list_lines: {} },
      nondeterministic: ["list_lines"],
    });
    expect(rules(excused)).not.toContain("deterministic");
  });
});

describe("declared output schemas in the conformance kit", () => {
  const countTool = (data: Record<string, unknown>) =>
    defineTool({
      name: "count_things",
      description: "Counts the things in the probe set and returns the count as data.",
      input: z.object({ kind: z.string().optional().describe("Which kind of thing to count.") }),
      output: z.object({ count: z.number().int() }),
      annotations: { readOnly: true },
      execute: () => ok(data as { count: number }),
    });

  it("passes data that matches the declared schema", async () => {
    await assertConformance([countTool({ count: 3 })], { samples: { count_things: {} } });
  });

  it("fails data of the wrong type and data with keys the schema does not list", async () => {
    const wrongType = await checkConformance([countTool({ count: "three" })], {
      samples: { count_things: {} },
    });
    expect(rules(wrongType)).toContain("output-schema");
    const extraKey = await checkConformance([countTool({ count: 3, extra_key: true })], {
      samples: { count_things: {} },
    });
    expect(extraKey.violations.find((v) => v.rule === "output-schema")?.message).toMatch(
      /parsing dropped them/,
    );
  });

  it("refuses an output schema that is not an object", () => {
    expect(() =>
      defineTool({
        name: "count_things",
        description: "Counts the things in the probe set and returns the count as data.",
        input: z.object({}),
        output: z.number() as never,
        execute: () => ok(1),
      }),
    ).toThrow(/output must be a zod object schema/);
  });
});

describe("boundary rule helpers", () => {
  it("findNonSnakeCaseKeys walks nested objects and arrays", () => {
    expect(
      findNonSnakeCaseKeys({ ok_key: 1, list: [{ fineKey: 1 }, { deep: { Bad: 2 } }], total_2: 3 }),
    ).toEqual(["list[0].fineKey", "list[1].deep.Bad"]);
  });

  it("findForeignMarkers accepts the contract marker and flags others", () => {
    const standard = formatPageMarker({
      tool: "x_tool",
      nextOffset: 5,
      omitted: 12,
      unit: "lines",
    });
    expect(findForeignMarkers(`a\n${standard}`)).toEqual([]);
    expect(findForeignMarkers("a\n... 12 more lines")).toHaveLength(1);
    expect(findForeignMarkers("output truncated")).toHaveLength(1);
  });

  it("findAbsentToolNames needs backticks or 'tool' for one-word names", () => {
    const mounted = new Set<string>();
    expect(findAbsentToolNames("ask the user to confirm the plan", mounted, ["confirm"])).toEqual(
      [],
    );
    expect(findAbsentToolNames("call `confirm` first", mounted, ["confirm"])).toEqual(["confirm"]);
    expect(findAbsentToolNames("then read_file it", mounted, ["read_file"])).toEqual(["read_file"]);
    expect(findAbsentToolNames("my_read_file_x", mounted, ["read_file"])).toEqual([]);
  });
});
