/**
 * `part` as a whole-number percentage of `whole` (0 when `whole` is 0).
 *
 * @example percent(1, 4) // 25
 */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 100);
}
