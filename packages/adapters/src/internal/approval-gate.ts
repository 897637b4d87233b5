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

/**
 * The gate of a destructive tool whose host decided nothing (no `approve`, no
 * `allowDestructive: true`): every call is refused with `BLOCKED`, never run.
 *
 * @internal
 */
export const HOST_UNDECIDED: unique symbol = Symbol("agentool.hostUndecided");

/** What stands before one tool's calls: the host's gate, or {@link HOST_UNDECIDED}. @internal */
export type CallGate = ApproveFunction | typeof HOST_UNDECIDED;

/** The approval options every adapter entry takes. @internal */
export interface ApprovalOptions {
  /** The host's gate. */
  approve?: ApproveFunction | undefined;
  /** Which tools go through the gate (default: annotated destructive). */
  requireApproval?: RequireApprovalFunction | undefined;
  /** The host's decision to run destructive tools without a gate. */
  allowDestructive?: boolean | undefined;
}

/**
 * The refusal of a destructive tool on a host that decided nothing: names both ways to decide.
 *
 * @param tool - the refused tool
 * @returns the `BLOCKED` envelope
 * @internal
 */
export function undecidedRefusal(tool: AnyTool): ToolResult<unknown> {
  return fail(
    "BLOCKED",
    `${tool.name} can change or delete things, and this host has not decided whether the agent may run such tools, so the call was not run.`,
    {
      hint: `Do not retry. Tell the user that ${tool.name} is not enabled here: the host enables it with an approve gate (the user confirms each call) or with allowDestructive: true.`,
    },
  );
}

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
 * Decides, once per tool, what stands before its calls: with `approve`, the gate itself when
 * `requireApproval(tool)` (default: annotated `destructive: true`) says so; without `approve`, a
 * destructive tool is refused ({@link HOST_UNDECIDED}) unless the host passed
 * `allowDestructive: true`. `undefined` runs the tool unasked.
 *
 * @param owner - the public factory's name, used in error messages
 * @param tool - the tool (overrides applied: the predicate sees the name the model sees)
 * @param options - the host's `approve`, `requireApproval` and `allowDestructive`
 * @returns the gate to ask before each call of this tool, {@link HOST_UNDECIDED}, or `undefined`
 * @throws AgentoolError when the predicate throws or returns something other than a boolean
 * @internal
 */
export function approvalGateFor(
  owner: string,
  tool: AnyTool,
  options: ApprovalOptions,
): CallGate | undefined {
  const candidate = { name: tool.name, annotations: tool.annotations, tags: tool.tags };
  const approve = options.approve;
  if (approve === undefined) {
    return options.allowDestructive !== true && defaultRequireApproval(candidate)
      ? HOST_UNDECIDED
      : undefined;
  }
  const predicate = options.requireApproval ?? defaultRequireApproval;
  let needed: unknown;
  try {
    needed = predicate(candidate);
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
export function checkApprovalOptions(owner: string, options: ApprovalOptions): void {
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
 * @param approve - the gate for this tool, if its calls need approval ({@link HOST_UNDECIDED}
 *   refuses every call)
 * @returns the tool's envelope, or `BLOCKED` / `ABORTED` when the gate stopped the call
 */
export function runWithApproval(
  tool: AnyTool,
  input: unknown,
  options: RunOptions,
  approve: CallGate | undefined,
): Promise<ToolResult<unknown>> {
  if (approve === HOST_UNDECIDED) return Promise.resolve(undecidedRefusal(tool));
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
