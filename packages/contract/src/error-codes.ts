/**
 * The closed list of error codes shared by every agentool family.
 *
 * Add a code only when no existing one fits; hosts switch on these strings.
 */
export const ERROR_CODES = [
  "INVALID_INPUT",
  "INVALID_PATH",
  "FILE_NOT_FOUND",
  "PERMISSION_DENIED",
  "FILE_ALREADY_EXISTS",
  "DIRECTORY_NOT_EMPTY",
  "PATTERN_NOT_UNIQUE",
  "PATTERN_NOT_FOUND",
  "NETWORK_ERROR",
  "GIT_ERROR",
  "MEMORY_KEY_NOT_FOUND",
  "TIMEOUT",
  "ABORTED",
  "TOO_LARGE",
  "BLOCKED",
  "UNSUPPORTED",
  "NOT_CONFIGURED",
  "DEPENDENCY_MISSING",
  "CONFLICT",
  "INTERNAL",
] as const;

/** One of the {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

const errorCodeSet: ReadonlySet<string> = new Set(ERROR_CODES);

/**
 * Tells whether a value is one of the shared error codes.
 *
 * @param value - anything
 * @returns `true` when `value` is an {@link ErrorCode}
 * @example
 * isErrorCode("TIMEOUT"); // true
 */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && errorCodeSet.has(value);
}
