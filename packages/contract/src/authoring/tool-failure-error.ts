import type { ErrorCode } from "../error-codes.js";
import { type FailOptions, fail, type ToolFailure } from "../result.js";

const marker = Symbol.for("agentool.tool-failure-error");

/** What a {@link ToolFailureError} carries besides its code and message. */
export interface ToolFailureErrorOptions extends FailOptions {
  /** The underlying error. */
  cause?: unknown;
}

/**
 * An expected failure thrown from inside a tool or a seam (a file system, a transport, a backend)
 * with a code from the shared list. `run` maps it to the failure envelope with its code, message,
 * hint and `retryable`, wherever it is thrown — also as the `cause` of another error. Families
 * subclass it for their seams (`FileSystemError`, `WebRequestError`, …); anything else thrown
 * stays `INTERNAL`.
 *
 * @example
 * throw new ToolFailureError("FILE_NOT_FOUND", "notes.md does not exist.", {
 *   hint: "Call list_directory to see what exists.",
 * });
 */
export class ToolFailureError extends Error {
  /** @internal */
  readonly [marker] = true;
  /** The shared error code the tool reports. */
  readonly code: ErrorCode;
  /** What to do next, for the model. */
  readonly hint: string | undefined;
  /** Whether the same call may succeed when repeated unchanged. */
  readonly retryable: boolean | undefined;

  /**
   * @param code - a code from the shared list
   * @param message - what went wrong, written for the model
   * @param options - the next step (`hint`), whether a retry may pass, the cause
   */
  constructor(code: ErrorCode, message: string, options: ToolFailureErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolFailureError";
    this.code = code;
    this.hint = options.hint;
    this.retryable = options.retryable;
  }

  /** The failure envelope this error stands for. */
  toFailure(): ToolFailure {
    return fail(this.code, this.message, {
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.retryable === undefined ? {} : { retryable: this.retryable }),
    });
  }

  /**
   * The error that stands for a failure envelope (the inverse of {@link ToolFailureError.toFailure}):
   * for code deep inside a tool that builds a shared failure (`offsetPastEnd(…)`) and must throw.
   *
   * @param failure - a failure envelope
   * @returns the error carrying its code, message, hint and `retryable`
   * @example
   * if (isOffsetPastEnd(offset, total)) {
   *   throw ToolFailureError.fromFailure(offsetPastEnd({ tool: "read_document", offset, total, unit: "rows" }));
   * }
   */
  static fromFailure(failure: ToolFailure): ToolFailureError {
    const { code, message, hint, retryable } = failure.error;
    return new ToolFailureError(code, message, {
      ...(hint === undefined ? {} : { hint }),
      ...(retryable === undefined ? {} : { retryable }),
    });
  }

  /**
   * Tells whether a value is a {@link ToolFailureError} (a subclass too), even from another copy
   * of the contract.
   *
   * @param value - anything
   * @returns `true` for a coded tool failure
   */
  static isInstance(value: unknown): value is ToolFailureError {
    return typeof value === "object" && value !== null && marker in value;
  }

  /**
   * The first {@link ToolFailureError} among a thrown value and its `cause`s (eight deep).
   *
   * @param value - anything thrown
   * @returns the error, or `undefined`
   */
  static find(value: unknown): ToolFailureError | undefined {
    let current: unknown = value;
    for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth += 1) {
      if (ToolFailureError.isInstance(current)) return current;
      current = (current as { cause?: unknown }).cause;
    }
    return undefined;
  }
}
