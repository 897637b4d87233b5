import type { ParsedLanguage } from "./languages.js";
import { runInPool } from "./parse-pool.js";
import { type ParseTextOptions, withTree } from "./runtime.js";

/**
 * Where a declaration's decorators start when the grammar makes them its preceding siblings
 * (TypeScript class members' `@x`, Rust's `#[…]` items): the parse step of `replace_symbol`'s
 * span rule (`symbol-edit/decorated-span.ts`), run where the engine parses.
 *
 * @internal
 */

/** What {@link siblingDecoratorsStartInThread} looks at. */
export interface SiblingDecoratorsQuery {
  readonly language: ParsedLanguage;
  readonly text: string;
  /** The declaration's span (offsets in `text`). */
  readonly startIndex: number;
  readonly endIndex: number;
  /** Node types that are decorators in this language. */
  readonly decoratorTypes: readonly string[];
}

/**
 * {@link siblingDecoratorsStartInThread} on a parse worker (`parse-pool.ts`).
 *
 * @param query - the text, the declaration's span and the decorator node types
 * @param options - the parse time limit and the call's signal
 * @returns the offset the span starts at, decorators included
 * @throws ParseFailure when the parse fails
 */
export function siblingDecoratorsStart(
  query: SiblingDecoratorsQuery,
  options: { signal?: AbortSignal | undefined; timeoutMs?: number } = {},
): Promise<number> {
  return runInPool<number>({ kind: "decorators", ...query }, options);
}

/**
 * The offset the declaration's span starts at once the decorator siblings right before it (only
 * whitespace between) are included; its own start when there are none.
 *
 * @param query - the text, the declaration's span and the decorator node types
 * @param options - the parse limits
 * @returns the offset
 * @throws ParseFailure when the parse fails
 */
export async function siblingDecoratorsStartInThread(
  query: SiblingDecoratorsQuery,
  options: ParseTextOptions = {},
): Promise<number> {
  const { text, startIndex, endIndex } = query;
  const decorators = new Set(query.decoratorTypes);
  return withTree(
    query.language,
    text,
    (tree) => {
      let node = tree.rootNode.descendantForIndex(startIndex, Math.max(startIndex, endIndex - 1));
      if (node === null) return startIndex;
      while (node.parent !== null && node.parent.startIndex === startIndex) node = node.parent;
      let start = startIndex;
      for (
        let sibling = node.previousNamedSibling;
        sibling !== null && decorators.has(sibling.type);
        sibling = sibling.previousNamedSibling
      ) {
        if (text.slice(sibling.endIndex, start).trim().length > 0) break;
        start = sibling.startIndex;
      }
      return start;
    },
    options,
  );
}
