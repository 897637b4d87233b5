import { z } from "zod";

/**
 * The `mountedTools` factory option every family takes: the names of the tools mounted beside
 * this one. A default description, hint or message names another tool only when it is listed,
 * so a read-only set never tells the model about `edit_file`. A family's `create…Tools` fills it
 * with what it mounts; a tool made alone names no other tool unless the host lists them.
 */
export const mountedToolsOption = z
  .array(z.string().min(1))
  .readonly()
  .optional()
  .describe(
    "Names of the tools mounted beside this one; descriptions and hints name only these. A family's create…Tools passes what it mounts. Default: none besides the tool itself.",
  );

/** Which sibling tools a description, hint or message may name. */
export interface MountedTools {
  /** Whether `name` is mounted beside the tool (the tool itself always is, when named). */
  has(name: string): boolean;
  /** `text` when `name` is mounted, else `""` (for optional sentences and clauses). */
  when(name: string, text: string): string;
  /** `text` when every one of `names` is mounted, else `""`. */
  whenAll(names: readonly string[], text: string): string;
  /** The first of `names` that is mounted, if any. */
  first(...names: string[]): string | undefined;
  /** The mounted ones of `names`, in their order. */
  filter(names: readonly string[]): string[];
}

/**
 * Builds the {@link MountedTools} view of a `mountedTools` option.
 *
 * @param names - the option's value (`undefined`: no sibling is mounted)
 * @param own - the tool's own name, always counted as mounted
 * @returns the view
 * @example
 * const mounted = mountedTools(options.mountedTools, "git_log");
 * const hint = mounted.when("git_show", "Open a commit with git_show.");
 */
export function mountedTools(names: readonly string[] | undefined, own?: string): MountedTools {
  const set = new Set(names ?? []);
  if (own !== undefined) set.add(own);
  return {
    has: (name) => set.has(name),
    when: (name, text) => (set.has(name) ? text : ""),
    whenAll: (list, text) => (list.every((name) => set.has(name)) ? text : ""),
    first: (...list) => list.find((name) => set.has(name)),
    filter: (list) => list.filter((name) => set.has(name)),
  };
}
