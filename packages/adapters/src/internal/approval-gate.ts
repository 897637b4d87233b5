import { type AnyTool, fail, type RunOptions, type ToolResult } from "@agentool/contract";
import type { ApproveFunction } from "../approval.js";

const DO_NOT_RETRY_HINT =
  "Do not retry the same call. Tell the user what you wanted to do and ask how to proceed, or continue without this action.";

/** Resolves to "aborted" when the signal aborts; `stop()` removes the listener. */
function waitForAbort(signal: AbortSignal): { aborted: Promise<"aborted">; stop: () => void } {
  let onAbort: () => void = () => {};
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return { aborted, stop: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * Asks the gate about a call of a destructive tool.
 *
 * @param tool - the tool about to run
 * @param input - the model's arguments
 * @param options - the run options (ids, signal)
 * @param approve - the host's gate
 * @returns a failure envelope when the call must not run, `undefined` when it may
 */
async function refusal(
  tool: AnyTool,
  input: unknown,
  options: RunOptions,
  approve: ApproveFunction,
): Promise<ToolResult<unknown> | undefined> {
  const request = {
    tool,
    name: tool.name,
    input,
    toolCallId: options.toolCallId,
    threadId: options.threadId,
  };
  let decision: unknown;
  const abort = options.signal === undefined ? undefined : waitForAbort(options.signal);
  try {
    const answer = Promise.resolve().then(() => approve(request));
    decision = await (abort === undefined ? answer : Promise.race([answer, abort.aborted]));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return fail(
      "BLOCKED",
      `${tool.name} needs the user's approval and the approval check failed (${detail}), so the call was not run.`,
      { hint: DO_NOT_RETRY_HINT },
    );
  } finally {
    abort?.stop();
  }
  if (decision === "aborted") {
    return fail("ABORTED", `${tool.name} was cancelled while waiting for approval.`, {
      retryable: true,
    });
  }
  if (decision === true) return undefined;
  return fail("BLOCKED", `The user did not approve this call to ${tool.name}, so it was not run.`, {
    hint: DO_NOT_RETRY_HINT,
  });
}

/**
 * Runs a tool, first asking `approve` when the tool is annotated `destructive: true` — with the
 * validated input; input that fails validation is refused with `INVALID_INPUT` without asking.
 * Never rejects: a refusal, a throwing gate or an abort while waiting become failure envelopes.
 *
 * @param tool - the tool to run
 * @param input - the model's arguments (validated by `tool.parseInput` / `tool.run`)
 * @param options - run options passed to `tool.run`
 * @param approve - the host's gate, if any
 * @returns the tool's envelope, or `BLOCKED` / `ABORTED` when the gate stopped the call
 */
export function runWithApproval(
  tool: AnyTool,
  input: unknown,
  options: RunOptions,
  approve: ApproveFunction | undefined,
): Promise<ToolResult<unknown>> {
  if (approve === undefined || tool.annotations.destructive !== true || options.signal?.aborted) {
    return tool.run(input, options);
  }
  // Never ask a person about a call that would be refused anyway; show them what will really run.
  const parsed = tool.parseInput(input);
  if (!parsed.success) return Promise.resolve(parsed);
  return refusal(tool, parsed.data, options, approve).then(
    (stopped) => stopped ?? tool.run(parsed.data, options),
  );
}
