import { AgentoolError, type AnyTool, contentToText } from "@agentool/contract";
import type { DispatcherOptions, DispatchRunOptions } from "../dispatcher-options.js";
import { dispatchToolCall, prepareDispatcher } from "../internal/dispatch-tool-call.js";
import type {
  GeminiDispatchResult,
  GeminiFunctionCall,
  GeminiFunctionResponsePart,
} from "./gemini-types.js";

/** Runs Gemini `functionCall`s against a fixed set of tools. */
export interface GeminiToolDispatcher {
  /**
   * Runs one `functionCall` and returns the `functionResponse` part that answers it. Never
   * rejects for anything the model sent: unknown tools and failures come back as
   * `response: { error: { code, message, hint } }`.
   */
  dispatch(call: GeminiFunctionCall, options?: DispatchRunOptions): Promise<GeminiDispatchResult>;
  /** Runs several calls concurrently; the answers keep the order of the calls. */
  dispatchAll(
    calls: readonly GeminiFunctionCall[],
    options?: DispatchRunOptions,
  ): Promise<GeminiDispatchResult[]>;
}

/**
 * Creates a dispatcher that runs Gemini `functionCall`s and returns `functionResponse` parts.
 *
 * @param tools - the tools the model may call (the same list given to `toGeminiTools`)
 * @param options - `approve` (the gate), `requireApproval` (which tools need it; default: those
 *   annotated `destructive`) and `metadata` (passed to every tool)
 * @returns a dispatcher with `dispatch(call, options?)` and `dispatchAll(calls, options?)`
 * @throws AgentoolError for bad options or duplicate tool names
 * @example
 * const dispatcher = createGeminiToolDispatcher(tools);
 * const answers = await dispatcher.dispatchAll(response.functionCalls ?? []);
 * contents.push(response.candidates[0].content, { role: "user", parts: answers.map((answer) => answer.part) });
 */
export function createGeminiToolDispatcher(
  tools: readonly AnyTool[],
  options?: DispatcherOptions,
): GeminiToolDispatcher {
  const { registry, settings: gate } = prepareDispatcher(
    "createGeminiToolDispatcher",
    tools,
    options,
  );

  async function dispatch(
    call: GeminiFunctionCall,
    runOptions?: DispatchRunOptions,
  ): Promise<GeminiDispatchResult> {
    if (typeof call !== "object" || call === null) {
      throw new AgentoolError(
        "createGeminiToolDispatcher: dispatch expects a functionCall ({ id?, name, args }).",
      );
    }
    const name = call.name ?? "";
    const outcome = await dispatchToolCall(
      registry,
      { name, arguments: call.args ?? {}, toolCallId: call.id },
      gate,
      runOptions,
    );
    const result = outcome.result;
    const response: GeminiFunctionResponsePart["functionResponse"]["response"] = result.success
      ? { output: contentToText(outcome.content) }
      : {
          error: {
            code: result.error.code,
            message: result.error.message,
            ...(result.error.hint === undefined ? {} : { hint: result.error.hint }),
          },
        };
    const functionResponse: GeminiFunctionResponsePart["functionResponse"] = { name, response };
    if (call.id !== undefined) functionResponse.id = call.id;
    return { part: { functionResponse }, result };
  }

  return {
    dispatch,
    dispatchAll: (calls, runOptions) =>
      Promise.all(calls.map((call) => dispatch(call, runOptions))),
  };
}
