import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import {
  toGeminiSchema,
  toJsonSchema,
  toOpenAiStrictSchema,
  toOutputJsonSchema,
} from "./json-schema.js";
import { ok } from "./result.js";
import {
  validateAnthropicInputSchema,
  validateGeminiSchema,
  validateOpenAiStrictSchema,
} from "./testing/provider-rules.js";

const planTool = defineTool({
  name: "plan_probe",
  description: "A probe with every kind of field the families use.",
  input: z.object({
    path: z.string().min(1).max(200).describe("A path."),
    offset: z.number().int().min(1).optional().describe("First line."),
    count: z.int().optional().describe("Any whole number."),
    mode: z.enum(["read", "write"]).default("read").describe("The mode."),
    kind: z.literal("fixed").optional().describe("A constant."),
    url: z.url().optional().describe("A URL."),
    plan: z
      .array(
        z.object({
          step: z.string().describe("The step."),
          status: z.enum(["pending", "done"]).optional().describe("Its status."),
        }),
      )
      .max(20)
      .describe("Steps."),
    either: z.union([z.string(), z.number()]).optional().describe("A string or a number."),
  }),
  execute: (input) => ok(input),
});

describe("toJsonSchema", () => {
  const schema = toJsonSchema(planTool);

  it("has no $schema, no $ref and no ±2^53 bounds", () => {
    const text = JSON.stringify(schema);
    expect(text).not.toContain("$schema");
    expect(text).not.toContain("$ref");
    expect(text).not.toContain("9007199254740991");
    expect(schema).toMatchObject({
      type: "object",
      required: ["path", "plan"],
      additionalProperties: false,
    });
  });

  it("closes nested objects and keeps descriptions", () => {
    const plan = (schema.properties as Record<string, { items: Record<string, unknown> }>).plan;
    expect(plan?.items.additionalProperties).toBe(false);
    expect((schema.properties as Record<string, { description: string }>).path?.description).toBe(
      "A path.",
    );
  });

  it("is a valid JSON Schema that accepts what the tool accepts and rejects extra keys", () => {
    const ajv = new Ajv({ strict: false, logger: false });
    const validate = ajv.compile(schema);
    expect(validate({ path: "a", plan: [{ step: "x" }] })).toBe(true);
    expect(validate({ path: "a", plan: [], surplus: 1 })).toBe(false);
    expect(validate({ path: "", plan: [] })).toBe(false);
    expect(validateAnthropicInputSchema(schema)).toEqual([]);
  });

  it("refuses recursive schemas with a clear message", () => {
    const node: z.ZodType = z.lazy(() =>
      z.object({ children: z.array(node).describe("Children.") }),
    );
    const recursive = defineTool({
      name: "tree",
      description: "A recursive probe that cannot be expressed.",
      input: z.object({ root: node.describe("The root.") }),
      execute: () => ok(null),
    });
    expect(() => toJsonSchema(recursive)).toThrow(/toJsonSchema\(tree\)/);
  });
});

describe("toOutputJsonSchema", () => {
  it("is undefined without a declared output and validates declared data with Ajv", () => {
    expect(toOutputJsonSchema(planTool)).toBeUndefined();
    const statusTool = defineTool({
      name: "status_probe",
      description: "A probe that declares the shape of its data.",
      input: z.object({}),
      output: z.object({
        branch: z.string().nullable(),
        files: z.array(z.object({ path: z.string(), staged: z.boolean() })),
        ahead: z.number().int().optional(),
      }),
      execute: () =>
        ok({ branch: "main" as string | null, files: [] as { path: string; staged: boolean }[] }),
    });
    const schema = toOutputJsonSchema(statusTool);
    expect(schema?.type).toBe("object");
    expect(schema).not.toHaveProperty("$schema");
    const validate = new Ajv({ strict: false }).compile(schema as object);
    expect(validate({ branch: "main", files: [{ path: "a", staged: true }] })).toBe(true);
    expect(validate({ branch: 3, files: [] })).toBe(false);
  });
});

