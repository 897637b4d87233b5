import { formatCount } from "@agentool/contract";
import { PreviewError } from "../preview-backend.js";

/** Most of its own files one page may load (a page that asks for more is looping). */
export const MAX_ASSET_REQUESTS = 2_000;

/** Most bytes of its own files one page may load, as a multiple of the artifact cap. */
export const MAX_ASSET_BYTES_FACTOR = 20;

/**
 * What one page has loaded of its own files, and the caps a hostile page meets: at most
 * {@link MAX_ASSET_REQUESTS} files and {@link MAX_ASSET_BYTES_FACTOR} × the artifact cap in bytes.
 */
export class AssetBudget {
  #requests = 0;
  #bytes = 0;
  readonly #maxBytes: number;

  /** @param maxArtifactBytes - the tool's cap on one file */
  constructor(maxArtifactBytes: number) {
    this.#maxBytes = maxArtifactBytes * MAX_ASSET_BYTES_FACTOR;
  }

  /**
   * Counts one more file, refusing it past the caps.
   *
   * @throws PreviewError `TOO_LARGE` past either cap
   */
  admit(): void {
    if (this.#requests >= MAX_ASSET_REQUESTS)
      throw new PreviewError(
        "TOO_LARGE",
        `the page asked for more than ${formatCount(MAX_ASSET_REQUESTS)} of its files`,
        "Load fewer files (a loop that fetches files?), or open the artifact again.",
      );
    if (this.#bytes >= this.#maxBytes)
      throw new PreviewError(
        "TOO_LARGE",
        `the page loaded more than ${formatCount(this.#maxBytes)} bytes of its files`,
        "Load less data, or open the artifact again.",
      );
    this.#requests += 1;
  }

  /** @param bytes - the size of a file served */
  served(bytes: number): void {
    this.#bytes += bytes;
  }
}
