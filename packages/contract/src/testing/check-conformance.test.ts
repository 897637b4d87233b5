import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { pagingInputShape } from "../paging.js";
import { fail, ok } from "../result.js";
import { assertConformance, checkConformance } from "./check-conformance.js";

const good = defineTool({
  name: "good_tool",
  description: "A well-behaved probe: repeats its text and counts characters.",
  input: z.object({
    text: z.string().describe("Text."),
    items: z
      .array(z.object({ key: z.string().describe("Key.") }))
      .optional()
      .describe("Items."),
  }),
  execute: ({ text }) => ok({ length: text.length }),
  render: ({ length }) => `${length} characters`,
});

function rules(report: Awaited<ReturnType<typeof checkConformance>>, tool: string): string[] {
  return report.violations
    .filter((violation) => violation.tool === tool)
    .map((violation) => violation.rule);
}

describe("checkConformance", () => {
  it("passes a well-behaved tool, including a real run of its sample", async () => {
    const report = await assertConformance([good], { samples: { good_tool: { text: "abc" } } });
    expect(report.checkedTools).toEqual(["good_tool"]);
  });

  it("finds undescribed, camelCase and record fields and a short description", async () => {
    const sloppy = defineTool({
      name: "sloppy",
      description: "Too short",
      input: z.object({
        camelField: z.string(),
        nested: z.object({ inner: z.number() }).describe("Nested."),
        headers: z.record(z.string(), z.string()).describe("Headers."),
      }),
      execute: () => ok(null),
    });
    const report = await checkConformance([sloppy]);
    const found = rules(report, "sloppy");
    expect(found).toContain("description");
    expect(found).toContain("snake-case");
    expect(found).toContain("field-described");
    expect(found).toContain("provider-schema-openai");
    expect(report.violations.some((violation) => violation.message.includes("nested.inner"))).toBe(
      true,
    );
  });

  it("catches a hand-made object that is not a defineTool tool, and duplicates", async () => {
    const report = await checkConformance([{ name: "fake", run: async () => ({}) }, good, good]);
    expect(report.violations.map((violation) => violation.rule)).toEqual(
      expect.arrayContaining(["is-tool", "unique-name"]),
    );
  });

  it("catches a tool whose run misbehaves (a broken wrapper)", async () => {
    const broken = Object.freeze({
      ...good,
      run: async (input: unknown) => {
        if (typeof input !== "object" || input === null) throw new Error("rejects garbage");
        return ok({ length: 0 });
      },
      renderResult: () => "no error format",
    });
    const report = await checkConformance([broken]);
    const found = rules(report, "good_tool");
    expect(found).toContain("invalid-input");
    expect(found).toContain("aborted");
    expect(found).toContain("render");
  });

  it("reports a sample that fails and a sample for a missing tool", async () => {
    const failing = defineTool({
      ...good,
      name: "failing_tool",
      execute: () => fail("INTERNAL", "nope"),
    });
    const report = await checkConformance([failing], {
      samples: { failing_tool: { text: "x" }, ghost: {} },
    });
    expect(rules(report, "failing_tool")).toContain("sample");
    expect(rules(report, "ghost")).toContain("sample");
  });

  it("throws one error listing every violation", async () => {
    const bad = defineTool({
      name: "bad",
      description: "short",
      input: z.object({ Value: z.string() }),
      execute: () => ok(1),
    });
    await expect(assertConformance([bad])).rejects.toThrow(
      /contract violation\(s\):\n- bad \[description\]/,
    );
  });

  it("fails a description that names a data key of PageInfo the model never reads", async () => {
    const leaky = defineTool({
      name: "leaky_pager",
      description: "Lists probe entries a page at a time; the model reads the rendered page.",
      input: z.object({
        offset: z
          .number()
          .optional()
          .describe("First entry. Use the next_offset a cut result gives to get the next page."),
        filter: z
          .object({ hint: z.string().optional().describe("Stop at total_at_least entries.") })
          .optional()
          .describe("Filter."),
      }),
      execute: () => ok(null),
    });
    const report = await checkConformance([leaky]);
    const found = report.violations.filter(
      (violation) => violation.rule === "description-names-data-key",
    );
    expect(found.map((violation) => violation.message)).toEqual([
      expect.stringContaining("field offset names next_offset"),
      expect.stringContaining("field filter.hint names total_at_least"),
    ]);
  });

  it("passes the contract's own paging fields: their offset names the marker's next call", async () => {
    const pager = defineTool({
      name: "pager",
      description: "Lists probe entries a page at a time; the model reads the rendered page.",
      input: z.object({ ...pagingInputShape({ unit: "entry", defaultLimit: 5, maxLimit: 10 }) }),
      execute: () => ok(null),
    });
    expect(rules(await checkConformance([pager]), "pager")).not.toContain(
      "description-names-data-key",
    );
    expect(pager.input.shape.offset.description).toContain("marker");
  });
});
