/**
 * The embedder's health as the corpus source sees it: when it last failed and why. For
 * `cooldownMs` after a failure neither searches nor refreshes call it (BM25 answers, with a
 * warning), so a down embedder does not slow every search.
 */
export class EmbedderHealth {
  readonly #cooldownMs: number;
  #failedAt = Number.NEGATIVE_INFINITY;
  #lastError = "";

  /**
   * @param cooldownMs - quiet time after a failure
   */
  constructor(cooldownMs: number) {
    this.#cooldownMs = cooldownMs;
  }

  /** The message of the last failure (`""` before any). */
  get lastError(): string {
    return this.#lastError;
  }

  /** Whether the embedder failed less than `cooldownMs` ago. */
  coolingDown(): boolean {
    return performance.now() - this.#failedAt < this.#cooldownMs;
  }

  /**
   * Records a failure now.
   *
   * @param message - what went wrong
   */
  failed(message: string): void {
    this.#failedAt = performance.now();
    this.#lastError = message;
  }
}