describe("toOpenAiStrictSchema", () => {
  const schema = toOpenAiStrictSchema(planTool);

  it("passes OpenAI's strict-mode rules", () => {
    expect(validateOpenAiStrictSchema(schema)).toEqual([]);
  });

  it("requires every property and makes optional ones nullable", () => {
    expect(schema.required).toEqual([
      "path",
      "offset",
      "count",
      "mode",
      "kind",
      "url",
      "plan",
      "either",
    ]);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.offset?.type).toEqual(["integer", "null"]);
    expect(properties.mode?.enum).toEqual(["read", "write", null]);
    expect(properties.kind?.enum).toEqual(["fixed", null]);
    const item = (properties.plan?.items ?? {}) as Record<string, unknown>;
    expect(item.required).toEqual(["step", "status"]);
    expect(item.additionalProperties).toBe(false);
  });

  it("moves constraints strict mode cannot carry into the description", () => {
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.path?.description).toBe("A path. (1–200 characters)");
    expect(properties.mode?.description).toBe('The mode. (default "read")');
    expect(properties.url?.description).toContain("format uri");
    expect(properties.path?.minLength).toBeUndefined();
    const nameTool = defineTool({
      name: "name_probe",
      description: "A probe whose name must not be empty.",
      input: z.object({ name: z.string().min(1).describe("A name."), id: z.string().min(3) }),
      execute: () => ok({}),
    });
    const named = toOpenAiStrictSchema(nameTool).properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(named.name?.description).toBe("A name. (not empty)");
    expect(named.id?.description).toBe("(at least 3 characters)");
  });

  it("leaves out string caps of 500 characters or more (a model meets them only by mistake)", () => {
    const capTool = defineTool({
      name: "cap_probe",
      description: "A probe of length notes.",
      input: z.object({
        key: z.string().min(1).max(128).describe("A key."),
        code: z.string().min(1).max(8_000).describe("Some code."),
        note: z.string().max(2_000).describe("A note."),
        label: z.string().max(499).describe("A label."),
        word: z.string().min(3).max(10_000).describe("A word."),
      }),
      execute: () => ok({}),
    });
    const strict = toOpenAiStrictSchema(capTool).properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(strict.key?.description).toBe("A key. (1–128 characters)");
    expect(strict.code?.description).toBe("Some code.");
    expect(strict.note?.description).toBe("A note.");
    expect(strict.label?.description).toBe("A label. (at most 499 characters)");
    expect(strict.word?.description).toBe("A word. (at least 3 characters)");
    // The cap itself still holds: the tool refuses a longer value.
    expect(
      capTool.parseInput({ key: "k", code: "x".repeat(8_001), note: "", label: "", word: "abc" })
        .success,
    ).toBe(false);
  });

  it("accepts null for optional fields and the tool maps null back to omitted", async () => {
    const validate = new Ajv({ strict: false, logger: false }).compile(schema);
    const input = {
      path: "a",
      offset: null,
      count: null,
      mode: null,
      kind: null,
      url: null,
      plan: [{ step: "s", status: null }],
      either: null,
    };
    expect(validate(input)).toBe(true);
    expect(await planTool.run(input)).toEqual(
      ok({ path: "a", mode: "read", plan: [{ step: "s" }] }),
    );
  });

  it("refuses free-form records, which strict mode cannot express", () => {
    const record = defineTool({
      name: "headers",
      description: "A probe with a free-form record field.",
      input: z.object({ headers: z.record(z.string(), z.string()).describe("Headers.") }),
      execute: () => ok(null),
    });
    expect(() => toOpenAiStrictSchema(record)).toThrow(/record/);
  });
});

describe("toGeminiSchema", () => {
  const schema = toGeminiSchema(planTool);

  it("passes Gemini's Schema rules", () => {
    expect(validateGeminiSchema(schema)).toEqual([]);
  });

  it("uses upper-case types, string enums and no additionalProperties", () => {
    const text = JSON.stringify(schema);
    expect(text).not.toContain("additionalProperties");
    expect(text).not.toContain('"const"');
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(schema.type).toBe("OBJECT");
    expect(properties.mode).toMatchObject({
      type: "STRING",
      format: "enum",
      enum: ["read", "write"],
    });
    expect(properties.kind).toMatchObject({ type: "STRING", enum: ["fixed"] });
    expect(properties.either?.anyOf).toEqual([{ type: "STRING" }, { type: "NUMBER" }]);
    expect(properties.url?.format).toBeUndefined();
    expect(properties.url?.description).toContain("format uri");
  });
});
