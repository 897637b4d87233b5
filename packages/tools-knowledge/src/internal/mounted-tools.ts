import { joinSentences } from "@agentool/contract";

/**
 * The contract's `mountedTools` view and option (the knowledge tools' own copy is gone).
 *
 * @internal
 */
export { type MountedTools, mountedTools, mountedToolsOption } from "@agentool/contract";

/**
 * Joins description lines, dropping the empty ones: `joinSentences(lines, "\n")` from the
 * contract. Kept only until `search/search-knowledge.ts` imports the kit itself.
 *
 * @param lines - the lines; `undefined`, `false` and `""` are dropped
 * @returns the joined text
 * @internal
 */
export function joinLines(lines: ReadonlyArray<string | undefined | false>): string {
  return joinSentences(lines, "\n");
}
