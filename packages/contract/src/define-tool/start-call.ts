import { AgentoolError } from "../agentool-error.js";
import type { RunOptions, ToolContext, ToolInputSchema } from "../define-tool.js";
import { subscribeToAbort } from "../internal/abort-listeners.js";
import { cancelDeadline, type Deadline, scheduleDeadline } from "../internal/deadline-scheduler.js";
import { fail, type ToolResult } from "../result.js";
import { checkResult, internalError } from "./call-failures.js";
import type { ToolCore } from "./tool-core.js";
import { validateInput } from "./validate-input.js";

const EMPTY_METADATA: Readonly<Record<string, unknown>> = Object.freeze({});

function noop(): void {}

/**
 * Tells whether a value is a promise-like (has a callable `then`).
 *
 * @param value - anything
 * @returns `true` for a thenable
 * @internal
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** Why a call was stopped before `execute` settled. */
type StopReason = "timeout" | "aborted";

/**
 * One call's cancellation: the `AbortController` behind `context.signal`, made on first use
 * (most fast tools never look at it), and why the call was stopped, if it was.
 */
class CallControl {
  controller: AbortController | undefined = undefined;
  outcome: StopReason | undefined = undefined;

  constructor(
    readonly name: string,
    readonly limit: number,
    readonly callerSignal: AbortSignal | undefined,
  ) {}

  /** The signal handed to `execute`, aborted already when the call was stopped before. */
  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.outcome !== undefined) this.controller.abort(this.reason());
    }
    return this.controller.signal;
  }

  /** The abort reason `execute` sees: a timeout error, or the caller's own reason. */
  reason(): unknown {
    return this.outcome === "timeout"
      ? new AgentoolError(`${this.name} timed out after ${this.limit} ms`)
      : this.callerSignal?.reason;
  }
}

/**
 * Validates and starts one call; a synchronous `execute` yields a result without a promise.
 * Throws only what a hostile input or option throws (`run` maps it).
 *
 * @param core - the tool
 * @param rawInput - what the caller sent
 * @param options - the caller's run options
 * @returns the envelope, or its promise when `execute` is asynchronous
 * @internal
 */
export function startCall<Input extends ToolInputSchema, Output>(
  core: ToolCore<Input, Output>,
  rawInput: unknown,
  options: RunOptions,
): ToolResult<Output> | Promise<ToolResult<Output>> {
  const callerSignal = options.signal;
  if (callerSignal?.aborted) {
    return fail("ABORTED", `${core.name} was cancelled before it started.`, { retryable: true });
  }
  const parsed = validateInput(core, rawInput);
  if (!parsed.success) return parsed;

  const control = new CallControl(core.name, options.timeoutMs ?? core.timeoutMs, callerSignal);
  const reportProgress = options.progress;
  const context: ToolContext = {
    get signal() {
      return control.signal();
    },
    toolCallId: options.toolCallId,
    threadId: options.threadId,
    metadata:
      options.metadata === undefined ? EMPTY_METADATA : Object.freeze({ ...options.metadata }),
    progress: reportProgress
      ? (update) => {
          try {
            reportProgress(update);
          } catch {
            // A broken progress listener must not break the tool.
          }
        }
      : noop,
  };

  let returned: unknown;
  try {
    returned = core.execute(parsed.data, context);
  } catch (error) {
    return internalError(core.name, error);
  }
  // A synchronous execute has finished already: nothing left to time out or abort.
  if (!isThenable(returned)) return checkResult(core.name, returned);
  return awaitCall(core.name, control, returned);
}

/**
 * Waits for an asynchronous `execute` under the call's deadline and the caller's signal; the
 * first of the three to settle decides the envelope.
 */
function awaitCall<Output>(
  name: string,
  control: CallControl,
  pending: PromiseLike<unknown>,
): Promise<ToolResult<Output>> {
  const limit = control.limit;
  return new Promise<ToolResult<Output>>((resolve) => {
    let finished = false;
    let deadline: Deadline | undefined;
    let unsubscribe: (() => void) | undefined;
    const finish = (result: ToolResult<Output>) => {
      if (finished) return;
      finished = true;
      if (deadline !== undefined) cancelDeadline(deadline);
      unsubscribe?.();
      resolve(result);
    };
    const stop = (why: StopReason) => {
      if (finished || control.outcome !== undefined) return;
      control.outcome = why;
      control.controller?.abort(control.reason());
      finish(
        why === "timeout"
          ? fail("TIMEOUT", `${name} did not finish within ${limit} ms and was stopped.`, {
              hint: "Try a smaller request, or call again if the delay was temporary.",
              retryable: true,
            })
          : fail("ABORTED", `${name} was cancelled by the caller.`, { retryable: true }),
      );
    };
    if (control.callerSignal !== undefined)
      unsubscribe = subscribeToAbort(control.callerSignal, () => stop("aborted"));
    if (limit > 0) deadline = scheduleDeadline(limit, () => stop("timeout"));
    pending.then(
      (result) => finish(checkResult<Output>(name, result)),
      (error: unknown) => finish(internalError(name, error)),
    );
  });
}
