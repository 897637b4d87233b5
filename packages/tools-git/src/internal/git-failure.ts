import { type ErrorCode, type FailOptions, fail, type ToolFailure } from "@agentool/contract";

/** A failure thrown inside a git tool and turned back into its envelope by {@link guard}. */
export class GitToolFailure extends Error {
  /** The envelope to return. */
  readonly failure: ToolFailure;

  constructor(failure: ToolFailure) {
    super(failure.error.message);
    this.name = "GitToolFailure";
    this.failure = failure;
  }
}

/**
 * Throws a failure envelope out of deep helper code.
 *
 * @param code - a shared error code
 * @param message - what went wrong
 * @param options - hint and retryable flag
 */
export function refuse(code: ErrorCode, message: string, options: FailOptions = {}): never {
  throw new GitToolFailure(fail(code, message, options));
}

/**
 * Throws a ready-made failure envelope (e.g. the contract's `offsetPastEnd()`) out of deep code.
 *
 * @param failure - the envelope to return
 */
export function refuseWith(failure: ToolFailure): never {
  throw new GitToolFailure(failure);
}

/**
 * Runs a tool body and turns a thrown {@link GitToolFailure} into its envelope; anything else is
 * rethrown (the contract maps it to `INTERNAL`).
 *
 * @param work - the tool body
 * @returns the body's result or the thrown failure
 */
export async function guard<T>(work: () => Promise<T>): Promise<T | ToolFailure> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GitToolFailure) return error.failure;
    throw error;
  }
}
