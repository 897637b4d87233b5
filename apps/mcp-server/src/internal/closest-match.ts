/**
 * The edit distance between two strings (insertions, deletions, substitutions and swaps of
 * neighbours each count one).
 *
 * @param left - one string
 * @param right - the other
 * @returns how many edits turn `left` into `right`
 * @example
 * editDistance("--famlies", "--families"); // 1
 */
export function editDistance(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      const current = table[row] as number[];
      const previous = table[row - 1] as number[];
      let best = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + cost,
      );
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        best = Math.min(best, ((table[row - 2] as number[])[column - 2] as number) + 1);
      }
      current[column] = best;
    }
  }
  return (table[rows - 1] as number[])[columns - 1] as number;
}

/**
 * The candidate closest to a mistyped word, when one is close enough to be a typo (at most a
 * third of the word's length in edits, and at least one).
 *
 * @param word - what was typed
 * @param candidates - the known words
 * @returns the closest candidate, or `undefined` when none is close
 * @example
 * closestMatch("--famlies", ["--families", "--mode"]); // "--families"
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(1, Math.floor(word.length / 3));
  return bestDistance <= allowed ? best : undefined;
}
