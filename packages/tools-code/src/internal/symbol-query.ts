import type { CodeSymbol } from "./tree-sitter/symbol.js";

/**
 * How a name a model gives matches a symbol: a plain name matches a symbol's own name; a
 * qualified one (`Parser.parse`, `Parser::parse`, `Parser#parse`, `module.func`) matches the end
 * of the qualified name, or of the file's stem followed by it (Python's `json.loads` in
 * `json/__init__.py` or `json.py`).
 *
 * @internal
 */

/** A parsed query. */
export interface SymbolQuery {
  /** The name as given, trimmed. */
  given: string;
  /** Dot-separated parts (`::`, `#`, `->` and `\` read as dots). */
  parts: string[];
  /** The last part: what a text search must find in the file. */
  last: string;
}

/**
 * Parses a model's name.
 *
 * @param name - e.g. `parse`, `Parser.parse`, `Parser::parse()`
 * @returns the query
 */
export function parseSymbolQuery(name: string): SymbolQuery {
  const given = name.trim();
  const normalized = given
    .replace(/\(\)$/, "")
    .replace(/::|#|->|\\/g, ".")
    .replace(/^\.+|\.+$/g, "");
  const parts = normalized.split(".").filter((part) => part.length > 0);
  return { given, parts, last: parts[parts.length - 1] ?? given };
}

function fileStems(path: string): string[] {
  const segments = path.split("/");
  const base = segments[segments.length - 1] ?? "";
  const stem = base.replace(/\.[^.]*$/, "");
  const directory = segments[segments.length - 2];
  // A package's __init__ / index / mod file stands for its directory.
  return ["__init__", "index", "mod"].includes(stem) && directory !== undefined
    ? [stem, directory]
    : [stem];
}

/**
 * Whether a symbol answers a query.
 *
 * @param symbol - a symbol of `path`
 * @param query - the parsed name
 * @param path - the symbol's file (workspace path)
 * @returns `true` on a match
 */
export function matchesSymbol(symbol: CodeSymbol, query: SymbolQuery, path: string): boolean {
  if (symbol.name !== query.last) return false;
  if (query.parts.length === 1) return true;
  const wanted = query.parts.join(".");
  const qualified = symbol.qualified_name;
  if (qualified === wanted || qualified.endsWith(`.${wanted}`)) return true;
  return fileStems(path).some((stem) => {
    const withStem = `${stem}.${qualified}`;
    return withStem === wanted || withStem.endsWith(`.${wanted}`);
  });
}
