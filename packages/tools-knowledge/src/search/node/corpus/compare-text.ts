/**
 * Orders two strings by UTF-16 code units (the order paths are sorted in everywhere in the index,
 * whatever the locale).
 *
 * @param left - one string
 * @param right - the other
 * @returns negative, zero or positive
 */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
