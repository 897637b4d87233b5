import type { ParsedLanguage } from "../tree-sitter/languages.js";
import { siblingDecoratorsStart } from "../tree-sitter/sibling-decorators.js";
import type { EngineSymbol } from "../tree-sitter/symbol.js";

/**
 * One rule for every language: a symbol's span is its decorators (attributes, annotations) and
 * its declaration, never the comments or doc comments above it. The engine's spans already
 * include them where the grammar nests decorators in the declaration (Python's
 * `decorated_definition`, Java, C#, PHP, JavaScript); where the grammar makes them siblings
 * (TypeScript class members, Rust's `#[…]` items) the span is widened here.
 *
 * @internal
 */

/** Node types that are a sibling declaration's decorators, by language. */
const SIBLING_DECORATORS: Partial<Record<ParsedLanguage, ReadonlySet<string>>> = {
  typescript: new Set(["decorator"]),
  tsx: new Set(["decorator"]),
  javascript: new Set(["decorator"]),
  rust: new Set(["attribute_item"]),
};

/** What starts a decorator or attribute: `@x` (most languages), `#[x]` (Rust, PHP), `[X]` (C#). */
const DECORATOR_START = /^(?:@[A-Za-z_$]|#\[)/;
const CSHARP_ATTRIBUTE_START = /^\[[A-Za-z_]/;

/**
 * The start of a symbol's span with the decorators the grammar left outside it.
 *
 * @param language - the file's language
 * @param text - the file's text
 * @param symbol - a symbol of it
 * @returns the offset the span starts at (the symbol's own start when nothing precedes it)
 */
export async function decoratedStart(
  language: ParsedLanguage,
  text: string,
  symbol: EngineSymbol,
): Promise<number> {
  const decorators = SIBLING_DECORATORS[language];
  if (decorators === undefined) return symbol.startIndex;
  // Parsed on a parse worker, as every parse of the engine.
  return siblingDecoratorsStart({
    language,
    text,
    startIndex: symbol.startIndex,
    endIndex: symbol.endIndex,
    decoratorTypes: [...decorators],
  });
}

/**
 * Whether a span starts with a decorator, attribute or annotation (`@x`, `#[x]`, `[X]`).
 *
 * @param language - the file's language
 * @param span - the span's text
 * @returns `true` when it does
 */
export function startsWithDecorator(language: ParsedLanguage, span: string): boolean {
  const start = span.trimStart();
  return (
    DECORATOR_START.test(start) || (language === "csharp" && CSHARP_ATTRIBUTE_START.test(start))
  );
}
