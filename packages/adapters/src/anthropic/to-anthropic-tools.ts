import { AgentoolError, type AnyTool, toJsonSchema } from "@agentool/contract";
import { findComputerTool } from "../internal/computer-tool.js";
import { createToolRegistry } from "../internal/tool-registry.js";
import type { AnthropicComputerTool, AnthropicTool } from "./anthropic-types.js";
import {
  type AnthropicComputerToolOptions,
  toAnthropicComputerTool,
} from "./to-anthropic-computer-tool.js";

/** Options of {@link toAnthropicTools}. */
export interface ToAnthropicToolsOptions {
  /**
   * Declare the `computer` tool of `@agentool/tools-gui` as Anthropic's native computer-use tool
   * (`true`, or `{ version }`) instead of a plain JSON Schema tool. Default `false`. The request
   * then goes to `anthropic.beta.messages.create` with the version's beta flag, and the
   * dispatcher needs `nativeComputerTool: true` too.
   */
  nativeComputerTool?: boolean | AnthropicComputerToolOptions;
}

/**
 * Declares tools for the Anthropic Messages API.
 *
 * @param tools - tools made by `defineTool` (names must be unique)
 * @param options - `nativeComputerTool` (default `false`)
 * @returns one `{ name, description, input_schema }` per tool, for the `tools` parameter (and,
 *   with `nativeComputerTool`, the native computer tool declaration in the computer tool's place)
 * @throws AgentoolError for duplicate names or a schema JSON Schema cannot express
 * @example
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: toAnthropicTools(tools) });
 */
export function toAnthropicTools(
  tools: readonly AnyTool[],
  options?: { nativeComputerTool?: false },
): AnthropicTool[];
export function toAnthropicTools(
  tools: readonly AnyTool[],
  options: ToAnthropicToolsOptions,
): Array<AnthropicTool | AnthropicComputerTool>;
export function toAnthropicTools(
  tools: readonly AnyTool[],
  options: ToAnthropicToolsOptions = {},
): Array<AnthropicTool | AnthropicComputerTool> {
  if (typeof options !== "object" || options === null) {
    throw new AgentoolError("toAnthropicTools: options must be an object.");
  }
  const unknown = Object.keys(options).filter((key) => key !== "nativeComputerTool");
  if (unknown.length > 0) {
    throw new AgentoolError(
      `toAnthropicTools: unknown option ${JSON.stringify(unknown[0])}; the only option is nativeComputerTool.`,
    );
  }
  const native = options.nativeComputerTool ?? false;
  const registry = createToolRegistry("toAnthropicTools", tools);
  const computer = findComputerTool("toAnthropicTools", tools, native !== false);
  return [...registry.values()].map((tool) =>
    tool === computer
      ? toAnthropicComputerTool(
          tool,
          native === true ? {} : (native as AnthropicComputerToolOptions),
        )
      : { name: tool.name, description: tool.description, input_schema: toJsonSchema(tool) },
  );
}
