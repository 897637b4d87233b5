import { type ErrorCode, ToolFailureError } from "@agentool/contract";

const marker = Symbol.for("agentool.knowledge-source-error");

/**
 * What a {@link KnowledgeSource} throws for a failure the model or host should hear about in the
 * contract's terms (a corpus root that does not exist → `NOT_CONFIGURED`, an embedder that is
 * down → `NETWORK_ERROR`…). A {@link ToolFailureError}: `search_knowledge`'s `run` turns it into
 * the failure envelope with its code, hint and `retryable` (`false` unless given); anything else a
 * source throws becomes `INTERNAL`.
 */
export class KnowledgeSourceError extends ToolFailureError {
  /** @internal */
  readonly [marker] = true;
  /** Whether the same call may succeed later. */
  declare readonly retryable: boolean;

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
    super(code, message, { ...options, retryable: options.retryable ?? false });
    this.name = "KnowledgeSourceError";
  }

  /**
   * Tells whether a value is a {@link KnowledgeSourceError}, even from another copy of this package.
   *
   * @param value - anything
   * @returns `true` for a knowledge source error
   */
  static override isInstance(value: unknown): value is KnowledgeSourceError {
    return typeof value === "object" && value !== null && marker in value;
  }
}

/** Longest backend message quoted to the model in a failure: `errorMessage(error, QUOTED_MESSAGE_CHARACTERS)`. */
export const QUOTED_MESSAGE_CHARACTERS = 300;
