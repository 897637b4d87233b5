import { AgentoolError, type AnyTool, type ToolContent } from "@agentool/contract";
import type { DispatcherOptions, DispatchRunOptions } from "../dispatcher-options.js";
import { findComputerTool, splitComputerOption } from "../internal/computer-tool.js";
import { dispatchToolCall, prepareDispatcher } from "../internal/dispatch-tool-call.js";
import { fromAnthropicComputerInput } from "./anthropic-computer-input.js";
import type {
  AnthropicDispatchResult,
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from "./anthropic-types.js";

/** Options of {@link createAnthropicToolDispatcher}. */
export interface AnthropicDispatcherOptions extends DispatcherOptions {
  /**
   * The `computer` tool was declared as Anthropic's native computer tool (`toAnthropicTools(tools,
   * { nativeComputerTool })` or `toAnthropicComputerTool`): map its `tool_use` input to the
   * tool's (`key` / `hold_key` keys from `text`). Default `false`. The call still goes through
   * `approve` like any destructive tool's.
   */
  nativeComputerTool?: boolean;
}

/** Runs Anthropic `tool_use` blocks against a fixed set of tools. */
export interface AnthropicToolDispatcher {
  /**
   * Runs one `tool_use` block and returns the `tool_result` block that answers it. Never rejects
   * for anything the model sent: unknown tools and failures come back with `is_error: true`.
   */
  dispatch(
    block: AnthropicToolUseBlock,
    options?: DispatchRunOptions,
  ): Promise<AnthropicDispatchResult>;
  /** Runs several blocks concurrently; the answers keep the order of the blocks. */
  dispatchAll(
    blocks: readonly AnthropicToolUseBlock[],
    options?: DispatchRunOptions,
  ): Promise<AnthropicDispatchResult[]>;
}

function toAnthropicContent(content: ToolContent): AnthropicToolResultBlock["content"] {
  if (typeof content === "string") return content;
  return content.map((block): AnthropicTextBlock | AnthropicImageBlock =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } },
  );
}

/**
 * Creates a dispatcher that runs Anthropic `tool_use` blocks and returns `tool_result` blocks.
 *
 * @param tools - the tools the model may call (the same list given to `toAnthropicTools`)
 * @param options - `approve` (the gate), `requireApproval` (which tools need it; default: those
 *   annotated `destructive`), `metadata` (passed to every tool) and `nativeComputerTool`
 * @returns a dispatcher with `dispatch(block, options?)` and `dispatchAll(blocks, options?)`
 * @throws AgentoolError for bad options or duplicate tool names
 * @example
 * const dispatcher = createAnthropicToolDispatcher(tools);
 * messages.push({ role: "assistant", content: message.content });
 * const uses = message.content.filter((block) => block.type === "tool_use");
 * const answers = await dispatcher.dispatchAll(uses);
 * messages.push({ role: "user", content: answers.map((answer) => answer.block) });
 */
export function createAnthropicToolDispatcher(
  tools: readonly AnyTool[],
  options?: AnthropicDispatcherOptions,
): AnthropicToolDispatcher {
  const owner = "createAnthropicToolDispatcher";
  const { native, rest } = splitComputerOption<DispatcherOptions>(owner, options);
  const { registry, settings: gate } = prepareDispatcher(owner, tools, rest);
  const computer = findComputerTool(owner, tools, native);

  async function dispatch(
    block: AnthropicToolUseBlock,
    runOptions?: DispatchRunOptions,
  ): Promise<AnthropicDispatchResult> {
    if (
      typeof block !== "object" ||
      block === null ||
      block.type !== "tool_use" ||
      typeof block.id !== "string"
    ) {
      throw new AgentoolError(
        "createAnthropicToolDispatcher: dispatch expects a tool_use block ({ type: 'tool_use', id, name, input }).",
      );
    }
    const outcome = await dispatchToolCall(
      registry,
      {
        name: block.name,
        arguments:
          computer !== undefined && block.name === computer.name
            ? fromAnthropicComputerInput(block.input)
            : block.input,
        toolCallId: block.id,
      },
      gate,
      runOptions,
    );
    const answer: AnthropicToolResultBlock = {
      type: "tool_result",
      tool_use_id: block.id,
      content: toAnthropicContent(outcome.content),
    };
    if (!outcome.result.success) answer.is_error = true;
    return { block: answer, result: outcome.result };
  }

  return {
    dispatch,
    dispatchAll: (blocks, runOptions) =>
      Promise.all(blocks.map((block) => dispatch(block, runOptions))),
  };
}
