import { type AnyTool, toGeminiSchema } from "@agentool/contract";
import { createToolRegistry } from "../internal/tool-registry.js";
import type { GeminiFunctionDeclaration, GeminiTool } from "./gemini-types.js";

function declare(tool: AnyTool): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name, description: tool.description };
  const parameters = toGeminiSchema(tool);
  const properties = parameters.properties;
  const hasProperties =
    typeof properties === "object" && properties !== null && Object.keys(properties).length > 0;
  if (hasProperties) declaration.parameters = parameters;
  return declaration;
}

/**
 * Declares tools for Gemini function calling.
 *
 * @param tools - tools made by `defineTool` (names must be unique)
 * @returns one Gemini `Tool` holding a function declaration per tool, for `config.tools`
 *   (`parameters` is left out for a tool without input, as Gemini requires)
 * @throws AgentoolError for duplicate names or a schema JSON Schema cannot express
 * @example
 * const response = await ai.models.generateContent({ model, contents, config: { tools: [toGeminiTools(tools)] } });
 */
export function toGeminiTools(tools: readonly AnyTool[]): GeminiTool {
  const registry = createToolRegistry("toGeminiTools", tools);
  return {
    functionDeclarations: [...registry.values()].map(declare),
  };
}
