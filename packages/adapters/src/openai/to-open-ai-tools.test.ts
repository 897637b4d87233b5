import { toJsonSchema, toOpenAiStrictSchema } from "@agentool/contract";
import { validateOpenAiStrictSchema, validateToolName } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createDeleteTool, declarationTools, echoTool, searchTool } from "../test-fixtures.js";
import { toOpenAiTools } from "./to-open-ai-tools.js";

describe("toOpenAiTools", () => {
  it("declares Chat Completions tools in strict mode by default, valid under OpenAI's rules", () => {
    const declarations = toOpenAiTools([...declarationTools, createDeleteTool().tool]);
    expect(declarations).toHaveLength(declarationTools.length + 1);
    for (const declaration of declarations) {
      expect(declaration.type).toBe("function");
      expect(declaration.function.strict).toBe(true);
      expect(validateToolName(declaration.function.name, "openai")).toEqual([]);
      expect(validateOpenAiStrictSchema(declaration.function.parameters)).toEqual([]);
    }
    expect(declarations[0]).toEqual({
      type: "function",
      function: {
        name: "echo",
        description: echoTool.description,
        parameters: toOpenAiStrictSchema(echoTool),
        strict: true,
      },
    });
  });

  it("makes optional fields required and nullable in strict mode", () => {
    const [declaration] = toOpenAiTools([searchTool]);
    const parameters = declaration?.function.parameters;
    expect(parameters?.required).toEqual(["query", "limit", "tags", "filter"]);
    expect(parameters?.additionalProperties).toBe(false);
  });

  it("declares Responses API tools with api: 'responses'", () => {
    const declarations = toOpenAiTools([echoTool, searchTool], { api: "responses" });
    expect(declarations[0]).toEqual({
      type: "function",
      name: "echo",
      description: echoTool.description,
      parameters: toOpenAiStrictSchema(echoTool),
      strict: true,
    });
    for (const declaration of declarations)
      expect(validateOpenAiStrictSchema(declaration.parameters)).toEqual([]);
  });

  it("uses the plain JSON Schema with strict: false", () => {
    const [chat] = toOpenAiTools([searchTool], { strict: false });
    expect(chat?.function).toEqual({
      name: "search_notes",
      description: searchTool.description,
      parameters: toJsonSchema(searchTool),
      strict: false,
    });
    const [responses] = toOpenAiTools([searchTool], { strict: false, api: "responses" });
    expect(responses?.strict).toBe(false);
    expect(responses?.parameters).toEqual(toJsonSchema(searchTool));
  });

  it("rejects unknown options, a bad api, duplicate names and non-tools", () => {
    expect(() => toOpenAiTools([echoTool], { strcit: true } as never)).toThrow(/strcit/);
    expect(() => toOpenAiTools([echoTool], { api: "assistants" } as never)).toThrow(/api/);
    expect(() => toOpenAiTools([echoTool, echoTool])).toThrow(/two tools are named "echo"/);
    expect(() => toOpenAiTools([null as never])).toThrow(/index 0/);
  });
});
