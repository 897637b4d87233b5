import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { formatPageMarker, type NextCallValue, parseNextCall } from "../paging.js";
import { ok } from "../result.js";
import { checkConformance } from "./check-conformance.js";
import { walkPages } from "./paging-walk.js";

const WORDS = Array.from({ length: 12 }, (_, index) => ({
  word: `word${index}`,
  tag: index % 2 === 0 ? "even" : "odd",
}));

/** How a probe's marker is written: what it carries besides offset, how many markers a page has. */
interface ProbeFlaws {
  dropTags?: boolean;
  dropLimit?: boolean;
  twoMarkers?: boolean;
  totalIgnoresTags?: boolean;
}

/** A paged listing of words with a tags filter and a limit; its marker has the flaws asked for. */
function listWords(flaws: ProbeFlaws) {
  return defineTool({
    name: "list_words",
    description: "Lists words, a page at a time, optionally only those with the given tags.",
    annotations: { readOnly: true },
    input: z.object({
      tags: z.array(z.string()).optional().describe("Only words with one of these tags."),
      offset: z.number().int().min(1).optional().describe("1-based index of the first word."),
      limit: z.number().int().min(1).max(50).optional().describe("Words per page (default 5)."),
    }),
    execute: ({ tags, offset = 1, limit = 5 }) => {
      const filtered = WORDS.filter((entry) => tags === undefined || tags.includes(entry.tag));
      const next = offset - 1 + limit;
      const truncated = next < filtered.length;
      const markerArgs: Record<string, NextCallValue> = {};
      if (tags !== undefined && flaws.dropTags !== true) markerArgs.tags = tags;
      if (flaws.dropLimit !== true) markerArgs.limit = limit;
      return ok({
        words: filtered.slice(offset - 1, next).map((entry) => entry.word),
        total: flaws.totalIgnoresTags === true && offset > 1 ? WORDS.length : filtered.length,
        truncated,
        marker_args: markerArgs,
        ...(truncated ? { next_offset: next + 1 } : {}),
      });
    },
    render: (data) => {
      const lines = [...data.words];
      if (data.next_offset !== undefined) {
        const marker = formatPageMarker({
          tool: "list_words",
          nextOffset: data.next_offset,
          omitted: data.total - data.next_offset + 1,
          unit: "words",
          args: data.marker_args,
        });
        lines.push(marker);
        if (flaws.twoMarkers === true) lines.push(marker.replace("offset=", "offset=1"));
      }
      return lines.join("\n");
    },
  });
}

async function walkRules(flaws: ProbeFlaws, input: unknown): Promise<string[]> {
  const report = await checkConformance([listWords(flaws)], {
    cutSamples: { list_words: input },
  });
  return report.violations.map((violation) => `${violation.rule}: ${violation.message}`);
}

describe("markers followed literally (walkPages)", () => {
  it("passes a listing whose marker carries the tags filter and the limit, to the last page", async () => {
    expect(await walkRules({}, { tags: ["even"], limit: 2 })).toEqual([]);
    expect(await walkRules({}, { tags: ["odd", "even"], limit: 5 })).toEqual([]);
  });

  it("reports a marker that drops a list filter (the next page would list everything)", async () => {
    const found = await walkRules({ dropTags: true }, { tags: ["even"], limit: 2 });
    expect(found).toEqual([expect.stringMatching(/^marker-arguments: .*tags=\["even"\]/)]);
  });

  it("reports a marker that drops the limit (the page size would change mid-walk)", async () => {
    const found = await walkRules({ dropLimit: true }, { limit: 2 });
    expect(found).toEqual([expect.stringMatching(/^marker-arguments: .*limit=2/)]);
  });

  it("reports a page with two markers naming the tool", async () => {
    const found = await walkRules({ twoMarkers: true }, { limit: 4 });
    expect(found.some((line) => /^marker: page 1 must carry exactly one marker/.test(line))).toBe(
      true,
    );
  });

  it("reports a total that changes on the way", async () => {
    const found = await walkRules({ totalIgnoresTags: true }, { tags: ["odd"], limit: 2 });
    expect(found).toEqual([
      expect.stringMatching(/^paging-total: page 2 says total 12 where page 1 said 6/),
    ]);
  });
});

describe("next-call values that are lists", () => {
  it("round-trips a list argument through the marker and the parser", () => {
    const marker = formatPageMarker({
      tool: "memory_search",
      nextOffset: 11,
      omitted: 3,
      unit: "memories",
      args: { query: 'staging "db"]', tags: ["ops", "db]"], limit: 10 },
    });
    expect(marker).toBe(
      '…[truncated: 3 more memories — call memory_search again with query="staging \\"db\\"]", tags=["ops","db]"], limit=10, offset=11]',
    );
    expect(parseNextCall(`text\n${marker}`)).toEqual({
      tool: "memory_search",
      args: { query: 'staging "db"]', tags: ["ops", "db]"], limit: 10, offset: 11 },
    });
  });
});

describe("walkPages", () => {
  it("walks every page to the last one, each next call exactly the marker's arguments", async () => {
    const tool = listWords({});
    const calls: unknown[] = [];
    const input = { tags: ["even"], limit: 2 };
    const first = await tool.run(input);
    if (!first.success) throw new Error(first.error.message);
    const violations: string[] = [];
    const pages = await walkPages(
      tool,
      { input, result: first },
      {
        run: (next) => {
          calls.push(next);
          return tool.run(next);
        },
        render: (result) => String(tool.renderResult(result as typeof first)),
        report: (rule, message) => violations.push(`${rule}: ${message}`),
      },
    );
    expect(violations).toEqual([]);
    expect(pages).toBe(3);
    expect(calls).toEqual([
      { tags: ["even"], limit: 2, offset: 3 },
      { tags: ["even"], limit: 2, offset: 5 },
    ]);
  });
});
