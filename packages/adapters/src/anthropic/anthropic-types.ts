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

/** The versions of Anthropic's native computer-use tool (beta). */
export type AnthropicComputerToolVersion = "computer_20250124" | "computer_20251124";

/** Anthropic's native computer-use tool declaration (beta `tools` entry). */
export interface AnthropicComputerTool {
  type: AnthropicComputerToolVersion;
  /** Always `computer`: the model calls the tool by this name. */
  name: "computer";
  /** The screenshot width the tool returns: the model's coordinates are in this space. */
  display_width_px: number;
  /** The screenshot height the tool returns. */
  display_height_px: number;
  /** `computer_20251124` only: lets the model use the `zoom` action. */
  enable_zoom?: boolean;
}

/** A `tool_use` input of Anthropic's native computer tool (`key` and `hold_key` send the keys as `text`). */
export interface AnthropicComputerInput {
  action: string;
  coordinate?: [number, number];
  start_coordinate?: [number, number];
  /** type: the text; key / hold_key: the keys ("ctrl+s"); clicks and scroll: modifier keys to hold. */
  text?: string;
  scroll_direction?: "up" | "down" | "left" | "right";
  scroll_amount?: number;
  duration?: number;
  /** zoom (`computer_20251124`): [x0, y0, x1, y1]. */
  region?: [number, number, number, number];
}
