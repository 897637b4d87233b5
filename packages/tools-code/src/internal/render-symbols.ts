import type { CodeSymbol, SymbolKind } from "./tree-sitter/symbol.js";

/**
 * How the code tools show symbols to a model: one line each, line range first (what read_file
 * takes), indented by depth, then the signature (which holds the name) — preceded by the kind
 * only when the signature does not already say it with its keyword (`class`, `def`, `fn`,
 * `interface`…), or the name when the signature does not hold it.
 *
 * One notation for line ranges in every code tool: `45` for one line, `44-52` otherwise, and
 * `path:44-52` in lists that span files.
 *
 * @internal
 */

/** The declaration keywords that already say each kind (a kind not listed is always shown). */
const KIND_KEYWORDS: Partial<Record<SymbolKind, readonly string[]>> = {
  module: ["module", "mod", "namespace", "package"],
  namespace: ["namespace", "module", "mod", "package"],
  class: ["class", "record"],
  interface: ["interface", "protocol"],
  struct: ["struct"],
  trait: ["trait"],
  impl: ["impl"],
  enum: ["enum"],
  type: ["type", "typedef"],
  function: ["function", "def", "fn", "func"],
  method: ["function", "def", "fn", "func"],
  constructor: ["constructor", "function", "def", "fn", "func"],
  variable: ["var", "let", "const", "val"],
  constant: ["const"],
  macro: ["macro_rules", "define"],
};

/**
 * A line range: `45` for one line, `44-52` otherwise.
 *
 * @param start - first line (1-based)
 * @param end - last line (inclusive)
 * @returns the range
 * @example
 * formatLineRange(44, 52); // "44-52"
 */
export function formatLineRange(start: number, end: number): string {
  return start === end ? `${start}` : `${start}-${end}`;
}

/**
 * Whether a signature says its symbol's kind with a keyword before the name's parameters or
 * value (`export interface X`, `def f(…)`, `pub(crate) fn f`, Go's `type P struct`).
 *
 * @param symbol - the symbol
 * @returns `true` when the kind would repeat the signature
 */
export function signatureSaysKind(symbol: CodeSymbol): boolean {
  const keywords = KIND_KEYWORDS[symbol.kind];
  if (keywords === undefined) return false;
  const header = symbol.signature.split(/[(=:{<[]/, 1)[0] ?? "";
  return header.split(/[^A-Za-z0-9_]+/).some((word) => word.length > 0 && keywords.includes(word));
}

/**
 * One symbol without its range: `[kind ]signature`, the name before the signature when it does
 * not hold it, and `(in Parent)` in cross-file lists.
 *
 * @param symbol - the symbol
 * @param options - show the qualified name and the parent (search hits)
 * @returns the text
 */
export function symbolText(symbol: CodeSymbol, options: { qualified?: boolean } = {}): string {
  const label = options.qualified === true ? symbol.qualified_name : symbol.name;
  const signature = symbol.signature.includes(symbol.name)
    ? symbol.signature
    : `${label} ${symbol.signature}`.trim();
  const shown =
    options.qualified === true && symbol.parent !== null
      ? `${signature}  (in ${symbol.parent})`
      : signature;
  return signatureSaysKind(symbol) ? shown : `${symbol.kind} ${shown}`;
}

/**
 * One symbol's line.
 *
 * @param symbol - the symbol
 * @param options - indent by depth (outline) or show the qualified name (search hits)
 * @returns the line, without a newline
 */
export function symbolLine(
  symbol: CodeSymbol,
  options: { indent: boolean; qualified?: boolean },
): string {
  const range = formatLineRange(symbol.start_line, symbol.end_line);
  const indent = options.indent ? "  ".repeat(symbol.depth) : "";
  return `${range.padEnd(9)} ${indent}${symbolText(symbol, options)}`;
}
