import { closestNames } from "@agentool/contract";

/**
 * The candidate closest to a mistyped word, when one is close enough to be a typo: the
 * contract's `closestNames` within a third of the word's length in edits (at least one), no
 * containment. A swap of two neighbours counts as one edit here ("gti" → "git"), as the
 * command line always suggested; the contract's edit distance counts it as two.
 *
 * @param word - what was typed
 * @param candidates - the known words
 * @returns the closest candidate, or `undefined` when none is close
 * @example
 * closestMatch("--famlies", ["--families", "--mode"]); // "--families"
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const maxDistance = Math.max(1, Math.floor(word.length / 3));
  const direct = closestNames(word, candidates, { count: 1, maxDistance, containment: false })[0];
  if (direct !== undefined) return direct;
  for (let index = 0; index + 1 < word.length; index += 1) {
    const swapped = `${word.slice(0, index)}${word[index + 1]}${word[index]}${word.slice(index + 2)}`;
    const options = { count: 1, maxDistance: maxDistance - 1, containment: false };
    const match = closestNames(swapped, candidates, options)[0];
    if (match !== undefined) return match;
  }
  return undefined;
}
