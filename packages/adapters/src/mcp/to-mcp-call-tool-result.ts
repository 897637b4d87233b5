import {
  type AnyTool,
  formatToolError,
  parseOptions,
  type ToolContent,
  type ToolResult,
} from "@agentool/contract";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { registerToolsOptionsSchema } from "./internal/register-tools-options-schema.js";
import type { RegisterToolsOptions, StructuredContentMode } from "./register-tools-options.js";

type McpContent = CallToolResult["content"];

function toMcpContent(content: ToolContent): McpContent {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((block) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "image", data: block.data, mimeType: block.mimeType },
  );
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Whether the only content is the data as the contract's default JSON rendering. */
function isDataAsJson(content: McpContent, data: unknown): boolean {
  if (content.length !== 1) return false;
  const [block] = content;
  if (block?.type !== "text") return false;
  try {
    return block.text === JSON.stringify(data, null, 2);
  } catch {
    return false;
  }
}

/**
 * {@link toMcpCallToolResult} without the options check (options already parsed).
 *
 * @param tool - the tool that produced the result
 * @param result - its envelope
 * @param structuredContent - the parsed mode
 * @returns the MCP result
 * @internal
 */
export function buildCallToolResult(
  tool: AnyTool,
  result: ToolResult<unknown>,
  structuredContent: StructuredContentMode,
): CallToolResult {
  if (!result.success) {
    return { isError: true, content: [{ type: "text", text: formatToolError(result.error) }] };
  }
  const content = toMcpContent(tool.renderResult(result));
  const callResult: CallToolResult = { content };
  if (structuredContent === "never" || !isPlainRecord(result.data)) return callResult;
  if (structuredContent === "declared") {
    if (tool.output !== undefined) callResult.structuredContent = result.data;
  } else if (tool.output !== undefined || !isDataAsJson(content, result.data)) {
    // "always": a tool without its own renderer already shows the data as JSON text; sending
    // it again as structuredContent would say the same thing twice.
    callResult.structuredContent = result.data;
  }
  return callResult;
}

/**
 * The `CallToolResult` of an envelope. A success becomes the tool's rendered content (a string →
 * one text block; image blocks → `{ type: "image", data, mimeType }`), plus `structuredContent`
 * (the data) as `options.structuredContent` says: `"declared"` (default) for tools that declare
 * `output`, `"always"` for every object data, `"never"` for none. The data is never repeated as
 * a JSON text block. A failure becomes
 * `{ isError: true, content: [{ type: "text", text: "Error [CODE]: message\nHint: …" }] }`.
 *
 * @param tool - the tool that produced the result
 * @param result - its envelope
 * @param options - `structuredContent` mode
 * @returns the MCP result
 * @throws AgentoolError for invalid options
 * @example
 * toMcpCallToolResult(gitStatus, await gitStatus.run({}));
 * // { content: [{ type: "text", text: "On branch main…" }], structuredContent: { branch: "main", … } }
 */
export function toMcpCallToolResult(
  tool: AnyTool,
  result: ToolResult<unknown>,
  options?: RegisterToolsOptions,
): CallToolResult {
  const parsed = parseOptions("toMcpCallToolResult", registerToolsOptionsSchema, options);
  return buildCallToolResult(tool, result, parsed.structuredContent ?? "declared");
}
