import { type ErrorCode, isErrorCode } from "./error-codes.js";

/** Why a tool call failed: a code from the shared list and a message that names the next step. */
export interface ToolError {
  /** A code from the shared, closed list. */
  code: ErrorCode;
  /** What went wrong, written for the model. */
  message: string;
  /** What to do next (another call, another tool, ask the user). */
  hint?: string;
  /** Whether the same call may succeed when repeated unchanged. */
  retryable?: boolean;
}

/** A successful tool call. */
export interface ToolSuccess<T> {
  success: true;
  data: T;
}

/** A failed tool call. */
export interface ToolFailure {
  success: false;
  error: ToolError;
}

/** The envelope every tool's `run` resolves to. */
export type ToolResult<T> = ToolSuccess<T> | ToolFailure;

/**
 * Wraps data in a success envelope.
 *
 * @param data - the tool's result
 * @returns `{ success: true, data }`
 * @example
 * return ok({ lines: 12 });
 */
export function ok<T>(data: T): ToolSuccess<T> {
  return { success: true, data };
}

/** Extra fields of a {@link ToolError}. */
export interface FailOptions {
  /** What to do next. */
  hint?: string;
  /** Whether the same call may succeed when repeated unchanged. */
  retryable?: boolean;
}

/**
 * Builds a failure envelope.
 *
 * @param code - a code from the shared list
 * @param message - what went wrong, written for the model
 * @param options - an optional hint and retryable flag
 * @returns `{ success: false, error }`
 * @example
 * return fail("FILE_NOT_FOUND", "notes.md does not exist.", { hint: "Call list_directory to see what exists." });
 */
export function fail(code: ErrorCode, message: string, options: FailOptions = {}): ToolFailure {
  const error: ToolError = { code, message };
  if (options.hint !== undefined) error.hint = options.hint;
  if (options.retryable !== undefined) error.retryable = options.retryable;
  return { success: false, error };
}

/**
 * Tells whether a value is a well-formed envelope (`ok` or `fail` shape with a known code).
 *
 * @param value - anything
 * @returns `true` when `value` is a {@link ToolResult}
 */
export function isToolResult(value: unknown): value is ToolResult<unknown> {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record.success === true) return "data" in record;
  if (record.success !== false) return false;
  const error = record.error;
  if (typeof error !== "object" || error === null) return false;
  const errorRecord = error as Record<string, unknown>;
  return (
    isErrorCode(errorRecord.code) &&
    typeof errorRecord.message === "string" &&
    errorRecord.message.length > 0 &&
    (errorRecord.hint === undefined || typeof errorRecord.hint === "string") &&
    (errorRecord.retryable === undefined || typeof errorRecord.retryable === "boolean")
  );
}
