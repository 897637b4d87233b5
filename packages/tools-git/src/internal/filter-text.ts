import { refuse } from "./git-failure.js";

/**
 * Checks a free-text filter (a date, an author) before it is attached to an option as
 * `--name=value`: at most 200 characters, no control characters.
 *
 * @param input - what the model sent
 * @param argument - the field name, for messages
 * @param example - an example of a good value, for the hint
 * @returns the trimmed value
 */
export function checkFilterText(input: string, argument: string, example: string): string {
  const value = input.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (value.length === 0 || value.length > 200 || /[\u0000-\u001f\u007f]/.test(value)) {
    refuse(
      "INVALID_INPUT",
      `${argument} ${JSON.stringify(input)} must be 1 to 200 characters without control characters.`,
      { hint: `Pass something like ${example}.` },
    );
  }
  return value;
}
