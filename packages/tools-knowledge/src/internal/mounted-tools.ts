import { z } from "zod";

/**
 * The `mountedTools` option of the knowledge tools: the names of the tools mounted beside one. A
 * description (and every message) names another tool only when it is listed here, so a search
 * tool mounted alone never tells the model about `read_file`.
 *
 * @internal
 */
export const mountedToolsOption = z.array(z.string().min(1)).readonly().optional();

/**
 * Which sibling tools a description or message may name.
 *
 * @internal
 */
export interface MountedTools {
  /** Whether `name` is mounted beside the tool. */
  has(name: string): boolean;
  /** `text` when `name` is mounted, else `""` (for optional sentences and clauses). */
  when(name: string, text: string): string;
}

/**
 * Builds the {@link MountedTools} view of a `mountedTools` option.
 *
 * @param names - the option's value (`undefined`: nothing is mounted beside the tool)
 * @returns the view
 * @internal
 */
export function mountedTools(names: readonly string[] | undefined): MountedTools {
  const set = new Set(names ?? []);
  return {
    has: (name) => set.has(name),
    when: (name, text) => (set.has(name) ? text : ""),
  };
}

/**
 * Joins description lines, dropping the empty ones (sentences left out because a tool they name
 * is not mounted).
 *
 * @param lines - the lines; `undefined`, `false` and `""` are dropped
 * @returns the joined text
 * @internal
 */
export function joinLines(lines: ReadonlyArray<string | undefined | false>): string {
  return lines
    .filter((line): line is string => typeof line === "string" && line.length > 0)
    .join("\n");
}
