// Shared by the browser entries: runs one tool call in the page and keeps what the test asserts.
import { type AnyTool, contentToText, type RunOptions, type ToolResult } from "@agentool/contract";

/** One tool call made in the page: its envelope and the text the model would read. */
export interface BrowserToolCall {
  /** The tool's name. */
  tool: string;
  /** The result envelope (`{ success, data }` or `{ success, error }`). */
  result: ToolResult<unknown>;
  /** `renderResult` flattened to text. */
  text: string;
}

/**
 * Finds a tool by name in a list, throwing with the names present when it is absent.
 *
 * @param tools - the tools a factory made
 * @param name - the tool's name
 * @returns the tool
 */
export function findTool(tools: readonly AnyTool[], name: string): AnyTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(", ")}`);
  }
  return tool;
}

/**
 * Runs a tool with `input` as a model would call it and renders the result.
 *
 * @param tool - the tool
 * @param input - the raw input
 * @param options - run options (thread id, signal…)
 * @returns the envelope and the rendered text
 */
export async function callTool(
  tool: AnyTool,
  input: unknown,
  options?: RunOptions,
): Promise<BrowserToolCall> {
  const result = await tool.run(input, options);
  return { tool: tool.name, result, text: contentToText(tool.renderResult(result)) };
}
