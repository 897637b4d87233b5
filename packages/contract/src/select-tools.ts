import type { AnyTool } from "./define-tool.js";

/** What {@link selectTools} keeps. Every criterion given must hold (they combine with AND). */
export interface SelectToolsOptions {
  /** Keep tools that carry at least one of these tags (e.g. `["fs:read", "git:read"]`). */
  tags?: readonly string[];
  /** `true`: keep only tools annotated `readOnly`; `false`: only tools that are not. */
  readOnly?: boolean;
  /** Keep only tools with one of these names. */
  names?: readonly string[];
  /** Drop tools with one of these names. */
  excludeNames?: readonly string[];
}

/**
 * Picks the tools a host allows, by tag, read-only annotation and name — the host-side
 * allow-list (seed `000_…`'s `allowedToolTags`). Order is kept.
 *
 * Remember that tool descriptions mention their neighbours: after picking, prefer building the
 * family with the factory's own options (e.g. `mode: "read-only"`) so descriptions name only what
 * is mounted; `selectTools` is for the final allow-list across families.
 *
 * @param tools - any tools
 * @param options - the criteria; an empty object keeps everything
 * @returns the tools that meet every criterion given
 * @example
 * const allowed = selectTools([...fsTools, ...gitTools], { tags: ["fs:read", "git:read"] });
 */
export function selectTools<T extends AnyTool>(
  tools: readonly T[],
  options: SelectToolsOptions = {},
): T[] {
  const tags = options.tags === undefined ? undefined : new Set(options.tags);
  const names = options.names === undefined ? undefined : new Set(options.names);
  const excluded = new Set(options.excludeNames ?? []);
  return tools.filter((tool) => {
    if (excluded.has(tool.name)) return false;
    if (names !== undefined && !names.has(tool.name)) return false;
    if (options.readOnly !== undefined && (tool.annotations.readOnly === true) !== options.readOnly)
      return false;
    if (tags !== undefined && !tool.tags.some((tag) => tags.has(tag))) return false;
    return true;
  });
}
