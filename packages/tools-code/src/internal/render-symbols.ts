import type { CodeSymbol } from "./tree-sitter/symbol.js";

/**
 * How the code tools show symbols to a model: one line each, line range first (what read_file
 * takes), indented by depth, the kind, then the signature (which holds the name) — or the name
 * when the signature does not.
 *
 * @internal
 */

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
  const range =
    symbol.start_line === symbol.end_line
      ? `${symbol.start_line}`
      : `${symbol.start_line}-${symbol.end_line}`;
  const indent = options.indent ? "  ".repeat(symbol.depth) : "";
  const label = options.qualified === true ? symbol.qualified_name : symbol.name;
  const signature = symbol.signature.includes(symbol.name)
    ? symbol.signature
    : `${label} ${symbol.signature}`.trim();
  const shown =
    options.qualified === true && symbol.parent !== null
      ? `${signature}  (in ${symbol.parent})`
      : signature;
  return `${range.padEnd(9)} ${indent}${symbol.kind} ${shown}`;
}
