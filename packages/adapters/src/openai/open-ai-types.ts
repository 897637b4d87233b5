import type { JsonSchema, ToolResult } from "@agentool/contract";

/** A Chat Completions tool declaration (`tools` of `chat.completions.create`). */
export interface OpenAiChatTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: JsonSchema;
    strict: boolean;
  };
}

/** A Responses API tool declaration (`tools` of `responses.create`). */
export interface OpenAiResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** A Chat Completions tool call (`choices[0].message.tool_calls[i]` with `type: "function"`). */
export interface OpenAiChatToolCall {
  id: string;
  type: "function";
  function: {
    name: string;
    /** The arguments as a JSON string, exactly as the model produced them. */
    arguments: string;
  };
}

/** A Responses API function call (an item of `response.output` with `type: "function_call"`). */
export interface OpenAiResponsesFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  /** The arguments as a JSON string, exactly as the model produced them. */
  arguments: string;
  id?: string;
}

/** The Chat Completions message that answers a tool call. */
export interface OpenAiChatToolMessage {
  role: "tool";
  tool_call_id: string;
  /** The rendered result; images become a text placeholder (tool messages take text only). */
  content: string;
}

/** A text part of a Responses `function_call_output`. */
export interface OpenAiInputText {
  type: "input_text";
  text: string;
}

/** An image part of a Responses `function_call_output` (a `data:` URL). */
export interface OpenAiInputImage {
  type: "input_image";
  image_url: string;
}

/** The Responses API input item that answers a function call. */
export interface OpenAiResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  /** Text, or text and image parts when the tool rendered images. */
  output: string | Array<OpenAiInputText | OpenAiInputImage>;
}

/** What dispatching a Chat Completions tool call gives. */
export interface OpenAiChatDispatchResult {
  /** Append this to `messages` for the next request. */
  message: OpenAiChatToolMessage;
  /** The tool's envelope (the full data, or the error with its code). */
  result: ToolResult<unknown>;
}

/** What dispatching a Responses API function call gives. */
export interface OpenAiResponsesDispatchResult {
  /** Append this to `input` for the next request. */
  item: OpenAiResponsesFunctionCallOutput;
  /** The tool's envelope (the full data, or the error with its code). */
  result: ToolResult<unknown>;
}

/** OpenAI's computer-use tool declaration (Responses API `tools` entry). */
export interface OpenAiComputerTool {
  type: "computer_use_preview";
  /** The screenshot width the tool returns: the model's coordinates are in this space. */
  display_width: number;
  /** The screenshot height the tool returns. */
  display_height: number;
  environment: "linux" | "ubuntu" | "mac" | "windows" | "browser";
}

/** One action of a Responses API `computer_call` item (the fields each type has; loosely typed). */
export interface OpenAiComputerAction {
  type: string;
  x?: number;
  y?: number;
  button?: string;
  /** keypress: the keys pressed together; click, move, scroll, drag: modifier keys held. */
  keys?: string[] | null;
  /** drag: the points, from the press to the release. */
  path?: Array<{ x: number; y: number }>;
  scroll_x?: number;
  scroll_y?: number;
  text?: string;
}

/** A safety check OpenAI attaches to a computer call; the host acknowledges it in its answer. */
export interface OpenAiComputerSafetyCheck {
  id: string;
  code?: string | null;
  message?: string | null;
}

/** A Responses API computer-use call (an item of `response.output` with `type: "computer_call"`). */
export interface OpenAiComputerCall {
  type: "computer_call";
  call_id: string;
  id?: string;
  /** One action (`computer_use_preview`). */
  action?: OpenAiComputerAction;
  /** Several actions, run in order (the batched form). */
  actions?: OpenAiComputerAction[];
  pending_safety_checks?: OpenAiComputerSafetyCheck[];
  status?: string;
}

/** The Responses API input item that answers a computer call: the screen after the actions. */
export interface OpenAiComputerCallOutput {
  type: "computer_call_output";
  call_id: string;
  output: { type: "computer_screenshot"; image_url: string };
  /** The safety checks the host (or its user) acknowledged; set by the host. */
  acknowledged_safety_checks?: OpenAiComputerSafetyCheck[];
}

/** What dispatching a computer call gives. */
export interface OpenAiComputerDispatchResult {
  /**
   * Append this to `input` for the next request: the screenshot after the actions (or, when an
   * action failed, the screen as it is). Undefined when no screenshot could be taken (then
   * `result` says why; tell the model in a message).
   */
  item: OpenAiComputerCallOutput | undefined;
  /** The first failure, or the last action's envelope. */
  result: ToolResult<unknown>;
  /** Each action's envelope, in order (the screenshot taken after a failure is not among them). */
  results: ToolResult<unknown>[];
}
