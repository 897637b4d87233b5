import { toGeminiSchema } from "@agentool/contract";
import { validateGeminiSchema, validateToolName } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import {
  createDeleteTool,
  declarationTools,
  echoTool,
  screenshotTool,
  searchTool,
} from "../test-fixtures.js";
import { toGeminiTools } from "./to-gemini-tools.js";

describe("toGeminiTools", () => {
  it("declares function declarations valid under Gemini's rules", () => {
    const { functionDeclarations } = toGeminiTools([...declarationTools, createDeleteTool().tool]);
    expect(functionDeclarations).toHaveLength(declarationTools.length + 1);
    for (const declaration of functionDeclarations) {
      expect(validateToolName(declaration.name, "gemini")).toEqual([]);
      if (declaration.parameters !== undefined)
        expect(validateGeminiSchema(declaration.parameters)).toEqual([]);
    }
    expect(functionDeclarations[0]).toEqual({
      name: "echo",
      description: echoTool.description,
      parameters: toGeminiSchema(echoTool),
    });
    const search = functionDeclarations.find((declaration) => declaration.name === "search_notes");
    expect(search?.parameters).toEqual(toGeminiSchema(searchTool));
  });

  it("leaves parameters out for a tool without input", () => {
    const { functionDeclarations } = toGeminiTools([screenshotTool]);
    expect(functionDeclarations).toEqual([
      { name: "screenshot", description: screenshotTool.description },
    ]);
  });

  it("refuses duplicate names", () => {
    expect(() => toGeminiTools([echoTool, echoTool])).toThrow(/two tools are named "echo"/);
  });
});
