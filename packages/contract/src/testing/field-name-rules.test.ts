import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AnyTool, defineTool } from "../define-tool.js";
import { toJsonSchema } from "../json-schema.js";
import { fail, ok } from "../result.js";
import { checkWellKnownFieldNames, wellKnownNamesFor } from "./field-name-rules.js";

const reader = defineTool({
  name: "read_probe",
  description: "Reads a page of a probe file; a probe for the field-name rule.",
  input: z.object({
    path: z.string().describe("The file."),
    offset: z.number().int().min(1).optional().describe("First line."),
    limit: z.number().int().min(1).optional().describe("Lines."),
  }),
  aliases: { file_path: "path" },
  execute: () => {
    throw new Error("a probe must never execute the tool");
  },
});

async function violations(tool: AnyTool): Promise<string[]> {
  const found: string[] = [];
  await checkWellKnownFieldNames(tool, toJsonSchema(tool), (rule, message) =>
    found.push(`${rule}: ${message}`),
  );
  return found;
}

describe("the well-known field names rule", () => {
  it("pairs names from other toolsets with the field the tool has", () => {
    const pairs = new Map(wellKnownNamesFor(["path", "offset", "limit"]));
    expect(pairs.get("file_path")).toBe("path");
    expect(pairs.get("max_length")).toBe("limit");
    expect(pairs.get("start_index")).toBe("offset");
    expect(pairs.has("path")).toBe(false);
    expect(pairs.has("old_string")).toBe(false);
  });

  it("passes a defineTool tool (suggestions, and an alias it accepts) without executing it", async () => {
    expect(await violations(reader)).toEqual([]);
  });

  it("reports a tool whose unknown-field answer does not lead to its field", async () => {
    const mute = {
      ...reader,
      run: async (input: Record<string, unknown>) => {
        const [sent] = Object.keys(input);
        return fail(
          "INVALID_INPUT",
          `Invalid input for read_probe: unknown field ${JSON.stringify(sent)}.`,
        );
      },
    } as unknown as AnyTool;
    const found = await violations(mute);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^did-you-mean: sending file_path .* must suggest "path"/),
        expect.stringMatching(/^did-you-mean: sending max_length .* must suggest "limit"/),
      ]),
    );
  });

  it("reports a probe that is not refused as invalid", async () => {
    const lenient = { ...reader, run: async () => ok(1) } as unknown as AnyTool;
    expect((await violations(lenient)).length).toBeGreaterThan(0);
  });
});
