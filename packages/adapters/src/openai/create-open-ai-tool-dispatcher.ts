import { AgentoolError, type AnyTool, contentToText, type ToolContent } from "@agentool/contract";
import type { DispatcherOptions, DispatchRunOptions } from "../dispatcher-options.js";
import { findComputerTool, splitComputerOption } from "../internal/computer-tool.js";
import { dispatchToolCall, prepareDispatcher } from "../internal/dispatch-tool-call.js";
import { dispatchOpenAiComputerCall } from "./dispatch-open-ai-computer-call.js";
import type {
  OpenAiChatDispatchResult,
  OpenAiChatToolCall,
  OpenAiComputerCall,
  OpenAiComputerDispatchResult,
  OpenAiInputImage,
  OpenAiInputText,
  OpenAiResponsesDispatchResult,
  OpenAiResponsesFunctionCall,
} from "./open-ai-types.js";

/** Options of {@link createOpenAiToolDispatcher}. */
export interface OpenAiDispatcherOptions extends DispatcherOptions {
  /**
   * The `computer` tool was declared as OpenAI's computer-use tool (`toOpenAiComputerTool`):
   * `dispatch` also takes Responses `computer_call` items, mapping each action to the tool's
   * (`fromOpenAiComputerAction`), every one through `approve`. Default `false`.
   */
  nativeComputerTool?: boolean;
}

/** Runs OpenAI tool calls against a fixed set of tools. */
export interface OpenAiToolDispatcher {
  /**
   * Runs one tool call and answers it in the shape of the API it came from. Never rejects for
   * anything the model sent: bad JSON, unknown tools and tool failures come back as
   * `Error [CODE]: …` text with the envelope in `result`.
   */
  dispatch(
    call: OpenAiChatToolCall,
    options?: DispatchRunOptions,
  ): Promise<OpenAiChatDispatchResult>;
  dispatch(
    call: OpenAiResponsesFunctionCall,
    options?: DispatchRunOptions,
  ): Promise<OpenAiResponsesDispatchResult>;
  /** A `computer_call` item (with `nativeComputerTool: true`): its actions, then the screenshot. */
  dispatch(
    call: OpenAiComputerCall,
    options?: DispatchRunOptions,
  ): Promise<OpenAiComputerDispatchResult>;
  /** Runs several calls concurrently; the answers keep the order of the calls. */
  dispatchAll(
    calls: readonly OpenAiChatToolCall[],
    options?: DispatchRunOptions,
  ): Promise<OpenAiChatDispatchResult[]>;
  dispatchAll(
    calls: readonly OpenAiResponsesFunctionCall[],
    options?: DispatchRunOptions,
  ): Promise<OpenAiResponsesDispatchResult[]>;
  dispatchAll(
    calls: readonly (OpenAiResponsesFunctionCall | OpenAiComputerCall)[],
    options?: DispatchRunOptions,
  ): Promise<Array<OpenAiResponsesDispatchResult | OpenAiComputerDispatchResult>>;
}

function toResponsesOutput(
  content: ToolContent,
): string | Array<OpenAiInputText | OpenAiInputImage> {
  if (typeof content === "string") return content;
  if (content.every((block) => block.type === "text")) return contentToText(content);
  return content.map((block) =>
    block.type === "text"
      ? { type: "input_text" as const, text: block.text }
      : { type: "input_image" as const, image_url: `data:${block.mimeType};base64,${block.data}` },
  );
}

function isComputerCall(call: unknown): call is OpenAiComputerCall {
  if (typeof call !== "object" || call === null) return false;
  const record = call as { type?: unknown; call_id?: unknown };
  return record.type === "computer_call" && typeof record.call_id === "string";
}

function isChatToolCall(call: unknown): call is OpenAiChatToolCall {
  if (typeof call !== "object" || call === null) return false;
  const record = call as { id?: unknown; function?: unknown };
  return (
    typeof record.id === "string" && typeof record.function === "object" && record.function !== null
  );
}

function isResponsesFunctionCall(call: unknown): call is OpenAiResponsesFunctionCall {
  if (typeof call !== "object" || call === null) return false;
  const record = call as { type?: unknown; call_id?: unknown };
  return record.type === "function_call" && typeof record.call_id === "string";
}

/**
 * Creates a dispatcher that runs OpenAI tool calls (Chat Completions `tool_calls` or Responses
 * `function_call` items) and returns the message or input item that answers each.
 *
 * @param tools - the tools the model may call (the same list given to `toOpenAiTools`)
 * @param options - `approve` (the gate), `requireApproval` (which tools need it; default: those
 *   annotated `destructive`), `metadata` (passed to every tool) and `nativeComputerTool`
 * @returns a dispatcher with `dispatch(call, options?)` and `dispatchAll(calls, options?)`
 * @throws AgentoolError for bad options or duplicate tool names
 * @example
 * const dispatcher = createOpenAiToolDispatcher(tools);
 * const message = completion.choices[0].message;
 * messages.push(message);
 * const calls = (message.tool_calls ?? []).filter((call) => call.type === "function");
 * for (const answer of await dispatcher.dispatchAll(calls)) messages.push(answer.message);
 */
export function createOpenAiToolDispatcher(
  tools: readonly AnyTool[],
  options?: OpenAiDispatcherOptions,
): OpenAiToolDispatcher {
  const owner = "createOpenAiToolDispatcher";
  const { native, rest } = splitComputerOption<DispatcherOptions>(owner, options);
  const { registry, settings: gate } = prepareDispatcher(owner, tools, rest);
  const computer = findComputerTool(owner, tools, native);

  async function dispatchOne(
    call: OpenAiChatToolCall | OpenAiResponsesFunctionCall | OpenAiComputerCall,
    runOptions?: DispatchRunOptions,
  ): Promise<
    OpenAiChatDispatchResult | OpenAiResponsesDispatchResult | OpenAiComputerDispatchResult
  > {
    if (isComputerCall(call)) {
      if (computer === undefined) {
        throw new AgentoolError(
          "createOpenAiToolDispatcher: a computer_call item needs the dispatcher made with nativeComputerTool: true (and the computer tool declared with toOpenAiComputerTool).",
        );
      }
      return dispatchOpenAiComputerCall(registry, computer, call, gate, runOptions);
    }
    if (isResponsesFunctionCall(call)) {
      const outcome = await dispatchToolCall(
        registry,
        { name: call.name, arguments: call.arguments, toolCallId: call.call_id },
        gate,
        runOptions,
      );
      return {
        item: {
          type: "function_call_output",
          call_id: call.call_id,
          output: toResponsesOutput(outcome.content),
        },
        result: outcome.result,
      };
    }
    if (isChatToolCall(call)) {
      const outcome = await dispatchToolCall(
        registry,
        { name: call.function.name, arguments: call.function.arguments, toolCallId: call.id },
        gate,
        runOptions,
      );
      return {
        message: { role: "tool", tool_call_id: call.id, content: contentToText(outcome.content) },
        result: outcome.result,
      };
    }
    throw new AgentoolError(
      "createOpenAiToolDispatcher: dispatch expects a Chat Completions tool call ({ id, type: 'function', function: { name, arguments } }) or a Responses function_call item ({ type: 'function_call', call_id, name, arguments }).",
    );
  }

  const dispatcher = {
    dispatch: dispatchOne,
    dispatchAll: (
      calls: readonly (OpenAiChatToolCall | OpenAiResponsesFunctionCall | OpenAiComputerCall)[],
      runOptions?: DispatchRunOptions,
    ) => Promise.all(calls.map((call) => dispatchOne(call, runOptions))),
  };
  return dispatcher as OpenAiToolDispatcher;
}
