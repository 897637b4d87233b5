const marker = Symbol.for("agentool.error");

/**
 * Thrown only for programmer errors at set-up time (a bad tool definition, unknown factory
 * options) — never by `run`. Carries a stable marker so {@link AgentoolError.isInstance}
 * works across copies of the package.
 */
export class AgentoolError extends Error {
  /** @internal */
  readonly [marker] = true;

  /**
   * @param message - what is wrong and how to fix it
   * @param options - the underlying cause, if any
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AgentoolError";
  }

  /**
   * Tells whether a value is an {@link AgentoolError}, even from another copy of this package.
   *
   * @param value - anything
   * @returns `true` for an agentool set-up error
   */
  static isInstance(value: unknown): value is AgentoolError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
