import { type AnyTool, parseOptions, toJsonSchema, toOpenAiStrictSchema } from "@agentool/contract";
import { z } from "zod";
import { createToolRegistry } from "../internal/tool-registry.js";
import type { OpenAiChatTool, OpenAiResponsesTool } from "./open-ai-types.js";

/** Options of {@link toOpenAiTools}. */
export interface ToOpenAiToolsOptions {
  /**
   * Use strict function calling (Structured Outputs): parameters from `toOpenAiStrictSchema`,
   * every property required and optional ones nullable. Default `true`.
   */
  strict?: boolean;
  /** Which API the declarations are for: `"chat"` (Chat Completions, default) or `"responses"`. */
  api?: "chat" | "responses";
}

const optionsSchema = z.object({
  strict: z.boolean().default(true),
  api: z.enum(["chat", "responses"]).default("chat"),
});

/**
 * Declares tools for OpenAI function calling.
 *
 * @param tools - tools made by `defineTool` (names must be unique)
 * @param options - `strict` (default `true`) and `api` (`"chat"` default, or `"responses"`)
 * @returns one declaration per tool, for the `tools` parameter of the request
 * @throws AgentoolError for bad options, duplicate names, or (strict) a schema strict mode cannot express
 * @example
 * const completion = await openai.chat.completions.create({ model, messages, tools: toOpenAiTools(tools) });
 * const response = await openai.responses.create({ model, input, tools: toOpenAiTools(tools, { api: "responses" }) });
 */
export function toOpenAiTools(
  tools: readonly AnyTool[],
  options?: ToOpenAiToolsOptions & { api?: "chat" },
): OpenAiChatTool[];
export function toOpenAiTools(
  tools: readonly AnyTool[],
  options: ToOpenAiToolsOptions & { api: "responses" },
): OpenAiResponsesTool[];
export function toOpenAiTools(
  tools: readonly AnyTool[],
  options?: ToOpenAiToolsOptions,
): OpenAiChatTool[] | OpenAiResponsesTool[];
export function toOpenAiTools(
  tools: readonly AnyTool[],
  options?: ToOpenAiToolsOptions,
): OpenAiChatTool[] | OpenAiResponsesTool[] {
  const { strict, api } = parseOptions("toOpenAiTools", optionsSchema, options);
  const registry = createToolRegistry("toOpenAiTools", tools);
  const declarations = [...registry.values()].map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: strict ? toOpenAiStrictSchema(tool) : toJsonSchema(tool),
    strict,
  }));
  if (api === "responses") {
    return declarations.map((declaration) => ({ type: "function" as const, ...declaration }));
  }
  return declarations.map((declaration) => ({ type: "function" as const, function: declaration }));
}
