import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AnyTool, defineTool } from "./define-tool.js";
import { isToolResult, ok } from "./result.js";

const tools: AnyTool[] = [
  defineTool({
    name: "nested_probe",
    description: "A probe with nested, optional, enum and array fields.",
    input: z.object({
      path: z.string().min(1).describe("A path."),
      limit: z.number().int().min(1).max(100).optional().describe("A limit."),
      plan: z
        .array(
          z.object({
            step: z.string().describe("Step."),
            status: z.enum(["a", "b"]).describe("Status."),
          }),
        )
        .optional()
        .describe("Plan."),
      flags: z
        .object({ deep: z.boolean().optional().describe("Deep.") })
        .optional()
        .describe("Flags."),
    }),
    execute: (input) => ok(input),
  }),
  defineTool({
    name: "throwing_probe",
    description: "A probe whose execute throws odd values.",
    input: z.object({ value: z.unknown().optional().describe("Anything.") }),
    execute: ({ value }) => {
      throw value;
    },
  }),
];

describe("run never throws (property)", () => {
  it("resolves to a valid envelope for any JSON input", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tools), fc.jsonValue(), async (tool, input) => {
        const result = await tool.run(input);
        expect(isToolResult(result)).toBe(true);
        const rendered = tool.renderResult(result);
        expect(typeof rendered === "string" || Array.isArray(rendered)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("resolves to a valid envelope for inputs shaped like the schema with random values", async () => {
    const tool = tools[0];
    if (tool === undefined) throw new Error("missing probe");
    const anything = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constant(Number.NaN));
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            path: anything,
            limit: anything,
            plan: fc.array(fc.record({ step: anything, status: anything })),
            flags: anything,
            extra: anything,
          },
          { requiredKeys: [] },
        ),
        async (input) => {
          const result = await tool.run(input);
          expect(isToolResult(result)).toBe(true);
          if (!result.success) expect(result.error.code).toBe("INVALID_INPUT");
        },
      ),
      { numRuns: 400 },
    );
  });

  it("maps anything thrown, even hostile objects, to INTERNAL", async () => {
    const tool = tools[1];
    if (tool === undefined) throw new Error("missing probe");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const result = await tool.run({ value });
        expect(result).toMatchObject({ success: false, error: { code: "INTERNAL" } });
      }),
      { numRuns: 200 },
    );
  });
});
