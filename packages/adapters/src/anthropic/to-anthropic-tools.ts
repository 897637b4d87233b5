import { type AnyTool, toJsonSchema } from "@agentool/contract";
import { createToolRegistry } from "../internal/tool-registry.js";
import type { AnthropicTool } from "./anthropic-types.js";

/**
 * Declares tools for the Anthropic Messages API.
 *
 * @param tools - tools made by `defineTool` (names must be unique)
 * @returns one `{ name, description, input_schema }` per tool, for the `tools` parameter
 * @throws AgentoolError for duplicate names or a schema JSON Schema cannot express
 * @example
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: toAnthropicTools(tools) });
 */
export function toAnthropicTools(tools: readonly AnyTool[]): AnthropicTool[] {
  const registry = createToolRegistry("toAnthropicTools", tools);
  return [...registry.values()].map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: toJsonSchema(tool),
  }));
}
