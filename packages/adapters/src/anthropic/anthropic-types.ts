import type { JsonSchema, ToolResult } from "@agentool/contract";

/** An Anthropic Messages API tool declaration (`tools` of `messages.create`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  /** The arguments, already parsed by the API. */
  input: unknown;
}

/** A text block inside a `tool_result`. */
export interface AnthropicTextBlock {
  type: "text";
  text: string;
}

/** A base64 image block inside a `tool_result`. */
export interface AnthropicImageBlock {
  type: "image";
  source: { type: "base64"; media_type: string; data: string };
}

/** The `tool_result` content block that answers a `tool_use` (send it in a user message). */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  /** Text, or text and image blocks when the tool rendered images. */
  content: string | Array<AnthropicTextBlock | AnthropicImageBlock>;
  /** `true` when the tool failed; absent on success. */
  is_error?: true;
}

/** What dispatching a `tool_use` block gives. */
export interface AnthropicDispatchResult {
  /** Put this in the `content` of the next user message. */
  block: AnthropicToolResultBlock;
  /** The tool's envelope (the full data, or the error with its code). */
  result: ToolResult<unknown>;
}
