import { z } from "zod";

/**
 * The `mountedTools` option of every web tool: names of the tools mounted beside it. A default
 * description (and a hint) names another tool only when it is listed; `createWebTools` and
 * `createNodeWebTools` pass what they mount. A tool made alone names no other tool.
 *
 * @internal
 */
export const mountedToolsOption = z.array(z.string().min(1)).readonly().optional();

/**
 * The names a web tool may mention: its own name and the `mountedTools` option.
 *
 * @internal
 */
export function mountedSet(own: string, names: readonly string[] | undefined): ReadonlySet<string> {
  return new Set([own, ...(names ?? [])]);
}

/**
 * Joins "a", "a or b", "a, b or c".
 *
 * @internal
 */
export function listWords(items: readonly string[], word = "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
}
