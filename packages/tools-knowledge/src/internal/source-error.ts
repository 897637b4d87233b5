import type { ErrorCode } from "@agentool/contract";

/**
 * The marker `KnowledgeSourceError.isInstance` recognises (a global symbol, so it works across
 * copies of the package): the search tool turns an error carrying it into the failure envelope with
 * its code, hint and `retryable`.
 *
 * @internal
 */
export const KNOWLEDGE_SOURCE_ERROR_MARKER = Symbol.for("agentool.knowledge-source-error");

/** An error a knowledge source throws for a failure the model should hear about in the contract's terms. */
export interface SourceError extends Error {
  /** The contract's error code. */
  readonly code: ErrorCode;
  /** The next step. */
  readonly hint: string | undefined;
  /** Whether the same call may succeed later. */
  readonly retryable: boolean;
}

/**
 * Builds an error the search tool reports as `code` (with `hint` and `retryable`) instead of
 * `INTERNAL` — the shape of `KnowledgeSourceError`, recognised by its marker.
 *
 * @param code - the contract's error code
 * @param message - what went wrong
 * @param options - the next step, whether a retry may pass, the cause
 * @returns the error, to throw
 * @internal
 */
export function sourceError(
  code: ErrorCode,
  message: string,
  options: { hint?: string; retryable?: boolean; cause?: unknown } = {},
): SourceError {
  const error = new Error(
    message,
    options.cause === undefined ? undefined : { cause: options.cause },
  );
  error.name = "KnowledgeSourceError";
  return Object.assign(error, {
    [KNOWLEDGE_SOURCE_ERROR_MARKER]: true,
    code,
    hint: options.hint,
    retryable: options.retryable ?? false,
  });
}

/**
 * Whether a value carries the knowledge-source error marker.
 *
 * @param value - anything
 * @returns `true` for an error {@link sourceError} (or `KnowledgeSourceError`) made
 * @internal
 */
export function isSourceError(value: unknown): value is SourceError {
  return typeof value === "object" && value !== null && KNOWLEDGE_SOURCE_ERROR_MARKER in value;
}
