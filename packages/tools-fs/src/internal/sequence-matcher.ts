/**
 * Knuth–Morris–Pratt over a sequence of values compared with `===` (lines, line ids): values are
 * fed one at a time and every place the pattern ends is reported, overlapping ones included.
 * Linear in the values and the pattern however repetitive both are — the one search behind
 * edit_file's loose-match diagnosis and apply_patch's hunk location.
 *
 * @internal
 */
export class SequenceMatcher<Value> {
  readonly #pattern: ArrayLike<Value>;
  /** border[i]: length of the longest proper prefix of pattern[0..i] that is also its suffix. */
  readonly #border: Int32Array;
  #matched = 0;

  /** @param pattern - the values to find, at least one */
  constructor(pattern: ArrayLike<Value>) {
    if (pattern.length === 0) throw new RangeError("SequenceMatcher: the pattern is empty");
    this.#pattern = pattern;
    this.#border = new Int32Array(pattern.length);
    for (let index = 1, length = 0; index < pattern.length; index += 1) {
      while (length > 0 && pattern[index] !== pattern[length]) {
        length = this.#border[length - 1] as number;
      }
      if (pattern[index] === pattern[length]) length += 1;
      this.#border[index] = length;
    }
  }

  /** The pattern's length. */
  get length(): number {
    return this.#pattern.length;
  }

  /**
   * Feeds the next value.
   *
   * @param value - the sequence's next value
   * @returns whether the pattern ends at this value (it started `length - 1` values earlier)
   */
  push(value: Value): boolean {
    let matched = this.#matched;
    while (matched > 0 && value !== this.#pattern[matched]) {
      matched = this.#border[matched - 1] as number;
    }
    if (value === this.#pattern[matched]) matched += 1;
    if (matched === this.#pattern.length) {
      this.#matched = this.#border[matched - 1] as number;
      return true;
    }
    this.#matched = matched;
    return false;
  }
}
