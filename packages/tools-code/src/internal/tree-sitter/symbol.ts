/**
 * The symbol record every code tool shares, as it crosses the tool boundary (snake_case), and
 * the engine's own form of it with character offsets.
 *
 * @internal
 */

/** What a symbol is. Languages use the subset that applies to them. */
export const SYMBOL_KINDS = [
  "module",
  "namespace",
  "class",
  "interface",
  "struct",
  "trait",
  "impl",
  "enum",
  "enum_member",
  "type",
  "function",
  "method",
  "constructor",
  "property",
  "field",
  "variable",
  "constant",
  "macro",
  "rule",
  "heading",
  "key",
  "section",
] as const;

/** One of {@link SYMBOL_KINDS}. */
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** A declaration found in a file. */
export interface CodeSymbol {
  /** What it is (class, method, function…). */
  kind: SymbolKind;
  /** Its own name (`parse`). */
  name: string;
  /** Its name with its containers' names, dot-separated (`Parser.parse`, `Outer.Inner.x`). */
  qualified_name: string;
  /** The declaration's header on one line (whitespace collapsed, no body), capped. */
  signature: string;
  /** First line (1-based), decorators, attributes and `export` included. */
  start_line: number;
  /** Last line (1-based, inclusive): `read_file` with offset=start_line, limit=end_line-start_line+1 opens it. */
  end_line: number;
  /** The qualified name of the symbol it is declared in, or `null` at the top of the file. */
  parent: string | null;
  /** Nesting depth: 0 at the top of the file. */
  depth: number;
  /** Whether the language marks it visible outside its file or package (`export`, `pub`, `public`, an uppercase Go name), where it says so. */
  exported?: boolean;
}

/** A {@link CodeSymbol} with the character offsets (UTF-16, of the parsed text) the engine keeps. */
export interface EngineSymbol extends CodeSymbol {
  /** Offset of the definition's first character (decorators and `export` included). */
  startIndex: number;
  /** Offset just past the definition's last character. */
  endIndex: number;
  /** Offset of its name, or -1 when the name is not a single token in the text. */
  nameIndex: number;
}

/**
 * The boundary form of an engine symbol (offsets dropped).
 *
 * @param symbol - an engine symbol
 * @returns the same symbol without offsets
 */
export function toCodeSymbol(symbol: EngineSymbol): CodeSymbol {
  const { startIndex: _start, endIndex: _end, nameIndex: _name, ...rest } = symbol;
  return rest;
}
