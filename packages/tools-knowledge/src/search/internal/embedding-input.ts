/**
 * The text an embedder gets for a chunk: with `embedHeadingTrail`, `"Power > Limits: <text>"`;
 * without, the trail's headings one per line and then the text. A chunk with no trail embeds as
 * its text either way.
 *
 * @param text - the (sanitized) chunk text
 * @param headingTrail - the chunk's headings, outermost first
 * @param embedHeadingTrail - the option
 * @returns the embedder's input
 * @example
 * embeddingInput("The regulator caps at 5V.", ["Power", "Limits"], true);
 * // → "Power > Limits: The regulator caps at 5V."
 * @internal
 */
export function embeddingInput(
  text: string,
  headingTrail: readonly string[],
  embedHeadingTrail: boolean,
): string {
  if (headingTrail.length === 0) return text;
  return embedHeadingTrail
    ? `${headingTrail.join(" > ")}: ${text}`
    : `${headingTrail.join("\n")}\n${text}`;
}
