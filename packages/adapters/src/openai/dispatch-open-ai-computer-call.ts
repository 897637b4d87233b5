import { type AnyTool, fail, type ToolContent, type ToolResult } from "@agentool/contract";
import type { DispatchRunOptions } from "../dispatcher-options.js";
import type { ComputerToolInput } from "../internal/computer-tool.js";
import { type DispatchSettings, dispatchToolCall } from "../internal/dispatch-tool-call.js";
import { fromOpenAiComputerAction } from "./open-ai-computer-action.js";
import type { OpenAiComputerCall, OpenAiComputerDispatchResult } from "./open-ai-types.js";

function imageOf(content: ToolContent): string | undefined {
  if (typeof content === "string") return undefined;
  const image = content.findLast((block) => block.type === "image");
  return image?.type === "image" ? `data:${image.mimeType};base64,${image.data}` : undefined;
}

/**
 * Most tool calls one `computer_call` item turns into (its actions, a long drag's points): a
 * model's batch is bounded like any other input.
 */
export const MAX_COMPUTER_STEPS_PER_CALL = 50;

/**
 * Runs the actions of one `computer_call` item through the computer tool, in order, each as its
 * own call behind the dispatcher's approval gate; stops at the first failure (releasing a mouse
 * button a longer drag left down) and answers with the screenshot after the last action — or,
 * after a failure or an action without one, a fresh screenshot (itself gated).
 *
 * @param registry - the dispatcher's tools by name
 * @param computer - the computer tool
 * @param call - the item
 * @param settings - the dispatcher's gate and metadata
 * @param options - per-call options
 * @returns the `computer_call_output` item (when a screenshot could be had) and the envelopes
 * @internal
 */
export async function dispatchOpenAiComputerCall(
  registry: ReadonlyMap<string, AnyTool>,
  computer: AnyTool,
  call: OpenAiComputerCall,
  settings: DispatchSettings,
  options?: DispatchRunOptions,
): Promise<OpenAiComputerDispatchResult> {
  const run = (input: ComputerToolInput) =>
    dispatchToolCall(
      registry,
      { name: computer.name, arguments: input, toolCallId: call.call_id },
      settings,
      options,
    );
  const actions = call.actions ?? (call.action === undefined ? [] : [call.action]);
  const mappedActions = actions.map((action) => fromOpenAiComputerAction(action));
  const steps = mappedActions.reduce(
    (sum, mapped) => sum + (mapped.success ? mapped.data.length : 0),
    0,
  );
  const results: ToolResult<unknown>[] = [];
  let failure: ToolResult<unknown> | undefined =
    actions.length === 0
      ? fail("INVALID_INPUT", "The computer call has no action.", {
          hint: "Send an action such as { type: 'screenshot' }.",
        })
      : steps > MAX_COMPUTER_STEPS_PER_CALL
        ? fail(
            "INVALID_INPUT",
            `The computer call asks for ${steps} steps (actions, and a drag's points); at most ${MAX_COMPUTER_STEPS_PER_CALL} run in one call. Nothing was done.`,
            { hint: "Send fewer actions per call, or a drag with fewer points." },
          )
        : undefined;
  let image: string | undefined;
  let buttonDown = false;
  for (const mapped of failure === undefined ? mappedActions : []) {
    const inputs = mapped.success ? mapped.data : [];
    if (!mapped.success) {
      failure = mapped;
      results.push(mapped);
    }
    for (const input of inputs) {
      const outcome = await run(input);
      results.push(outcome.result);
      if (!outcome.result.success) {
        failure = outcome.result;
        break;
      }
      if (input.action === "left_mouse_down") buttonDown = true;
      if (input.action === "left_mouse_up") buttonDown = false;
      image = imageOf(outcome.content);
    }
    if (failure !== undefined) break;
  }
  if (buttonDown) await run({ action: "left_mouse_up" });
  if (failure !== undefined || image === undefined) {
    image = imageOf((await run({ action: "screenshot" })).content);
  }
  const result = failure ?? results[results.length - 1] ?? fail("INTERNAL", "Nothing ran.");
  return {
    item:
      image === undefined
        ? undefined
        : {
            type: "computer_call_output",
            call_id: call.call_id,
            output: { type: "computer_screenshot", image_url: image },
          },
    result,
    results,
  };
}
