import { z } from "zod";

/** Which tools a git tool's description, hints and rendered text may name. */
export interface MountedTools {
  /** Whether `name` is mounted beside the tool (the tool itself always is). */
  has(name: string): boolean;
  /** `text` when `name` is mounted, else `""` (for optional sentences and clauses). */
  when(name: string, text: string): string;
  /** The mounted ones of `names`, in order. */
  filter(names: readonly string[]): string[];
}

/** The `mountedTools` factory option: names of the tools mounted beside this one. */
export const mountedToolsOption = z
  .array(z.string().min(1))
  .readonly()
  .optional()
  .describe(
    "Names of the tools mounted beside this one; descriptions and hints name only these. createGitTools passes what it mounts. Default: none besides the tool itself.",
  );

/**
 * Builds the {@link MountedTools} view of a `mountedTools` option plus the tool's own name.
 *
 * @param own - the tool's own name (always mounted)
 * @param names - the option's value
 * @returns the view
 */
export function mountedTools(own: string, names: readonly string[] | undefined): MountedTools {
  const set = new Set([own, ...(names ?? [])]);
  return {
    has: (name) => set.has(name),
    when: (name, text) => (set.has(name) ? text : ""),
    filter: (list) => list.filter((name) => set.has(name)),
  };
}

/**
 * Joins "a", "a or b", "a, b or c".
 *
 * @param items - the words
 * @param word - the conjunction
 * @returns the phrase
 */
export function listWords(items: readonly string[], word = "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
}

/**
 * Joins description sentences, dropping the empty ones (left out because a tool they name is
 * not mounted).
 *
 * @param parts - sentences
 * @returns the description
 */
export function joinSentences(parts: ReadonlyArray<string | undefined | false>): string {
  return parts
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .join(" ");
}
