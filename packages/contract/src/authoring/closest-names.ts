/** At most this many candidates are compared by {@link closestNames}. */
const MAX_CANDIDATES_COMPARED = 20_000;

/**
 * The Levenshtein distance of two strings, stopping early once it must exceed `ceiling`.
 *
 * @param left - one string
 * @param right - the other
 * @param ceiling - the largest distance of interest (default: unbounded)
 * @returns the distance, or `ceiling + 1` when it is larger than `ceiling`
 */
export function editDistance(
  left: string,
  right: string,
  ceiling = Number.POSITIVE_INFINITY,
): number {
  if (left === right) return 0;
  if (Math.abs(left.length - right.length) > ceiling) return ceiling + 1;
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    let best = row;
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left.charCodeAt(row - 1) === right.charCodeAt(column - 1) ? 0 : 1;
      const value = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + cost,
      );
      current.push(value);
      if (value < best) best = value;
    }
    if (best > ceiling) return ceiling + 1;
    previous = current;
  }
  return previous[right.length] as number;
}

/** Options of {@link closestNames}. */
export interface ClosestNamesOptions {
  /** How many names to return at most. Default 3. */
  count?: number;
  /** The largest edit distance still taken for a typo. Default: half the target's length, at least 2. */
  maxDistance?: number;
  /** Whether a name that contains the target (or is contained in it) counts as close. Default `true`. */
  containment?: boolean;
}

/**
 * The "did you mean" of every family: the candidates closest to a mistyped name — the same
 * letters in another case first, then names that contain it or that it contains, then by edit
 * distance. Deterministic (ties by name); at most 20,000 candidates are compared.
 *
 * @param target - what was typed
 * @param candidates - the known names
 * @param options - how many, and how far a typo may be
 * @returns the closest names, best first (empty when none is close)
 * @example
 * closestNames("raed_file", ["read_file", "write_file"]); // ["read_file"]
 */
export function closestNames(
  target: string,
  candidates: Iterable<string>,
  options: ClosestNamesOptions = {},
): string[] {
  const wanted = target.toLowerCase();
  const ceiling = options.maxDistance ?? Math.max(2, Math.floor(wanted.length / 2));
  const containment = options.containment ?? true;
  const scored: Array<{ name: string; score: number }> = [];
  let compared = 0;
  for (const name of candidates) {
    if (compared >= MAX_CANDIDATES_COMPARED) break;
    compared += 1;
    const lower = name.toLowerCase();
    let score: number;
    if (lower === wanted) score = 0;
    else if (
      containment &&
      wanted.length > 0 &&
      (lower.includes(wanted) || wanted.includes(lower))
    ) {
      score = 0.5 + Math.abs(lower.length - wanted.length) / 1_000;
    } else {
      const distance = editDistance(wanted, lower, ceiling);
      if (distance > ceiling) continue;
      score = 1 + distance;
    }
    scored.push({ name, score });
  }
  scored.sort((left, right) => left.score - right.score || (left.name < right.name ? -1 : 1));
  return scored.slice(0, options.count ?? 3).map((entry) => entry.name);
}
