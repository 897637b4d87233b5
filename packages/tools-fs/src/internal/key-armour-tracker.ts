import { createPrivateKeyLineScanner } from "@agentool/contract";
import { looksLikeArmourLine } from "./private-key-lines.js";

/**
 * Lines a streamed page looks back for a key block that starts before it, widened while every
 * line looked back on could be key armour (`looksLikeArmourLine`): most keys are < 120 lines, a
 * PGP block with a photo ID a few thousand.
 *
 * @internal
 */
export const KEY_LOOKBACK_STEPS = [256, 2_048, 16_384] as const;

/**
 * Tells which lines of a streamed page belong to a private key, from a window that starts a
 * little before the page (`lookback` lines, see {@link KEY_LOOKBACK_STEPS}).
 *
 * Feed it every line of the window in order: {@link before} for the lines before the page,
 * {@link startPage} once at the page's first line, then {@link pageLine} for each page line.
 * When every line before the page could sit inside key armour (base64 body, armour headers, the
 * blank line after them) and the window does not start at the top of the file, the page may lie
 * inside a block that began earlier: {@link startPage} then asks for a wider window, and after
 * the widest one the page's leading armour lines (and the END line that closes them) count as
 * key lines.
 *
 * @internal
 */
export class KeyArmourTracker {
  readonly #isKeyLine = createPrivateKeyLineScanner();
  /** Whether every line before the page could be key armour, the window not at the top. */
  #bodyBefore: boolean;
  /** Only after the widest window: the page's leading body lines count as key lines. */
  #orphanBody = false;

  /**
   * @param bodyBefore - whether the window has lines before the page and does not start at the
   *   top of the file (until a line before the page proves otherwise, the page may be inside a
   *   key block)
   */
  constructor(bodyBefore: boolean) {
    this.#bodyBefore = bodyBefore;
  }

  /** Whether every line looked back on could be key armour (so a wider window may be needed). */
  get bodyBefore(): boolean {
    return this.#bodyBefore;
  }

  /** Sees a line before the page (only the key scanner looks at it). */
  before(text: string): void {
    this.#isKeyLine(text);
    if (this.#bodyBefore && !looksLikeArmourLine(text.trim())) this.#bodyBefore = false;
  }

  /**
   * Called at the page's first line.
   *
   * @param last - whether this is the widest window
   * @returns `true` when the window must be widened and read again
   */
  startPage(last: boolean): boolean {
    if (this.#bodyBefore && !last) return true;
    this.#orphanBody = this.#bodyBefore;
    return false;
  }

  /** Whether a page line belongs to a private key. */
  pageLine(text: string): boolean {
    let keyLine = this.#isKeyLine(text);
    if (this.#orphanBody) {
      // Inside a block whose BEGIN is out of reach: armour lines, then its END line.
      const trimmed = text.trim();
      if (keyLine || !looksLikeArmourLine(trimmed)) {
        this.#orphanBody = false;
        if (trimmed.includes("-----END ") && trimmed.includes("PRIVATE KEY")) keyLine = true;
      } else keyLine = true;
    }
    return keyLine;
  }
}
