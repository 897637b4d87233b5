import type { ErrorCode } from "@agentool/contract";

const marker = Symbol.for("agentool.knowledge-source-error");

/**
 * What a {@link KnowledgeSource} throws for a failure the model or host should hear about in the
 * contract's terms (a corpus root that does not exist → `NOT_CONFIGURED`, an embedder that is
 * down → `NETWORK_ERROR`…). `search_knowledge` turns it into the failure envelope with its code
 * and hint; anything else a source throws becomes `INTERNAL`.
 */
export class KnowledgeSourceError extends Error {
  /** @internal */
  readonly [marker] = true;
  /** The contract's error code. */
  readonly code: ErrorCode;
  /** The next step, for the model or the host. */
  readonly hint: string | undefined;
  /** Whether the same call may succeed later. */
  readonly retryable: boolean;

  /**
   * @param code - the contract's error code
   * @param message - what went wrong
   * @param options - the next step (`hint`), whether a retry may pass, the cause
   * @example
   * throw new KnowledgeSourceError("NOT_CONFIGURED", "The corpus root /srv/docs does not exist.", {
   *   hint: "The host must create it or point root at an existing folder.",
   * });
   */
  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "KnowledgeSourceError";
    this.code = code;
    this.hint = options.hint;
    this.retryable = options.retryable ?? false;
  }

  /**
   * Tells whether a value is a {@link KnowledgeSourceError}, even from another copy of this package.
   *
   * @param value - anything
   * @returns `true` for a knowledge source error
   */
  static isInstance(value: unknown): value is KnowledgeSourceError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
