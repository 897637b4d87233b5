import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { toJsonSchema } from "../json-schema.js";
import { ok } from "../result.js";
import { checkConformance } from "./check-conformance.js";
import { findSchemaUnions } from "./schema-rules.js";

function unionTool(field: z.ZodType) {
  return defineTool({
    name: "union_probe",
    description: "A probe whose one field is under test for unions in its JSON Schema.",
    input: z.object({ value: field.describe("The value.") }),
    execute: () => ok({ done: true }),
  });
}

describe("findSchemaUnions", () => {
  it("finds anyOf, oneOf and type arrays at any depth, naming the path", () => {
    expect(
      findSchemaUnions({
        type: "object",
        properties: {
          a: { anyOf: [{ type: "string" }, { type: "number" }] },
          b: { type: "array", items: { oneOf: [{ type: "string" }, { type: "object" }] } },
          c: {
            type: "object",
            properties: { d: { type: ["string", "null"] } },
            additionalProperties: { anyOf: [{ type: "string" }, { type: "number" }] },
          },
          e: { type: "array", items: [{ type: "string" }, { anyOf: [{ type: "string" }] }] },
        },
      }).map((problem) => problem.split(" is a union")[0]),
    ).toEqual(["$.a", "$.b[]", "$.c.d", "$.c{}", "$.e[1]"]);
  });

  it("finds nothing in a schema of single types", () => {
    expect(
      findSchemaUnions({
        type: "object",
        properties: {
          text: { type: "string" },
          list: {
            type: "array",
            items: { type: "object", properties: { x: { type: "integer" } } },
          },
          kind: { type: "string", enum: ["a", "b"] },
        },
      }),
    ).toEqual([]);
  });

  it("sees zod unions and nullables; z.preprocess advertises only the shape after it", () => {
    expect(
      findSchemaUnions(toJsonSchema(unionTool(z.union([z.string(), z.number()])))),
    ).toHaveLength(1);
    expect(findSchemaUnions(toJsonSchema(unionTool(z.string().nullable())))).toHaveLength(1);
    const lenient = unionTool(
      z.preprocess((value) => (typeof value === "string" ? [value] : value), z.array(z.string())),
    );
    expect(toJsonSchema(lenient).properties).toEqual({
      value: { description: "The value.", type: "array", items: { type: "string" } },
    });
    expect(findSchemaUnions(toJsonSchema(lenient))).toEqual([]);
  });
});

describe("checkConformance: no-union", () => {
  it("reports a union in the input schema as no-union, and passes the preprocess form", async () => {
    const union = await checkConformance([unionTool(z.union([z.array(z.string()), z.string()]))]);
    expect(union.violations.filter((violation) => violation.rule === "no-union")).toEqual([
      expect.objectContaining({ tool: "union_probe", message: expect.stringContaining("$.value") }),
    ]);
    const lenient = await checkConformance([
      unionTool(
        z.preprocess((value) => (typeof value === "string" ? [value] : value), z.array(z.string())),
      ),
    ]);
    expect(lenient.violations).toEqual([]);
  });
});
