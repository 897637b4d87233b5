/**
 * The one shape of a list argument (`tags`): the schema advertises a list of strings, and a
 * comma-separated string — what some models send, and what the tools once took — is accepted
 * silently as that list (`z.preprocess(splitCommaList, z.array(…))`; never a union: clients that
 * turn JSON Schema back into zod flatten unions and refuse valid input).
 */

/**
 * Turns a comma-separated string into its trimmed, non-empty parts; anything else is returned as
 * is (the list schema after it judges it).
 *
 * @param value - what the model sent
 * @returns a list for a string, else the value unchanged
 * @example
 * splitCommaList("pricing, 2024"); // ["pricing", "2024"]
 * splitCommaList(["pricing"]); // ["pricing"]
 */
export function splitCommaList(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
