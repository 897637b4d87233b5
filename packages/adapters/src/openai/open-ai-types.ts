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
