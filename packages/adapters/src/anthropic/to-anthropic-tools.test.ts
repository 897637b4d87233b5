import { toJsonSchema } from "@agentool/contract";
import { validateAnthropicInputSchema, validateToolName } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createDeleteTool, declarationTools, echoTool } from "../test-fixtures.js";
import { toAnthropicTools } from "./to-anthropic-tools.js";

describe("toAnthropicTools", () => {
  it("declares { name, description, input_schema } valid under Anthropic's rules", () => {
    const declarations = toAnthropicTools([...declarationTools, createDeleteTool().tool]);
    expect(declarations).toHaveLength(declarationTools.length + 1);
    for (const declaration of declarations) {
      expect(Object.keys(declaration)).toEqual(["name", "description", "input_schema"]);
      expect(validateToolName(declaration.name, "anthropic")).toEqual([]);
      expect(validateAnthropicInputSchema(declaration.input_schema)).toEqual([]);
    }
    expect(declarations[0]).toEqual({
      name: "echo",
      description: echoTool.description,
      input_schema: toJsonSchema(echoTool),
    });
  });

  it("refuses duplicate names", () => {
    expect(() => toAnthropicTools([echoTool, echoTool])).toThrow(/two tools are named "echo"/);
  });
});
