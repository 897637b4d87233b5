import {
  AgentoolError,
  type AnyTool,
  errorMessage,
  fail,
  type RunOptions,
  type ToolResult,
} from "@agentool/contract";
import {
  type ApproveFunction,
  defaultRequireApproval,
  type RequireApprovalFunction,
} from "../approval.js";

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
 * Asks the gate about a call of a tool that needs approval.
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
    const detail = errorMessage(error);
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
 * Decides, once per tool, whether its calls go through the gate: the gate itself when
 * `requireApproval(tool)` (default: annotated `destructive: true`) says so, else `undefined`.
 *
 * @param owner - the public factory's name, used in error messages
 * @param tool - the tool (overrides applied: the predicate sees the name the model sees)
 * @param approve - the host's gate, if any
 * @param requireApproval - the host's predicate, if any
 * @returns the gate to ask before each call of this tool, or `undefined` to run it unasked
 * @throws AgentoolError when the predicate throws or returns something other than a boolean
 */
export function approvalGateFor(
  owner: string,
  tool: AnyTool,
  approve: ApproveFunction | undefined,
  requireApproval: RequireApprovalFunction | undefined,
): ApproveFunction | undefined {
  if (approve === undefined) return undefined;
  const predicate = requireApproval ?? defaultRequireApproval;
  let needed: unknown;
  try {
    needed = predicate({ name: tool.name, annotations: tool.annotations, tags: tool.tags });
  } catch (error) {
    const detail = errorMessage(error);
    throw new AgentoolError(
      `${owner}: requireApproval threw for the tool ${tool.name}: ${detail}`,
      {
        cause: error,
      },
    );
  }
  if (typeof needed !== "boolean") {
    throw new AgentoolError(
      `${owner}: requireApproval must return true or false; for the tool ${tool.name} it returned ${needed === null ? "null" : typeof needed}.`,
    );
  }
  return needed ? approve : undefined;
}

/**
 * Checks the approval options together: `requireApproval` without `approve` would name tools
 * that need approval and then run them unasked, so it is refused.
 *
 * @param owner - the public factory's name, used in error messages
 * @param options - the parsed `approve` and `requireApproval`
 * @throws AgentoolError when `requireApproval` is given without `approve`
 */
export function checkApprovalOptions(
  owner: string,
  options: { approve?: ApproveFunction; requireApproval?: RequireApprovalFunction },
): void {
  if (options.requireApproval !== undefined && options.approve === undefined) {
    throw new AgentoolError(
      `${owner}: requireApproval was given without approve, so the tools it picks would run unasked; pass approve (the gate) too.`,
    );
  }
}

/**
 * Runs a tool, first asking `approve` when one is given (see {@link approvalGateFor} for which
 * tools get one) — with the validated input; input that fails validation is refused with
 * `INVALID_INPUT` without asking. Never rejects: a refusal, a throwing gate or an abort while
 * waiting become failure envelopes.
 *
 * @param tool - the tool to run
 * @param input - the model's arguments (validated by `tool.parseInput` / `tool.run`)
 * @param options - run options passed to `tool.run`
 * @param approve - the gate for this tool, if its calls need approval
 * @returns the tool's envelope, or `BLOCKED` / `ABORTED` when the gate stopped the call
 */
export function runWithApproval(
  tool: AnyTool,
  input: unknown,
  options: RunOptions,
  approve: ApproveFunction | undefined,
): Promise<ToolResult<unknown>> {
  if (approve === undefined || options.signal?.aborted) {
    return tool.run(input, options);
  }
  // Never ask a person about a call that would be refused anyway; show them what will really run.
  const parsed = tool.parseInput(input);
  if (!parsed.success) return Promise.resolve(parsed);
  return refusal(tool, parsed.data, options, approve).then(
    (stopped) => stopped ?? tool.run(parsed.data, options),
  );
}
